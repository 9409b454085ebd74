"""The workbench's pages and actions (Starlette, Jinja2 templates rendered on the server).

Reads go to the snapshot (app.web.snapshot); every write goes through `app.actions` with the signed-in
user's name and roles; the engine re-scores the act's cells before the action returns, and the workbench
reloads the tables the act changed, so the page a lawyer lands on already shows the new scores. A saved etalon
file asks for a refresh (a whole update, in the background), and the page says so while it runs.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from app import actions, users
from app.actions import Refused
from app.web import authoring, item, queue, render, security
from app.web.corpus import Corpus
from app.web.refresher import Refresher
from app.web.snapshot import Snapshot
from warehouse.home import Home

log = logging.getLogger("etalon.web")
HERE = Path(__file__).parent
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
       "base-uri 'none'; frame-ancestors 'none'; form-action 'self'")


class Workbench:
    """The state one server holds: the snapshot, the corpus lookup, sessions, the refresher."""

    def __init__(self, home: Home, *, refresh: Callable[[Home], object] | None = None) -> None:
        self.home = home
        self.snap = Snapshot(home)
        self.snap.load()
        self.corpus = Corpus(home)
        self.sessions = security.Sessions()
        self.refresher = Refresher(home, after=self._after_refresh, run=refresh)
        self.env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True,
                                      trim_blocks=True, lstrip_blocks=True)
        self.env.filters["q"] = lambda params: urlencode(params)
        self.env.filters["json"] = lambda v: json.loads(v) if isinstance(v, str) and v else (v or [])
        self.env.filters["short"] = lambda v: (str(v)[:19].replace("T", " ") if v else "")
        self.env.globals["rule"] = self.rule

    def _after_refresh(self) -> None:
        self.snap.load()

    def rule(self, benchmark: str, methodology: str, row: dict[str, Any]) -> str:
        """The rule that decided the verdict of a score row, with the benchmark's own thresholds."""
        from evaluation.methodologies.config import config_for

        found = self.snap.one("SELECT thresholds FROM benchmarks WHERE id = ?", [benchmark]) \
            if self.snap.has_column("benchmarks", "thresholds") else None
        try:
            thresholds = json.loads(found["thresholds"]) if found and found.get("thresholds") else {}
            config = config_for(methodology, {"thresholds": thresholds} if thresholds else None)
        except ValueError:
            config = config_for(methodology, None)
        notes = json.loads(row["notes"]) if isinstance(row.get("notes"), str) and row.get("notes") else []
        return render.verdict_rule(row.get("verdict"), row.get("score"), notes, config.thresholds.negative_below,
                                   config.thresholds.positive_at)

    def judge_configured(self) -> bool:
        from evaluation.systems import load_systems

        try:
            return self.home.systems_file.exists() and load_systems(self.home.systems_file).judge is not None
        except Exception:
            return False

    def corpus_ready(self) -> Corpus:
        self.corpus.refresh(self.snap.catalog_mtime)
        return self.corpus

    def render(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        session: security.Session | None = request.state.session
        identity: security.Identity | None = request.state.identity
        flash = list(session.flash) if session else []
        if session:
            session.flash.clear()
        page = self.env.get_template(template).render(
            request=request, me=identity.user if identity else None, via=identity.via if identity else None,
            csrf=session.csrf if session else "", flash=flash, refreshing=self.refresher.pending,
            refresh_error=self.refresher.last_error, situations=queue.SITUATIONS,
            last_decision=session.last_decision if session else None, **context)
        return HTMLResponse(page, status_code=status)


# -- middleware --------------------------------------------------------------------------------------------

class Guard(BaseHTTPMiddleware):
    """Session and identity on every request; CSRF on every state change; security headers on every reply."""

    async def dispatch(self, request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        bench: Workbench = request.app.state.bench
        session = bench.sessions.get(request.cookies.get(security.COOKIE))
        fresh = session is None
        if session is None:
            session = bench.sessions.new()
        request.state.session = session
        request.state.identity = _identity(bench, request, session)
        request.state.fresh = fresh
        if bench.snap.stale():
            bench.snap.reload_in_background()
        response = await call_next(request)
        session = request.state.session
        return _headers(response, request, session if (fresh or getattr(request.state, "new_cookie", False))
                        else None)


def _headers(response: Response, request: Request, session: security.Session | None) -> Response:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["Cache-Control"] = "no-store"
    if session is not None:
        secure = security.secure_cookies() or request.url.scheme == "https"
        response.set_cookie(security.COOKIE, session.token, httponly=True, samesite="strict", secure=secure,
                            path="/", max_age=security.IDLE_S)
    return response


def _identity(bench: Workbench, request: Request, session: security.Session) -> security.Identity | None:
    header = security.proxy_header()
    if header:
        login = request.headers.get(header)
        if login and security.trusted_proxy(request):
            user = users.find(bench.home.root, login)
            return security.Identity(user, "proxy") if user else None
        return None
    if session.login:
        user = users.find(bench.home.root, session.login)
        if user is not None:
            return security.Identity(user, "web")
        session.login = None
    return None


def _bench(request: Request) -> Workbench:
    bench: Workbench = request.app.state.bench
    return bench


def _me(request: Request) -> security.Identity:
    identity: security.Identity | None = request.state.identity
    if identity is None:
        raise _SignIn()
    return identity


class _SignIn(Exception):
    pass


def _flash(request: Request, kind: str, message: str) -> None:
    request.state.session.flash.append((kind, message))


def _back(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def _safe_next(value: str | None) -> str:
    return value if value and value.startswith("/") and not value.startswith("//") else "/queue"


# -- sign-in -----------------------------------------------------------------------------------------------

async def login_page(request: Request) -> Response:
    if security.proxy_header():
        return _bench(request).render(request, "login.html", proxy=True, next="/queue", login="")
    return _bench(request).render(request, "login.html", proxy=False, next=_safe_next(request.query_params.get("next")),
                                  login="")


async def login(request: Request) -> Response:
    bench = _bench(request)
    form = await request.form()
    login_name, password = str(form.get("login") or ""), str(form.get("password") or "")
    where = security.client_address(request)
    delay = bench.sessions.delay_for(where, login_name)
    if delay:
        await asyncio.sleep(delay)
    user = await asyncio.to_thread(users.authenticate, bench.home.root, login_name, password)
    if user is None:
        bench.sessions.failed(where, login_name)
        return bench.render(request, "login.html", status=401, proxy=False, next=_safe_next(str(form.get("next"))),
                            login=login_name, error="Wrong login or password, or the account is disabled.")
    bench.sessions.succeeded(where, login_name)
    request.state.session = bench.sessions.sign_in(request.state.session, user.login)
    request.state.new_cookie = True
    return _back(_safe_next(str(form.get("next") or "")))


async def logout(request: Request) -> Response:
    bench = _bench(request)
    bench.sessions.drop(request.state.session)
    request.state.session = bench.sessions.new()
    request.state.new_cookie = True
    return _back("/login")


# -- queue -------------------------------------------------------------------------------------------------

async def home_page(request: Request) -> Response:
    return _back("/queue")


async def queue_page(request: Request) -> Response:
    me = _me(request)
    bench = _bench(request)
    filters = queue.Filters.from_query(request.query_params)
    view = await asyncio.to_thread(queue.queue, bench.snap, filters, me.user.name)
    return bench.render(request, "queue.html", view=view, filters=filters)


def _reviewers(bench: Workbench, code: str) -> int:
    row = bench.snap.one("SELECT benchmark FROM etalons WHERE code = ?", [code])
    return actions.reviewers_required(bench.home, row["benchmark"]) if row else 1


async def item_page(request: Request) -> Response:
    me = _me(request)
    bench = _bench(request)
    params = request.query_params
    raw_id = params.get("id") or ""
    try:
        system, code, version, attempt, target = actions.parse_item_id(raw_id if raw_id.count(":") >= 4
                                                                       else raw_id + ":")
    except Refused as exc:
        return bench.render(request, "error.html", status=404, message=str(exc))
    filters = queue.Filters.from_query(params)
    n = _reviewers(bench, code)

    def gather() -> Any:
        corpus = bench.corpus_ready()
        view = item.cell(bench.snap, corpus, system, code, version, attempt, target or None, n,
                         bench.judge_configured())
        nav = queue.neighbours(bench.snap, filters, me.user.name, raw_id, (system, code, version, attempt, target))
        return view, nav

    view, nav = await asyncio.to_thread(gather)
    if view is None:
        return bench.render(request, "error.html", status=404,
                            message=f"no etalon {code} version {version} in the warehouse")
    hidden = _hidden(view, me.user.name)
    approve_refusal = _approval_refusal(bench, view, me)
    return bench.render(request, "item.html", cell=view, nav=nav, filters=filters, hidden=hidden,
                        approve_refusal=approve_refusal)


def _hidden(view: item.CellView, viewer: str) -> set[str]:
    """Decision ids whose value and note the viewer must not see yet (blind double review)."""
    out = set()
    by_target = {e.element.id: e.review for e in view.elements}
    for d in view.history:
        review = by_target.get(d.target)
        if review is not None and review.hides_from(viewer) and d.decided_by.casefold() != viewer.casefold():
            out.add(d.decision_id)
    return out


def _approval_refusal(bench: Workbench, view: item.CellView, me: security.Identity) -> str | None:
    from evaluation.review import approval_refusal

    sig = bench.snap.one("SELECT signed_by FROM etalons WHERE code = ? AND version = ?", [view.code, view.version])
    signer = sig["signed_by"] if sig else None
    author = view.etalon.author
    pool = signer is not None and (author or "").casefold() != signer.casefold()
    return approval_refusal(author, me.user.name, pool, roles=me.user.roles, signer=signer)


# What a human act changes in the snapshot. The engine re-scores the act's cells before the action returns
# (its fast path), so reloading these tables is all a page needs; only a saved etalon file asks for a refresh.
SCORED = ("decisions", "audits", "review", "scores", "leaderboard")


async def _act(request: Request, work: Callable[[], str], back: str, refresh: bool = False,
               tables: tuple[str, ...] = SCORED) -> Response:
    """Run an action off the event loop; flash its outcome or its refusal; reload what it changed; refresh
    the warehouse only when asked (a saved etalon file, which no fast path covers)."""
    bench = _bench(request)
    try:
        message = await asyncio.to_thread(work)
    except Refused as exc:
        _flash(request, "error", str(exc))
        return _back(back)
    _flash(request, "ok", message)
    if tables:
        await asyncio.to_thread(bench.snap.load_events, tables)
    if refresh:
        ticket = bench.refresher.request()
        await asyncio.to_thread(bench.refresher.wait, ticket)
    return _back(back)


async def decide(request: Request) -> Response:
    me = _me(request)
    bench = _bench(request)
    form = await request.form()
    target_id, value = str(form.get("id") or ""), str(form.get("value") or "")
    note = str(form.get("note") or "").strip() or None
    back = _safe_next(str(form.get("back") or "")) if form.get("back") else f"/item?{urlencode({'id': target_id})}"
    session = request.state.session

    def work() -> str:
        messages: list[str] = []
        decision_id = actions.decide(bench.home, target_id, value, me.user.name, note, via=me.via,
                                     messages=messages)
        session.last_decision = decision_id
        if messages:   # an audit label: and, once the answer's labels are all in, what the judge had concluded
            return " ".join(m.split(" To put a lawyer's value in force")[0] for m in messages) + " Press u to undo."
        return f"Recorded {value} on {target_id.split(':', 4)[-1]} ({target_id.split(':')[1]}, " \
               f"{target_id.split(':')[0]}). Press u to undo."
    return await _act(request, work, back)


async def disagree(request: Request) -> Response:
    me = _me(request)
    bench = _bench(request)
    form = await request.form()
    target_id, note = str(form.get("id") or ""), str(form.get("note") or "")
    session = request.state.session

    def work() -> str:
        session.last_decision = actions.disagree(bench.home, target_id, me.user.name, note, via=me.via)
        return "Disagreement recorded: the element is open again until someone decides it."
    return await _act(request, work, f"/item?{urlencode({'id': target_id})}")


async def undo(request: Request) -> Response:
    me = _me(request)
    bench = _bench(request)
    form = await request.form()
    decision_id = str(form.get("decision_id") or "")
    back = _safe_next(str(form.get("back") or ""))
    session = request.state.session

    def work() -> str:
        actions.undo(bench.home, decision_id, me.user.name, via=me.via, roles=me.user.roles)
        if session.last_decision == decision_id:
            session.last_decision = None
        return f"Undone: decision {decision_id} (kept on record as undone)."
    return await _act(request, work, back)


async def approve(request: Request) -> Response:
    me = _me(request)
    bench = _bench(request)
    form = await request.form()
    system, code = str(form.get("system") or ""), str(form.get("code") or "")
    back = _safe_next(str(form.get("back") or ""))

    def work() -> str:
        n = actions.approve(bench.home, system, code, me.user.name, via=me.via, roles=me.user.roles)
        return f"Approved {n} answer(s) of {system} on {code}."
    return await _act(request, work, back, tables=("approvals", "review", "scores", "leaderboard"))


# -- etalons -----------------------------------------------------------------------------------------------

async def etalons_page(request: Request) -> Response:
    _me(request)
    bench = _bench(request)
    wanted = request.query_params.get("status") or None
    rows = bench.snap.rows("SELECT benchmark, code, title, status, version, signed_by, author, methodology "
                           "FROM etalons WHERE (?::VARCHAR IS NULL OR status = ?) ORDER BY benchmark, code LIMIT 500",
                           [wanted, wanted])
    counts = bench.snap.rows("SELECT status, count(*) AS n FROM etalons GROUP BY 1 ORDER BY 1")
    return bench.render(request, "etalons.html", rows=rows, counts=counts, wanted=wanted)


async def etalon_page(request: Request) -> Response:
    _me(request)
    bench = _bench(request)
    code = request.path_params["code"]
    row = bench.snap.one("SELECT * FROM etalons WHERE code = ?", [code])
    if row is None:
        return bench.render(request, "error.html", status=404, message=f"no etalon {code!r} in the warehouse")
    versions = bench.snap.rows("SELECT version, title, first_seen, is_current, signed_by, signed_at "
                               "FROM history WHERE code = ? ORDER BY first_seen, version", [code])
    corpus = await asyncio.to_thread(bench.corpus_ready)
    sources = bench.snap.rows("SELECT * FROM sources WHERE code = ? AND version = ? ORDER BY idx", [code, row["version"]])
    jurisdiction = row["jurisdiction"]
    resolved = [(s, corpus.resolve_text(s["citation"], jurisdiction)) for s in sources]
    scores = bench.snap.rows("SELECT system, attempt, version, score, verdict, status, indicative, components, notes, "
                             "scored_at, approved_by FROM scores WHERE code = ? AND is_current ORDER BY system, attempt",
                             [code])
    a, b = request.query_params.get("a"), request.query_params.get("b")
    diff_lines: list[render.DiffLine] = []
    if a and b:
        contents = {r["version"]: r["content"] for r in bench.snap.rows(
            "SELECT version, content FROM history WHERE code = ? AND version IN (?, ?)", [code, a, b])}
        if a in contents and b in contents:
            diff_lines = render.diff(render.etalon_yaml(contents[a]), render.etalon_yaml(contents[b]), a, b)
    revoked = next((v for v in reversed(versions) if v["signed_by"] and not v["is_current"]), None) \
        if row["status"] == "pool" else None
    changes = bench.snap.rows("SELECT * FROM corpus_changes WHERE code = ?", [code]) \
        if bench.snap.has_column("corpus_changes", "code") else []
    n_open = bench.snap.value("SELECT count(*) FROM review WHERE code = ? AND version = ?", [code, row["version"]])
    return bench.render(request, "etalon.html", e=row, versions=versions, sources=resolved, scores=scores,
                        diff=diff_lines, a=a, b=b, revoked=revoked, changes=changes, open=n_open,
                        corpus_changed=bool(row.get("corpus_changed")))


async def sign(request: Request) -> Response:
    me = _me(request)
    bench = _bench(request)
    code = request.path_params["code"]

    def work() -> str:
        version = actions.sign(bench.home, code, me.user.name, via=me.via, roles=me.user.roles,
                               lookup=bench.corpus_ready().lookup)
        return f"Signed {code} version {version} as {me.user.name}."
    return await _act(request, work, f"/etalons/{code}", tables=("signatures", "etalons", "history", "review", "scores", "leaderboard"))


async def edit_page(request: Request) -> Response:
    me = _me(request)
    bench = _bench(request)
    code = request.path_params.get("code")
    if not me.user.has("author"):
        return bench.render(request, "error.html", status=403, message="editing etalons needs the author role")
    if code is None:  # a new etalon
        benchmark = request.query_params.get("benchmark") or ""
        if not (bench.home.etalons_dir / benchmark / "benchmark.yaml").is_file():
            return bench.render(request, "error.html", status=404, message=f"no benchmark {benchmark!r}")
        text = _template(benchmark, me.user.name)
        return bench.render(request, "edit.html", code=None, benchmark=benchmark, file_name="", text=text,
                            base_hash="", result=None, excerpts=[])
    row = bench.snap.one("SELECT benchmark, file FROM etalons WHERE code = ?", [code])
    if row is None:
        return bench.render(request, "error.html", status=404, message=f"no etalon {code!r}")
    try:
        path = authoring.etalon_path(bench.home, row["file"])
        text = path.read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:
        return bench.render(request, "error.html", status=404, message=f"{row['file']}: {exc}")
    return bench.render(request, "edit.html", code=code, benchmark=row["benchmark"], file_name=path.name, text=text,
                        base_hash=authoring.file_hash(text), result=None, excerpts=[])


def _template(benchmark: str, author: str) -> str:
    return (f"code: NEW-01\ntitle: \njurisdiction: ro\nbranch: civil\ndifficulty: 2\ntype: application\n"
            f"author: {json.dumps(author, ensure_ascii=False)}\nquestion: |\n  \ndecisive_issue: \n"
            "branches:\n  - \nreference_answer: |\n  \nsources:\n  - citation: \n    priority: mandatory\n")


async def _checked(request: Request) -> tuple[Workbench, dict[str, Any], authoring.Check]:
    bench = _bench(request)
    form = await request.form()
    text = str(form.get("text") or "").replace("\r\n", "\n")
    code = request.path_params.get("code")
    benchmark = str(form.get("benchmark") or "")
    file_name = str(form.get("file_name") or "")
    if code is not None:
        row = bench.snap.one("SELECT benchmark, file FROM etalons WHERE code = ?", [code])
        if row is None:
            raise Refused(f"no etalon {code!r}")
        benchmark, file_name = row["benchmark"], Path(row["file"]).name
    corpus = await asyncio.to_thread(bench.corpus_ready)
    if not file_name:
        new_code = _code_in(text)
        file_name = f"{new_code}.yaml" if new_code else "NEW.yaml"
    result = await asyncio.to_thread(authoring.check, bench.home, bench.snap, corpus, benchmark, file_name, text, code)
    fields = {"text": text, "code": code, "benchmark": benchmark, "file_name": file_name,
              "base_hash": str(form.get("base_hash") or "")}
    return bench, fields, result


def _code_in(text: str) -> str | None:
    import re

    found = re.search(r"^code\s*:\s*[\"']?([A-Za-z0-9][A-Za-z0-9_.-]*)", text, re.MULTILINE)
    return found.group(1) if found else None


async def check(request: Request) -> Response:
    _me(request)
    try:
        bench, fields, result = await _checked(request)
    except Refused as exc:
        return HTMLResponse(f"<p class=error>{_escape(str(exc))}</p>", status_code=404)
    html = bench.env.get_template("_check.html").render(result=result, excerpts=_excerpts(fields["text"], result))
    return HTMLResponse(html)


def _escape(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))


def _excerpts(text: str, result: authoring.Check) -> list[tuple[Any, list[tuple[int, str, bool]]]]:
    return [(e, render.excerpt(text, e.line)) for e in result.errors if e.line]


async def save(request: Request) -> Response:
    me = _me(request)
    if not me.user.has("author"):
        return _bench(request).render(request, "error.html", status=403, message="editing etalons needs the author role")
    try:
        bench, fields, result = await _checked(request)
    except Refused as exc:
        return _bench(request).render(request, "error.html", status=404, message=str(exc))
    if result.errors or result.loaded is None:
        return bench.render(request, "edit.html", status=422, result=result, excerpts=_excerpts(fields["text"], result),
                            **fields)
    path = authoring.etalon_path(bench.home, f"{bench.home.etalons_dir.name or 'etalons'}/{fields['benchmark']}/"
                                 f"{fields['file_name']}")
    code = result.loaded.code

    def work() -> str:
        actions.write_etalon(path, fields["text"], base_hash=fields["base_hash"] or None)
        return f"Saved {path.name}: " + "; ".join(result.plan)
    return await _act(request, work, f"/etalons/{code}", refresh=True, tables=())


# -- results -----------------------------------------------------------------------------------------------

async def results_page(request: Request) -> Response:
    _me(request)
    bench = _bench(request)
    rows = bench.snap.rows("SELECT * FROM leaderboard ORDER BY benchmark, mean_score DESC NULLS LAST")
    return bench.render(request, "results.html", rows=rows)


async def system_page(request: Request) -> Response:
    _me(request)
    bench = _bench(request)
    system = request.path_params["system"]
    try:
        page = max(1, int(request.query_params.get("page") or 1))
    except ValueError:
        page = 1
    board = bench.snap.rows("SELECT * FROM leaderboard WHERE system = ? ORDER BY benchmark", [system])
    total = bench.snap.value("SELECT count(*) FROM scores WHERE system = ? AND is_current", [system]) or 0
    cells = bench.snap.rows(f"SELECT code, version, attempt, benchmark, methodology, score, verdict, status, indicative, components, notes, "
                            f"scored_at FROM scores WHERE system = ? AND is_current ORDER BY code, attempt "
                            f"LIMIT {queue.PAGE} OFFSET {(page - 1) * queue.PAGE}", [system])
    changed = bench.snap.rows("""
        SELECT s.code, s.attempt, s.version AS old_version, c.version AS new_version, s.score AS old_score,
               c.score AS new_score, s.verdict AS old_verdict, c.verdict AS new_verdict
        FROM scores s JOIN scores c ON c.system = s.system AND c.code = s.code AND c.attempt = s.attempt
        WHERE s.system = ? AND NOT s.is_current AND c.is_current
        QUALIFY row_number() OVER (PARTITION BY s.code, s.attempt ORDER BY s.scored_at DESC) = 1
        ORDER BY s.code LIMIT 200""", [system])
    return bench.render(request, "system.html", system=system, board=board, cells=cells, changed=changed,
                        page=page, pages=max(1, -(-int(total) // queue.PAGE)), total=total)


async def status(request: Request) -> Response:
    bench = _bench(request)
    return JSONResponse({"refreshing": bench.refresher.pending, "completed": bench.refresher.completed,
                         "error": bench.refresher.last_error, "snapshot": bench.snap.generation,
                         "snapshot_seconds": bench.snap.load_seconds})


# -- the application ---------------------------------------------------------------------------------------

async def _csrf_ok(request: Request) -> bool:
    """The session's token echoed in the X-CSRF-Token header or the form's `csrf` field (read once here;
    the endpoint reads the same cached form)."""
    session = None if request.state.fresh else request.state.session
    given = request.headers.get("x-csrf-token")
    if given is None and request.headers.get("content-type", "").startswith(
            ("application/x-www-form-urlencoded", "multipart/form-data")):
        value = (await request.form()).get("csrf")
        given = value if isinstance(value, str) else None
    return security.csrf_ok(session, given)


def _guarded(endpoint: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    async def run(request: Request) -> Response:
        started = time.perf_counter()
        if request.method not in ("GET", "HEAD") and not await _csrf_ok(request):
            return HTMLResponse("<!doctype html><title>Refused</title><p>Refused: this request has no valid "
                                "CSRF token. Reload the page and try again.</p>", status_code=403)
        try:
            response = await endpoint(request)
        except _SignIn:
            if request.method != "GET":
                return HTMLResponse("<p>Sign in first.</p>", status_code=401)
            return _back("/login?" + urlencode({"next": request.url.path + (
                "?" + request.url.query if request.url.query else "")}))
        response.headers["Server-Timing"] = f"page;dur={(time.perf_counter() - started) * 1000:.1f}"
        return response
    return run


def create_app(home: Home, *, refresh: Callable[[Home], object] | None = None) -> Starlette:
    routes = [
        Route("/", _guarded(home_page)),
        Route("/login", _guarded(login_page), methods=["GET"]),
        Route("/login", _guarded(login), methods=["POST"]),
        Route("/logout", _guarded(logout), methods=["POST"]),
        Route("/queue", _guarded(queue_page)),
        Route("/item", _guarded(item_page)),
        Route("/decide", _guarded(decide), methods=["POST"]),
        Route("/disagree", _guarded(disagree), methods=["POST"]),
        Route("/undo", _guarded(undo), methods=["POST"]),
        Route("/approve", _guarded(approve), methods=["POST"]),
        Route("/etalons", _guarded(etalons_page)),
        Route("/etalons/new", _guarded(edit_page)),
        Route("/etalons/new/check", _guarded(check), methods=["POST"]),
        Route("/etalons/new/save", _guarded(save), methods=["POST"]),
        Route("/etalons/{code}", _guarded(etalon_page)),
        Route("/etalons/{code}/sign", _guarded(sign), methods=["POST"]),
        Route("/etalons/{code}/edit", _guarded(edit_page)),
        Route("/etalons/{code}/check", _guarded(check), methods=["POST"]),
        Route("/etalons/{code}/save", _guarded(save), methods=["POST"]),
        Route("/results", _guarded(results_page)),
        Route("/results/{system}", _guarded(system_page)),
        Route("/status", status),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(Guard)])
    app.state.bench = Workbench(home, refresh=refresh)
    return app

"""`etalon status` and `etalon show CODE`: what a person needs to know before acting, read from the warehouse.

Both only read: the engine's plan (which partitions an update would recompute, and why), the inputs' load
errors, and the catalog views analysts query. Neither runs anything, so they answer in a second and can be run
at any time, also while an update is writing.
"""

from __future__ import annotations

from typing import Any

from app.actions import Refused, signatures_to_reconfirm
from app.consequences import SHOWN, snapshot
from warehouse.home import Home
from warehouse.lake import Lake


def _listed(items: list[str], indent: str = "  ") -> list[str]:
    out = [f"{indent}- {i}" for i in items[:SHOWN]]
    if len(items) > SHOWN:
        out.append(f"{indent}… and {len(items) - SHOWN} more")
    return out


def _query(lake: Lake, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    from warehouse.catalog import memory_catalog

    con = memory_catalog(lake)
    try:
        rows: list[tuple[Any, ...]] = con.execute(sql, list(params)).fetchall()
        return rows
    finally:
        con.close()


def stale(home: Home) -> list[str]:
    """Partitions an update would recompute now, with the engine's reason (planning reads, never writes)."""
    from evaluation.engine.plan import plan_group
    from evaluation.engine.stages import GROUPS
    from evaluation.engine.world import World

    world = World.open(home)
    out = []
    for group, _ in GROUPS:
        plan = plan_group(world, group)
        out += [f"{group} {p}: {plan.reasons[p]}" for p in plan.partitions]
    return out


def input_problems(home: Home) -> list[str]:
    """Etalon, benchmark, systems and sources files that do not load, as the next update would report them."""
    from evaluation.engine.stages.corpus import configured
    from evaluation.engine.world import World

    world = World.open(home)
    problems = [str(e) for e in world.loaded.errors]
    _ = world.systems      # records a systems file that does not validate
    configured(world)      # and a sources file that does not
    return list(dict.fromkeys(problems + world.problems))


def rejected_signatures(home: Home) -> list[tuple[dict[str, Any], str]]:
    """Signature records that fail verification (written by hand, altered, signed with another key): the
    engine ignores them, so they never count; they are listed here so someone looks at who wrote them."""
    from etalons.keys import SigningKeyError, signing_key
    from etalons.signatures import verify_signatures

    rows = Lake(home.lake).read_all("signatures").to_pylist()
    if not rows:
        return []
    try:
        key = signing_key(home.root, home.lake, create=False)
    except SigningKeyError as exc:
        return [(r, str(exc)) for r in rows]
    return list(verify_signatures(rows, key)[1])


def status(home: Home) -> list[str]:
    lake = Lake(home.lake)
    out = [f"warehouse: {home.root}"]
    todo = stale(home)
    out.append(f"stale: {len(todo)} partition(s) an update would recompute" + (" (`etalon update`)" if todo else ""))
    out += _listed(todo)
    problems = input_problems(home)
    from corpus.sources import sources_for

    configured = {src.name for src in sources_for(home.sources_file, home.inbox)}
    ingest = [(f, r, d) for s, f, r, d in _query(lake, "SELECT source, file, reason, detail FROM "
                                                        "corpus.ingest_errors ORDER BY file") if s in configured]
    calls = _query(lake, "SELECT a.system, a.code, a.error FROM eval.answers a JOIN bench.etalons e "
                         "USING (benchmark, code, version) WHERE a.status = 'error' ORDER BY ALL")
    forged = rejected_signatures(home)
    out.append(f"failing: {len(problems)} input problem(s), {len(ingest)} corpus file(s) not ingested, "
               f"{len(calls)} failed model call(s), {len(forged)} signature(s) rejected")
    out += _listed([f"input: {p}" for p in problems])
    out += _listed([f"corpus: {f}: {r}: {d}" for f, r, d in ingest])
    out += _listed([f"answer: {s} on {c}: {e}" for s, c, e in calls])
    out += _listed([f"signature: {r.get('code')} by {r.get('signed_by')} ignored: {why}" for r, why in forged])
    snap = snapshot(lake)
    out.append(f"waiting for answers: {len(snap.waiting_answers)} cell(s)")
    out += _listed([f"{s} on {c}" for s, _, c in snap.waiting_answers])
    items = _query(lake, "SELECT system, code, target, why, situation FROM eval.review "
                         "ORDER BY system, code, attempt, target")
    resign = signatures_to_reconfirm(lake)
    unsigned = [c for (_, c), e in sorted(snap.etalons.items()) if e.status == "pool"]
    audits = sum(1 for *_, situation in items if situation == "audit")
    of_them = f" ({audits} of them in the audit sample of the judge)" if audits else ""
    out.append(f"waiting for a human: {len(items)} review item(s){of_them}, {len(resign)} signature(s) to "
               f"re-confirm, {len(unsigned)} etalon(s) not signed")
    out += _listed([f"review: {s} on {c}, {t}: {w}" for s, c, t, w, _ in items])
    out += _listed([f"re-confirm: {r['code']}: {r['why']}" for r in resign])
    out += _listed([f"sign: {c}" for c in unsigned])
    return out


def show(home: Home, code: str) -> list[str]:
    lake = Lake(home.lake)
    etalons = _query(lake, "SELECT benchmark, title, methodology, status, version, signed_by, signed_at, "
                           "corpus_changed, changed_units FROM bench.etalons WHERE code = ?", code)
    if not etalons:
        known = [r[0] for r in _query(lake, "SELECT code FROM bench.etalons ORDER BY code")]
        hint = f"; known: {', '.join(known[:10])}" + (" …" if len(known) > 10 else "") if known else \
            "; run `etalon update` first"
        raise Refused(f"no etalon {code!r} in the warehouse{hint}")
    out: list[str] = []
    for benchmark, title, methodology, state, version, signed_by, signed_at, changed, units in etalons:
        out += [f"{code} — {title}", f"benchmark {benchmark}, methodology {methodology}, status {state}", ""]
        out += _versions(lake, benchmark, code, version)
        out.append("")
        out += _signature(state, version, signed_by, signed_at, bool(changed), units)
        out.append("")
        out += _sources(lake, benchmark, code, version)
        out.append("")
        out += _scores(lake, benchmark, code, version)
    return out


def _versions(lake: Lake, benchmark: str, code: str, current: str) -> list[str]:
    rows = _query(lake, "SELECT version, first_seen, question_version, rubric_version, signed_by FROM "
                        "bench.etalon_history WHERE benchmark = ? AND code = ? ORDER BY first_seen", benchmark, code)
    out = [f"versions: {len(rows)}"]
    for version, first_seen, qv, rv, signed_by in rows:
        mark = " (current)" if version == current else ""
        signed = f", signed by {signed_by}" if signed_by else ""
        out.append(f"  {version}{mark}: first seen {first_seen}, question {qv}, rubric {rv}{signed}")
    return out


def _signature(state: str, version: str, signed_by: str | None, signed_at: str | None, changed: bool,
               units: str | None) -> list[str]:
    if signed_by is None:
        return [f"signature: none on version {version}" + ("" if state == "archived" else
                                                           " (scores are indicative until it is signed)")]
    line = f"signature: {signed_by} at {signed_at} on version {version}: "
    if changed:
        return [line + f"to re-confirm, cited text changed in the corpus ({units})"]
    return [line + "in force"]


def _sources(lake: Lake, benchmark: str, code: str, version: str) -> list[str]:
    rows = _query(lake, "SELECT citation, priority, status, reason FROM bench.sources WHERE benchmark = ? "
                        "AND code = ? AND version = ? ORDER BY idx", benchmark, code, version)
    out = [f"sources: {len(rows)}"]
    out += [f"  {citation} [{priority}]: {status}" + (f" ({reason})" if reason and status != "found" else "")
            for citation, priority, status, reason in rows]
    return out


def _scores(lake: Lake, benchmark: str, code: str, version: str) -> list[str]:
    rows = _query(lake, "SELECT system, attempt, score, verdict, status, indicative, open_items FROM eval.scores "
                        "WHERE benchmark = ? AND code = ? AND is_current ORDER BY system, attempt", benchmark, code)
    systems = [r[0] for r in _query(lake, "SELECT id FROM raw.systems ORDER BY id")]
    scored = {r[0] for r in rows}
    out = [f"scores: {len(rows)}"]
    for system, attempt, score, verdict, state, indicative, open_items in rows:
        shown = "—" if score is None else f"{score:.1f}"
        extra = [f"{open_items} open item(s)"] if open_items else []
        extra += ["indicative"] if indicative else []
        out.append(f"  {system} attempt {attempt}: {shown}, verdict {verdict or '—'}, {state}"
                   + (f" ({', '.join(extra)})" if extra else ""))
    out += [f"  {s}: no answer to version {version} yet" for s in systems if s not in scored]
    return out

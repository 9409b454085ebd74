"""What the `etalon` commands do besides running the pipeline: signing, imports, reviews, corpus lookups.

Each action validates, writes one immutable event or one atomic file, and leaves the re-computation to
`runner.update`, so a command has the same effect as the sensors would have under `dagster dev`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from warehouse.home import Home
from warehouse.lake import Lake


class Refused(Exception):
    """An operation refused with a reason a user can act on (exit status 1)."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def corpus_lookup(lake: Lake) -> Any:
    return corpus_index(lake)[2]


def corpus_index(lake: Lake) -> tuple[Any, Any, Any]:
    """The current corpus tables (documents, units) and the citation lookup built from them, read once."""
    from citations import SetLookup
    from corpus.store import current_tables

    documents, units = current_tables(lake)
    return documents, units, SetLookup.from_tables(documents, units)


# -- signing ----------------------------------------------------------------------------------------------

CLI = "cli --by"   # `via` of an action whose name a script gave on the command line, unchecked


def sign(home: Home, code: str, by: str, *, via: str = CLI, roles: Iterable[str] | None = None,
         lookup: Any = None) -> str:
    """Sign the current version of an etalon; refused, naming each unresolved source, as `etalon sign` is.

    `roles` (the signed-in user's) adds the rule of who signs: the lawyer who wrote the etalon, or a
    reviewer who checked it; without them (a script's `--by`) the name is taken as given. `lookup`: a
    corpus lookup the caller already holds (built from the corpus tables otherwise).
    """
    from etalons.loader import load_benchmarks
    from etalons.signing import SigningRefused
    from etalons.signing import sign as sign_etalon
    from etalons.verify import verify_sources

    lake = Lake(home.lake)
    result = load_benchmarks(home.etalons_dir)
    loaded = result.by_code().get(code)
    if loaded is None:
        problems = [str(e) for e in result.errors if code in e.file]
        raise Refused(f"no etalon {code!r} under {home.etalons_dir}" + (f": {problems[0]}" if problems else ""))
    if roles is not None:
        held = set(roles)
        author = loaded.etalon.author or ""
        if not held & {"reviewer", "admin"} and not ("author" in held and _same(author, by)):
            raise Refused(f"{code}: {by} may not sign it: an etalon is signed by the lawyer who wrote it "
                          f"({author or 'no author named'}) or by a reviewer who checked it")
    checks = verify_sources(loaded, lookup if lookup is not None else corpus_lookup(lake))
    try:
        signature = sign_etalon(loaded, checks, by, now())
    except SigningRefused as exc:
        raise Refused(str(exc)) from None
    lake.append_event("signatures", {"benchmark": signature.benchmark, "code": signature.code,
                                     "version": signature.version, "signed_by": signature.signed_by,
                                     "signed_at": signature.signed_at, "via": via})
    return signature.version


def _same(a: str, b: str) -> bool:
    return bool(a.strip()) and a.strip().casefold() == b.strip().casefold()


def refresh(home: Home) -> list[str]:
    """Bring scores, the queue and the leaderboard up to date after an action; returns what it did.

    Today a whole `update` (tens of seconds); the engine's fast path re-scores just the touched cell here.
    Callers must not depend on how long it takes (the workbench runs it in the background).
    """
    from app.runner import update

    log = update(home)
    return log.lines()


# -- imports ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ImportSummary:
    imported: int
    errors: tuple[str, ...]


def import_answers(home: Home, path: Path, system_id: str) -> ImportSummary:
    from etalons.loader import load_benchmarks
    from evaluation.imports import import_answers as parse_answers
    from evaluation.systems import load_systems

    if not home.systems_file.exists():
        raise Refused(f"no systems file at {home.systems_file}: declare system {system_id!r} there first")
    systems = load_systems(home.systems_file)
    try:
        system = systems.system(system_id)
    except KeyError as exc:
        raise Refused(str(exc.args[0])) from None
    if system.kind != "import":
        raise Refused(f"system {system_id!r} is of kind {system.kind!r}: only systems of kind 'import' take "
                      "imported answers")
    if not path.exists():
        raise Refused(f"{path}: no such file")
    loaded = load_benchmarks(home.etalons_dir)
    etalons = {item.code: item.etalon for item in loaded.etalons}
    result = parse_answers(path, system_id, etalons, "")
    lake = Lake(home.lake)
    rows = {(r["code"], r["attempt"]): r for r in lake.read("imported_answers", system_id).to_pylist()}
    at = now()
    for answer in result.answers:
        rows[(answer.code, answer.attempt)] = {
            "system": system_id, "code": answer.code, "attempt": answer.attempt, "text": answer.text,
            "sources": json.dumps(list(answer.sources), ensure_ascii=False),
            "question_version": etalons[answer.code].question_version if answer.code in etalons else None,
            "file": str(path), "line": _line(answer.passport), "imported_at": at}
    if result.answers:
        lake.write("imported_answers", (system_id,), sorted(rows.values(), key=lambda r: (r["code"], r["attempt"])))
    return ImportSummary(len(result.answers), tuple(str(e) for e in result.errors))


def _line(passport: str | None) -> str | None:
    if not passport:
        return None
    try:
        value = json.loads(passport).get("line")
    except ValueError:
        return None
    return None if value is None else str(value)


# -- reviews ----------------------------------------------------------------------------------------------

def review_items(lake: Lake) -> list[dict[str, Any]]:
    from warehouse.catalog import memory_catalog

    con = memory_catalog(lake)
    try:
        rows = con.execute("SELECT * FROM eval.review ORDER BY system, code, attempt, target").fetchall()
        names = [d[0] for d in con.description]
    finally:
        con.close()
    return [dict(zip(names, row, strict=True)) for row in rows]


def reviewers_required(home: Home, benchmark: str) -> int:
    """Independent lawyers the benchmark asks per item (`review: {reviewers: N}` in its benchmark.yaml)."""
    import yaml

    path = home.etalons_dir / benchmark / "benchmark.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        return 1
    review = data.get("review") if isinstance(data, dict) else None
    value = review.get("reviewers", 1) if isinstance(review, dict) else 1
    return value if isinstance(value, int) and 1 <= value <= 5 else 1


def parse_item_id(item_id: str) -> tuple[str, str, str, int, str]:
    """(system, code, version, attempt, target) of `system:code:version:attempt:target` (targets hold ':')."""
    parts = item_id.split(":", 4)
    if len(parts) != 5 or not parts[3].isdigit():
        raise Refused(f"{item_id!r} is not a review item id (system:code:version:attempt:target)")
    system, code, version, attempt, target = parts
    return system, code, version, int(attempt), target


def review_item(home: Home, item_id: str) -> Any:
    """The ReviewItem for any element of a current cell: an open one from the queue, else a settled one a
    human may overrule (its options from the element itself)."""
    from evaluation.records import ReviewItem

    lake = Lake(home.lake)
    system, code, version, attempt, target = parse_item_id(item_id)
    rows = _query(lake, "SELECT * FROM eval.review WHERE id = ?", [item_id])
    if rows:
        r = rows[0]
        return ReviewItem(r["system"], r["code"], r["version"], int(r["attempt"]), r["target"], r["why"],
                          tuple(json.loads(r["options"])))
    options = element_options(lake, system, code, version, attempt, target)
    if options is None:
        raise Refused(f"no review item {item_id!r}; `etalon review list` shows the open ones")
    return ReviewItem(system, code, version, attempt, target, "a human overrules the automatic conclusion",
                      options)


def element_options(lake: Lake, system: str, code: str, version: str, attempt: int,
                    target: str) -> tuple[str, ...] | None:
    """The decision values of one element of the current etalon version, or None when it has no such element."""
    from etalons.store import current
    from evaluation.elements import Element, elements_for
    from evaluation.methodologies.resolution import review_options

    stored = current(lake, code)
    if stored is None or stored[0]["version"] != version:
        return None
    row, etalon = stored
    candidates = [Element(r["element"], r["kind"], r["text"], detail=json.loads(r["detail"] or "{}"))
                  for r in lake.read("candidates", code, system).to_pylist() if int(r["attempt"]) == attempt]
    for element in elements_for(etalon, row["methodology"], candidates):
        if element.id == target:
            return review_options(element)
    return None


def target_review(home: Home, item_id: str, benchmark: str | None = None) -> Any:
    """The TargetReview of one item under its benchmark's number of reviewers (None: no human record)."""
    from evaluation.review import target_reviews

    lake = Lake(home.lake)
    system, code, version, attempt, target = parse_item_id(item_id)
    if benchmark is None:
        found = _query(lake, "SELECT benchmark FROM bench.etalons WHERE code = ?", [code])
        benchmark = found[0]["benchmark"] if found else ""
    decisions = _target_decisions(lake, system, code, version, attempt, target)
    return target_reviews(decisions, reviewers_required(home, benchmark or "")).get(item_id)


def _target_decisions(lake: Lake, system: str, code: str, version: str, attempt: int, target: str) -> list[Any]:
    from evaluation.records import Decision

    rows = _query(lake, "SELECT * FROM eval.decisions WHERE system = ? AND code = ? AND version = ? "
                        "AND attempt = ? AND target = ? ORDER BY decided_at, decision_id",
                  [system, code, version, attempt, target])
    return [Decision(decision_id=r["decision_id"], system=r["system"], code=r["code"], version=r["version"],
                     attempt=int(r["attempt"]), target=r["target"], decision=r["decision"],
                     decided_by=r["decided_by"], decided_at=r["decided_at"], note=r["note"],
                     revoked_at=r["revoked_at"], revoked_by=r["revoked_by"], kind=r["kind"] or "decision",
                     via=r["via"]) for r in rows]


def decide(home: Home, item_id: str, value: str, by: str, note: str | None, *, via: str = CLI) -> str:
    """Record a decision; on a split double review it is the adjudication, refused to those who split."""
    from evaluation.review import decision_kind_for, new_decision
    from evaluation.review_store import record_decision

    lake = Lake(home.lake)
    item = review_item(home, item_id)
    kind, refusal = decision_kind_for(target_review(home, item_id), by)
    if refusal:
        raise Refused(refusal)
    try:
        decision = new_decision(item, value, by, note=note, at=now(), kind=kind, via=via)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    record_decision(lake, decision)
    return decision.decision_id


def disagree(home: Home, item_id: str, by: str, note: str, *, via: str = CLI) -> str:
    """Mark disagreement with the conclusion in force on any element: it becomes an open item again."""
    from evaluation.review import new_disagreement
    from evaluation.review_store import record_decision

    lake = Lake(home.lake)
    item = review_item(home, item_id)
    review = target_review(home, item_id)
    disputed = review.effective.decision if review is not None and review.effective is not None else None
    try:
        record = new_disagreement(item, disputed, by, note, at=now(), via=via)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    record_decision(lake, record)
    return record.decision_id


def undo(home: Home, decision_id: str, by: str, *, via: str = CLI, roles: Iterable[str] | None = None) -> None:
    """Revoke a decision (it stays on record). With `roles`, a user undoes their own; an admin anyone's."""
    from evaluation.review import find_decision, revoke
    from evaluation.review_store import all_decisions, record_undo

    lake = Lake(home.lake)
    try:
        decision = find_decision(all_decisions(lake), decision_id)
        if roles is not None and "admin" not in set(roles) and not _same(decision.decided_by, by):
            raise ValueError(f"decision {decision_id} is {decision.decided_by}'s: only they (or an admin) "
                             "may undo it")
        revoked = revoke(decision, by, at=now())
    except ValueError as exc:
        raise Refused(str(exc)) from None
    record_undo(lake, decision_id, revoked.revoked_by or by, revoked.revoked_at or now(), via=via)


def approve(home: Home, system: str, code: str, by: str, *, via: str = CLI,
            roles: Iterable[str] | None = None) -> int:
    """Approve the evaluation of a cell once nothing is open. With `roles` (signed in), the approval rule
    of the methodology: the etalon's author on their own etalon, a reviewer other than author and signer
    on a pool etalon."""
    from etalons.store import current
    from evaluation.review import approval_refusal
    from evaluation.review_store import record_approval

    lake = Lake(home.lake)
    stored = current(lake, code)
    if stored is None:
        raise Refused(f"no etalon {code!r} in the warehouse; run `etalon update` first")
    row, etalon = stored
    scores = [s for s in lake.read("scores", code, system).to_pylist() if s["version"] == row["version"]]
    if not scores:
        raise Refused(f"no scored answer of {system!r} on {code} version {row['version']}")
    still_open = _query(lake, "SELECT target FROM eval.review WHERE system = ? AND code = ? ORDER BY target",
                        [system, code])
    if still_open:
        raise Refused(f"{len(still_open)} item(s) still open on {system}/{code}: "
                      + ", ".join(r["target"] for r in still_open))
    signatures = _query(lake, "SELECT signed_by FROM bench.signatures WHERE code = ? AND version = ? "
                              "ORDER BY signed_at", [code, row["version"]])
    signer = signatures[-1]["signed_by"] if signatures else None
    from_pool = signer is not None and (etalon.author or "").casefold() != signer.casefold()
    if roles is None:
        refusal = approval_refusal(signer if from_pool else etalon.author, by, from_pool)
    else:
        refusal = approval_refusal(etalon.author, by, from_pool, roles=roles, signer=signer)
    if refusal:
        raise Refused(refusal)
    for s in scores:
        record_approval(lake, system, code, row["version"], int(s["attempt"]), by, now(), via=via)
    return len(scores)


def _query(lake: Lake, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """Rows of a query over the catalog's views, as dicts (a point lookup, not a table in Python).

    The catalog file when there is one beside a local lake (opening it costs a tenth of building the
    views in memory), else the same views in memory."""
    from warehouse.catalog import connect, memory_catalog

    catalog = lake.root.parent / "etalon.duckdb" if lake.is_local else None
    con = connect(catalog) if catalog is not None and catalog.exists() else memory_catalog(lake)
    try:
        cursor = con.execute(sql, list(params))
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, r, strict=True)) for r in cursor.fetchall()]
    finally:
        con.close()


# -- sample data for the demo ------------------------------------------------------------------------------

def sample_decisions(path: Path) -> Iterator[dict[str, Any]]:
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    items = data.get("decisions", data) if isinstance(data, dict) else data
    yield from (i for i in items or [] if isinstance(i, dict))


def apply_sample_decisions(lake: Lake, path: Path, etalons_dir: Path) -> tuple[int, list[str]]:
    """Record the sample reviewer's decisions once (ids are derived from the content, so reruns add nothing).

    Decisions name the etalon version of the files, so they are in place before the cells are scored."""
    from etalons.loader import load_benchmarks
    from evaluation.records import Decision
    from evaluation.review_store import all_decisions, record_decision

    versions = {e.code: e.version for e in load_benchmarks(etalons_dir).etalons}
    known = {d.decision_id for d in all_decisions(lake)}
    added, problems = 0, []
    for item in sample_decisions(path):
        version = versions.get(str(item.get("code")))
        if version is None:
            problems.append(f"{path}: decision names unknown etalon {item.get('code')!r}")
            continue
        key = json.dumps([item.get("system"), item.get("code"), version, item.get("target"), item.get("decision"),
                          item.get("by")], ensure_ascii=False)
        decision_id = "s" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:11]
        if decision_id in known:
            continue
        record_decision(lake, Decision(
            decision_id=decision_id, system=str(item["system"]), code=str(item["code"]), version=version,
            attempt=int(item.get("attempt", 1)), target=str(item["target"]), decision=str(item["decision"]),
            decided_by=str(item.get("by") or "sample reviewer"), decided_at="2026-11-01T10:00:00+00:00",
            note=item.get("note")))
        added += 1
    return added, problems


# -- authoring ---------------------------------------------------------------------------------------------

def write_etalon(path: Path, text: str, *, base_hash: str | None) -> None:
    """Save an etalon file edited in the workbench: atomically (temporary file, fsync, rename), and only if
    nobody changed it since the editor loaded it (`base_hash`, None for a new file). The files stay the
    source of truth: the next refresh loads the new version as `etalon update` would."""
    import os
    import tempfile

    if base_hash is None and path.exists():
        raise Refused(f"{path.name} already exists: open it to edit it")
    if base_hash is not None:
        try:
            current = path.read_text(encoding="utf-8")
        except OSError:
            raise Refused(f"{path.name}: no longer there; reload the page") from None
        if hashlib.sha256(current.encode("utf-8")).hexdigest()[:16] != base_hash:
            raise Refused(f"{path.name} changed since you opened it: reload to see the other edit first")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text if text.endswith("\n") else text + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise

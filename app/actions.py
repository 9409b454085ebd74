"""What the `etalon` commands and the workbench do besides running the pipeline: signing, imports, reviews.

Each act validates, writes one immutable event or one atomic file, and takes effect at once through the
engine's fast path (evaluation.engine.humans): the cells it concerns are re-scored and their leaderboard rows
refreshed before the call returns. Dagster records those materialisations from the journal
(pipelines.journal), so its UI shows them without the act waiting for Dagster.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.engine.humans import Consequence
from evaluation.engine.humans import Refused as _EngineRefused
from warehouse.home import Home
from warehouse.lake import Lake


class Refused(Exception):
    """An operation refused with a reason a user can act on (exit status 1)."""


CLI = "cli --by"   # `via` of an act whose name a script gave on the command line, unchecked


def now() -> str:
    from datetime import UTC, datetime

    return datetime.now(UTC).isoformat(timespec="microseconds")


def _world(home: Home) -> Any:
    from evaluation.engine.world import World

    return World.open(home)


def _journal(home: Home, consequence: Consequence) -> None:
    """Hand the materialisations an act made to Dagster's record (flushed without making the act wait)."""
    from evaluation.engine.journal import append

    append(home, consequence)


def corpus_lookup(lake: Lake) -> Any:
    return corpus_index(lake)[2]


def corpus_index(lake: Lake) -> tuple[Any, Any, Any]:
    """The current corpus tables (documents, units) and the citation lookup built from them, read once."""
    from evaluation.engine.corpus_view import CorpusView

    view = CorpusView.from_lake(lake)
    return view.documents, view.units, view.lookup


# -- signing ----------------------------------------------------------------------------------------------

def sign(home: Home, code: str, by: str, *, via: str = CLI, roles: Iterable[str] | None = None,
         lookup: Any = None) -> str:
    """Sign the current version of an etalon; refused, naming each unresolved source. `roles` (the signed-in
    user's) adds the rule of who signs: the lawyer who wrote it, or a reviewer who checked it."""
    from evaluation.engine import humans

    del lookup   # the engine holds the corpus lookup of the warehouse it signs in
    try:
        version, consequence = humans.sign(_world(home), code, by, via=via, roles=roles)
    except _EngineRefused as exc:
        raise Refused(str(exc)) from None
    _journal(home, consequence)
    return version


# -- imports ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ImportSummary:
    imported: int
    errors: tuple[str, ...]


def import_answers(home: Home, path: Path, system_id: str) -> ImportSummary:
    from evaluation.imports import import_answers as parse_answers
    from evaluation.systems import SystemsConfigError, load_systems
    from warehouse.tables import ImportedAnswerRow

    if not home.systems_file.exists():
        raise Refused(f"no systems file at {home.systems_file}: declare system {system_id!r} there first")
    try:
        systems = load_systems(home.systems_file)
    except SystemsConfigError as exc:
        raise Refused(str(exc)) from None
    try:
        system = systems.system(system_id)
    except KeyError as exc:
        raise Refused(str(exc.args[0])) from None
    if system.kind != "import":
        raise Refused(f"system {system_id!r} is of kind {system.kind!r}: only systems of kind 'import' take "
                      "imported answers")
    if not path.exists():
        raise Refused(f"{path}: no such file")
    loaded = _world(home).loaded   # files read before are not parsed again
    etalons = {item.code: item.etalon for item in loaded.etalons}
    result = parse_answers(path, system_id, etalons, "")
    lake = Lake(home.lake)
    fields = ImportedAnswerRow.__dataclass_fields__
    rows = {(r["code"], r["attempt"]): {k: r.get(k) for k in fields}
            for r in lake.read("imported_answers", system_id).to_pylist()}
    at = now()
    changed = False
    for answer in result.answers:
        key = (answer.code, answer.attempt)
        row = ImportedAnswerRow(
            system=system_id, code=answer.code, attempt=answer.attempt, text=answer.text,
            sources=json.dumps(list(answer.sources), ensure_ascii=False),
            question_version=etalons[answer.code].question_version if answer.code in etalons else None,
            confidence=getattr(answer, "confidence", None), status=answer.status, error=answer.error,
            file=str(path), line=_line(answer.passport), imported_at=at).__dict__
        before = rows.get(key)
        if before is not None and {**before, "imported_at": at} == row:
            continue   # the same answer again: kept as it was, so nothing downstream looks changed
        rows[key] = row
        changed = True
    if changed:
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


def signatures_to_reconfirm(lake: Lake) -> list[dict[str, Any]]:
    """Signed etalons whose cited units changed in the corpus since signing: an item each, settled by signing
    the etalon again (`etalon sign CODE`), which records the new texts."""
    from warehouse.catalog import memory_catalog

    con = memory_catalog(lake)
    try:
        rows = con.execute("SELECT benchmark, code, version, string_agg(citation || ' (' || change || ')', '; ' "
                           "ORDER BY citation) FROM bench.corpus_changes GROUP BY ALL ORDER BY ALL").fetchall()
    finally:
        con.close()
    return [{"id": f"resign:{b}:{c}:{v}", "system": None, "code": c, "version": v, "attempt": None,
             "target": "signature", "benchmark": b, "situation": "signature_to_reconfirm",
             "why": f"cited text changed in the corpus since it was signed: {what}; `etalon sign {c}` again "
                    "confirms the signature", "options": json.dumps(["sign"])} for b, c, v, what in rows]


def refresh(home: Home) -> list[str]:
    """Bring everything up to date after a change of files (an etalon saved in the workbench); returns what it
    did. Human acts need none: each re-scores its cells before it returns."""
    from app.runner import update

    return update(home).lines()


def reviewers_required(home: Home, benchmark: str) -> int:
    """Independent lawyers the benchmark asks per item (`review: {reviewers: N}` in its benchmark.yaml)."""
    from evaluation.engine import humans

    return humans.reviewers(_world(home), benchmark)


def parse_item_id(item_id: str) -> tuple[str, str, str, int, str]:
    """(system, code, version, attempt, target) of `system:code:version:attempt:target` (targets hold ':')."""
    from evaluation.engine import humans

    try:
        return humans.parse_item(item_id)
    except _EngineRefused as exc:
        raise Refused(str(exc)) from None


def target_review(home: Home, item_id: str) -> Any:
    """The TargetReview of one item under its benchmark's number of reviewers (None: no human record)."""
    from evaluation.engine import humans

    try:
        return humans.target_review(_world(home), item_id)
    except _EngineRefused as exc:
        raise Refused(str(exc)) from None


def disagree(home: Home, item_id: str, by: str, note: str, *, via: str = CLI) -> str:
    """Mark disagreement with the conclusion in force on any element: it becomes an open item again."""
    from evaluation.engine import humans

    try:
        decision_id, consequence = humans.disagree(_world(home), item_id, by, note, via=via)
    except _EngineRefused as exc:
        raise Refused(str(exc)) from None
    _journal(home, consequence)
    return decision_id


def decide(home: Home, item_id: str, value: str, by: str, note: str | None, *, via: str = CLI,
           messages: list[str] | None = None) -> str:
    """Record a decision (or, on an element of the audit sample, an audit label); `messages` receives what the
    person should read next (after an audit label: the judge's conclusion it was blind to)."""
    from evaluation.engine import humans

    try:
        decision_id, consequence = humans.decide(_world(home), item_id, value, by, note, via=via)
    except _EngineRefused as exc:
        raise Refused(str(exc)) from None
    _journal(home, consequence)
    if messages is not None:
        messages.extend(consequence.messages)
    return decision_id


def undo(home: Home, decision_id: str, by: str, *, via: str = CLI, roles: Iterable[str] | None = None) -> None:
    from evaluation.engine import humans

    try:
        consequence = humans.undo(_world(home), decision_id, by, via=via, roles=roles)
    except _EngineRefused as exc:
        raise Refused(str(exc)) from None
    _journal(home, consequence)


def approve(home: Home, system: str, code: str, by: str, *, via: str = CLI,
            roles: Iterable[str] | None = None) -> int:
    from evaluation.engine import humans

    try:
        n, consequence = humans.approve(_world(home), system, code, by, via=via, roles=roles)
    except _EngineRefused as exc:
        raise Refused(str(exc)) from None
    _journal(home, consequence)
    return n


# -- sample data for the demo ------------------------------------------------------------------------------

def sample_decisions(path: Path) -> Iterator[dict[str, Any]]:
    from etalons.yamlsafe import load_file

    data = load_file(path)
    items = data.get("decisions", data) if isinstance(data, dict) else data
    yield from (i for i in items or [] if isinstance(i, dict))


def apply_sample_decisions(home: Home, path: Path) -> tuple[int, list[str]]:
    """Record the sample reviewer's decisions once (ids are derived from the content, so reruns add nothing).

    Decisions name the etalon version of the files, so they are in place before the cells are scored."""
    from warehouse.tables import DecisionRow

    world = _world(home)
    lake = world.lake
    loaded = {e.code: e for e in world.loaded.etalons}
    added, problems = 0, []
    for item in sample_decisions(path):
        etalon = loaded.get(str(item.get("code")))
        if etalon is None:
            problems.append(f"{path}: decision names unknown etalon {item.get('code')!r}")
            continue
        key = json.dumps([item.get("system"), item.get("code"), etalon.version, item.get("target"),
                          item.get("decision"), item.get("by")], ensure_ascii=False)
        decision_id = "s" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:11]
        system = str(item["system"])
        if any(n.endswith(f"@{decision_id}") for n in lake.event_names("decisions", etalon.benchmark, etalon.code)):
            continue
        lake.append_event("decisions", (etalon.benchmark, etalon.code), DecisionRow(
            decision_id=decision_id, benchmark=etalon.benchmark, system=system, code=etalon.code,
            version=etalon.version, attempt=int(item.get("attempt", 1)), target=str(item["target"]),
            decision=str(item["decision"]), decided_by=str(item.get("by") or "sample reviewer"),
            decided_at="2026-11-01T10:00:00+00:00", note=item.get("note"), via="sample", kind="decision"),
            event_id=decision_id, system=system)
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

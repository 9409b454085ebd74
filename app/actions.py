"""What the `etalon` commands and the workbench do besides running the pipeline: signing, imports, reviews.

Each act validates, writes one immutable event or one atomic file, and takes effect at once through the
engine's fast path (evaluation.engine.humans): the cells it concerns are re-scored and their leaderboard rows
refreshed before the call returns. Dagster records those materialisations from the journal
(pipelines.journal), so its UI shows them without the act waiting for Dagster.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.engine.humans import Consequence
from evaluation.engine.humans import Refused as _EngineRefused
from warehouse.home import Home
from warehouse.lake import Lake


class Refused(Exception):
    """An operation refused with a reason a user can act on (exit status 1)."""


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

def sign(home: Home, code: str, by: str, via: str = "cli --by") -> str:
    from evaluation.engine import humans

    try:
        version, consequence = humans.sign(_world(home), code, by, via=via)
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
    for answer in result.answers:
        rows[(answer.code, answer.attempt)] = ImportedAnswerRow(
            system=system_id, code=answer.code, attempt=answer.attempt, text=answer.text,
            sources=json.dumps(list(answer.sources), ensure_ascii=False),
            question_version=etalons[answer.code].question_version if answer.code in etalons else None,
            confidence=getattr(answer, "confidence", None), status=answer.status, error=answer.error,
            file=str(path), line=_line(answer.passport), imported_at=at).__dict__
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


def decide(home: Home, item_id: str, value: str, by: str, note: str | None, via: str = "cli --by") -> str:
    from evaluation.engine import humans

    try:
        decision_id, consequence = humans.decide(_world(home), item_id, value, by, note, via=via)
    except _EngineRefused as exc:
        raise Refused(str(exc)) from None
    _journal(home, consequence)
    return decision_id


def undo(home: Home, decision_id: str, by: str, via: str = "cli --by") -> None:
    from evaluation.engine import humans

    try:
        consequence = humans.undo(_world(home), decision_id, by, via=via)
    except _EngineRefused as exc:
        raise Refused(str(exc)) from None
    _journal(home, consequence)


def approve(home: Home, system: str, code: str, by: str, via: str = "cli --by") -> int:
    from evaluation.engine import humans

    try:
        n, consequence = humans.approve(_world(home), system, code, by, via=via)
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
            decided_at="2026-11-01T10:00:00+00:00", note=item.get("note"), via="sample"),
            event_id=decision_id, system=system)
        added += 1
    return added, problems

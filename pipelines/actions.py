"""What the `etalon` commands do besides running the pipeline: signing, imports, reviews, corpus lookups.

Each action validates, writes one immutable event or one atomic file, and leaves the re-computation to
`runner.update`, so a command has the same effect as the sensors would have under `dagster dev`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
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

def sign(home: Home, code: str, by: str, via: str = "cli --by") -> str:
    """Sign the current version of `code`: a verifiable event (etalons.signatures) naming how the signer
    was identified (`via`) and holding the cited units as they read now."""
    from etalons.keys import SigningKeyError, signing_key
    from etalons.loader import load_benchmarks
    from etalons.signatures import cited_units, signature_record
    from etalons.signing import SigningRefused
    from etalons.signing import sign as sign_etalon
    from etalons.verify import verify_sources

    lake = Lake(home.lake)
    result = load_benchmarks(home.etalons_dir)
    loaded = result.by_code().get(code)
    if loaded is None:
        problems = [str(e) for e in result.errors if code in e.file]
        raise Refused(f"no etalon {code!r} under {home.etalons_dir}" + (f": {problems[0]}" if problems else ""))
    _, units, lookup = corpus_index(lake)
    checks = verify_sources(loaded, lookup)
    try:
        signature = sign_etalon(loaded, checks, by, now())
        key = signing_key(home.root, home.lake)
    except (SigningRefused, SigningKeyError) as exc:
        raise Refused(str(exc)) from None
    if key is None:  # signing_key makes the key on first use: never None here
        raise Refused("no signing key could be made")
    record = signature_record(signature, cited_units(loaded, lookup, units), via, key)
    lake.append_event("signatures", record.to_row())
    return signature.version


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


def decide(home: Home, item_id: str, value: str, by: str, note: str | None) -> str:
    from evaluation.records import ReviewItem
    from evaluation.review import new_decision
    from evaluation.review_store import all_decisions, record_decision

    lake = Lake(home.lake)
    item = next((r for r in review_items(lake) if r["id"] == item_id), None)
    if item is None:
        previous = [d for d in all_decisions(lake) if _item_id(d) == item_id]
        if not previous:
            raise Refused(f"no review item {item_id!r}; `etalon review list` shows the open ones")
        d = previous[-1]
        item = {"system": d.system, "code": d.code, "version": d.version, "attempt": d.attempt,
                "target": d.target, "why": "re-decided", "options": json.dumps(_options_for(lake, d))}
    review = ReviewItem(item["system"], item["code"], item["version"], int(item["attempt"]), item["target"],
                        item["why"], tuple(json.loads(item["options"])))
    try:
        decision = new_decision(review, value, by, note=note, at=now())
    except ValueError as exc:
        raise Refused(str(exc)) from None
    record_decision(lake, decision)
    return decision.decision_id


def _item_id(d: Any) -> str:
    return f"{d.system}:{d.code}:{d.version}:{d.attempt}:{d.target}"


def _options_for(lake: Lake, decision: Any) -> list[str]:
    grades = ["correct", "partial", "incorrect"]
    if decision.target == "conclusion":
        return grades
    if decision.target == "irac":
        return ["correct", "correct_but_no_analysis", "incorrect"]
    return ["yes", "no"]


def undo(home: Home, decision_id: str, by: str) -> None:
    from evaluation.review import find_decision, revoke
    from evaluation.review_store import all_decisions, record_undo

    lake = Lake(home.lake)
    try:
        decision = find_decision(all_decisions(lake), decision_id)
        revoked = revoke(decision, by, at=now())
    except ValueError as exc:
        raise Refused(str(exc)) from None
    record_undo(lake, decision_id, revoked.revoked_by or by, revoked.revoked_at or now())


def approve(home: Home, system: str, code: str, by: str) -> int:
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
    still_open = [r for r in review_items(lake) if r["system"] == system and r["code"] == code]
    if still_open:
        raise Refused(f"{len(still_open)} item(s) still open on {system}/{code}: "
                      + ", ".join(r["target"] for r in still_open))
    signatures = [s for s in lake.read_all("signatures").to_pylist()
                  if s["code"] == code and s["version"] == row["version"]]
    signer = signatures[-1]["signed_by"] if signatures else None
    from_pool = signer is not None and (etalon.author or "").casefold() != signer.casefold()
    refusal = approval_refusal(signer if from_pool else etalon.author, by, from_pool)
    if refusal:
        raise Refused(refusal)
    for s in scores:
        record_approval(lake, system, code, row["version"], int(s["attempt"]), by, now())
    return len(scores)


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

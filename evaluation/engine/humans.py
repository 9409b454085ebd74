"""What people do, and its consequences at once: decisions, undos, approvals and signatures.

Each act is one immutable event file in the lake (nothing is ever overwritten or erased), then the fast path
re-scores exactly the cells it concerns and refreshes the leaderboard rows they feed — the same reconcile an
update would run, limited to one partition, so a decision is current in well under a second and a later update
finds nothing left to do for it.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from evaluation.engine.keys import Part, Shard
from evaluation.engine.stages.base import Result, reconcile
from evaluation.engine.world import World
from warehouse.tables import ApprovalRow, DecisionRow, RevocationRow


class Refused(Exception):
    """An act refused with a reason a person can act on."""


@dataclass
class Consequence:
    """What an act changed: the partitions re-scored (for Dagster's record) and the leaderboards refreshed."""

    results: list[Result] = field(default_factory=list)
    leaderboards: list[tuple[str, str]] = field(default_factory=list)
    signatures: list[str] = field(default_factory=list)


def locate(world: World, code: str) -> Shard:
    """The shard an etalon is stored in (the etalons stage's record of it)."""
    for (stage, partition), entry in world.index.entries.items():
        if stage == "etalons" and code in (entry.meta.get("codes") or ()):
            return Shard.parse(partition)
    for shard in world.stored_shards():
        if any(r.code == code for r in world.etalon_rows(shard)):
            return shard
    raise Refused(f"no etalon {code!r} in the warehouse; run `etalon update` first")


def parse_item(item_id: str) -> tuple[str, str, str, int, str]:
    """system:code:version:attempt:target (the target may hold ':' itself, e.g. branch:2)."""
    parts = item_id.split(":", 4)
    if len(parts) != 5 or not parts[3].isdigit():
        raise Refused(f"{item_id!r} is not a review item id (system:code:version:attempt:target); "
                      "`etalon review list` shows them")
    system, code, version, attempt, target = parts
    return system, code, version, int(attempt), target


def open_items(world: World, part: Part) -> list[dict[str, Any]]:
    current = {(r.code, r.version) for r, _ in world.current_etalons(part.shard)}
    return [r for r in world.lake.read("review_items", *part.lake_key()).to_pylist()
            if (r["code"], r["version"]) in current]


def rescore(world: World, part: Part) -> Consequence:
    """Re-score one partition's changed cells and refresh the leaderboard rows of its system."""
    from evaluation.engine.stages import STAGES
    from evaluation.engine.stages.analytics import refresh_leaderboard_rows

    world.forget_events()
    result = reconcile(STAGES["scores"], world, part.key)
    world.index.flush()
    consequence = Consequence(results=[result])
    if result.recomputed or result.output_changed:
        refresh_leaderboard_rows(world, part.benchmark, part.system)
        consequence.leaderboards.append((part.benchmark, part.system))
    return consequence


def decide(world: World, item_id: str, value: str, by: str, note: str | None = None,
           via: str = "cli --by") -> tuple[str, Consequence]:
    """Record a decision on a review item (open, or already decided: a human may change their mind)."""
    from evaluation.records import ReviewItem
    from evaluation.review import new_decision

    system, code, version, attempt, target = parse_item(item_id)
    shard = locate(world, code)
    part = Part(shard, system)
    item = next((r for r in open_items(world, part) if r["id"] == item_id), None)
    if item is None:
        decided = [d for d in decisions_of(world, shard.benchmark, code)
                   if (d["system"], d["version"], int(d["attempt"]), d["target"]) == (system, version, attempt, target)]
        if not decided:
            raise Refused(f"no review item {item_id!r}; `etalon review list` shows the open ones")
        options = options_for(target)
    else:
        options = tuple(json.loads(item["options"]))
    review = ReviewItem(system, code, version, attempt, target, "decided", tuple(options))
    try:
        decision = new_decision(review, value, by, note=note, at=now_precise())
    except ValueError as exc:
        raise Refused(str(exc)) from None
    row = DecisionRow(decision_id=decision.decision_id, benchmark=shard.benchmark, system=system, code=code,
                      version=version, attempt=attempt, target=target, decision=decision.decision,
                      decided_by=decision.decided_by, decided_at=decision.decided_at, note=note, via=via)
    world.lake.append_event("decisions", (shard.benchmark, code), row, event_id=decision.decision_id, system=system)
    return decision.decision_id, rescore(world, part)


def decisions_of(world: World, benchmark: str, code: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = world.lake.read_events("decisions", benchmark, code).to_pylist()
    return rows


def find_decision(world: World, decision_id: str) -> dict[str, Any]:
    for benchmark in world.lake.folders("decisions"):
        for code in world.lake.folders("decisions", benchmark):
            for name in world.lake.event_names("decisions", benchmark, code):
                if name.endswith(f"@{decision_id}"):
                    rows = world.lake.read_events("decisions", benchmark, code, names=[name]).to_pylist()
                    if rows:
                        found: dict[str, Any] = rows[0]
                        return found
    raise Refused(f"no decision with id {decision_id!r}")


def undo(world: World, decision_id: str, by: str, via: str = "cli --by") -> Consequence:
    decision = find_decision(world, decision_id)
    benchmark, code, system = decision["benchmark"], decision["code"], decision["system"]
    done = [r for r in world.lake.read_events("revocations", benchmark, code).to_pylist()
            if r["decision_id"] == decision_id]
    if done:
        raise Refused(f"decision {decision_id} was already undone at {done[0]['revoked_at']}")
    if not by.strip():
        raise Refused(f"decision {decision_id}: an undo needs the name of who takes it (--by)")
    row = RevocationRow(decision_id=decision_id, benchmark=benchmark, system=system, code=code,
                        revoked_by=by.strip(), revoked_at=now_precise(), via=via)
    world.lake.append_event("revocations", (benchmark, code), row, event_id=f"undo-{decision_id}", system=system)
    return rescore(world, Part(locate(world, code), system))


def approve(world: World, system: str, code: str, by: str, via: str = "cli --by") -> tuple[int, Consequence]:
    from evaluation.review import approval_refusal

    shard = locate(world, code)
    part = Part(shard, system)
    current = next(((r, e) for r, e in world.current_etalons(shard) if r.code == code), None)
    if current is None:
        raise Refused(f"no current etalon {code!r} in the warehouse; run `etalon update` first")
    row, etalon = current
    scores = [s for s in world.lake.read("scores", *part.lake_key()).to_pylist()
              if s["code"] == code and s["version"] == row.version]
    if not scores:
        raise Refused(f"no scored answer of {system!r} on {code} version {row.version}")
    still_open = [r for r in open_items(world, part) if r["code"] == code]
    if still_open:
        raise Refused(f"{len(still_open)} item(s) still open on {system}/{code}: "
                      + ", ".join(r["target"] for r in still_open))
    signatures = [s for s in world.lake.read("signature_ledger", shard.benchmark).to_pylist()
                  if s["code"] == code and s["version"] == row.version]
    signer = signatures[-1]["signed_by"] if signatures else None
    from_pool = signer is not None and (etalon.author or "").casefold() != signer.casefold()
    refusal = approval_refusal(signer if from_pool else etalon.author, by, from_pool)
    if refusal:
        raise Refused(refusal)
    at = now_precise()
    for s in scores:
        world.lake.append_event("approvals", (shard.benchmark, code), ApprovalRow(
            benchmark=shard.benchmark, system=system, code=code, version=row.version, attempt=int(s["attempt"]),
            approved_by=by.strip(), approved_at=at, via=via), system=system)
    return len(scores), rescore(world, part)


def options_for(target: str) -> tuple[str, ...]:
    kind = target.split(":", 1)[0]
    if kind == "conclusion":
        return ("correct", "partial", "incorrect")
    if kind == "irac":
        return ("correct", "correct_but_no_analysis", "incorrect")
    return ("yes", "no")


def now_precise() -> str:
    from datetime import UTC, datetime

    return datetime.now(UTC).isoformat(timespec="microseconds")


# -- signatures -----------------------------------------------------------------------------------------

def sign(world: World, code: str, by: str, via: str = "cli --by") -> tuple[str, Consequence]:
    """Sign the current file version of an etalon; refused, naming each unresolved source. The event carries
    the cited units as they read now and an HMAC with the warehouse's key (etalons.signatures)."""
    from etalons.keys import SigningKeyError, signing_key
    from etalons.signatures import cited_units, signature_record
    from etalons.signing import SigningRefused
    from etalons.signing import sign as check_signable
    from etalons.verify import verify_sources

    loaded = world.loaded.by_code().get(code)
    if loaded is None:
        problems = [str(e) for e in world.loaded.errors if code in e.file]
        raise Refused(f"no etalon {code!r} under {world.home.etalons_dir}" + (f": {problems[0]}" if problems else ""))
    corpus = world.corpus
    checks = verify_sources(loaded, corpus.lookup)
    try:
        signature = check_signable(loaded, checks, by, now_precise())
        key = signing_key(world.home.root, world.home.lake)
    except (SigningRefused, SigningKeyError) as exc:
        raise Refused(str(exc)) from None
    if key is None:
        raise Refused("no signing key could be made for this warehouse")
    record = signature_record(signature, cited_units(loaded, corpus.lookup, corpus.units), via, key)
    world.lake.append_event("signatures", (signature.benchmark, signature.code), record.to_row(),
                            event_id=uuid.uuid4().hex[:12])
    return signature.version, after_signature(world, signature.benchmark)


def after_signature(world: World, benchmark: str) -> Consequence:
    """Signatures decide what is indicative: verify them again and refresh the benchmark's leaderboard rows."""
    from evaluation.engine.stages import STAGES
    from evaluation.engine.stages.analytics import refresh_leaderboard_rows

    result = STAGES["signatures"].reconcile_partition(world, benchmark)
    world.index.flush()
    consequence = Consequence(results=[result], signatures=[benchmark])
    for system in world.systems.systems:
        refresh_leaderboard_rows(world, benchmark, system.id)
        consequence.leaderboards.append((benchmark, system.id))
    return consequence

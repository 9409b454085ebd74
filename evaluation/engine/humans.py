"""What people do, and its consequences at once: decisions, undos, approvals and signatures.

Each act is one immutable event file in the lake (nothing is ever overwritten or erased), then the fast path
re-scores exactly the cells it concerns and refreshes the leaderboard rows they feed — the same reconcile an
update would run, limited to one partition, so a decision is current in well under a second and a later update
finds nothing left to do for it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from evaluation.engine.keys import Part, Shard
from evaluation.engine.stages.base import Result, reconcile
from evaluation.engine.world import World
from warehouse.tables import ApprovalRow, AuditRow, DecisionRow, RevocationRow


class Refused(Exception):
    """An act refused with a reason a person can act on."""


@dataclass
class Consequence:
    """What an act changed: the partitions re-scored (for Dagster's record) and the leaderboards refreshed."""

    results: list[Result] = field(default_factory=list)
    leaderboards: list[tuple[str, str]] = field(default_factory=list)
    signatures: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)    # what the person should read (an audit's reveal)


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
    from evaluation.engine import audit
    from evaluation.engine.stages import STAGES
    from evaluation.engine.stages.analytics import refresh_leaderboard_rows

    world.forget_events()
    result = reconcile(STAGES["scores"], world, part.key)
    world.index.flush()
    consequence = Consequence(results=[result])
    if result.recomputed or result.output_changed:
        refresh_leaderboard_rows(world, part.benchmark, part.system)
        consequence.leaderboards.append((part.benchmark, part.system))
        audit.refresh(world, part.benchmark)
    return consequence


def element_options(world: World, part: Part, code: str, version: str, attempt: int,
                    target: str) -> tuple[str, ...] | None:
    """The decision values of one element of a current cell, open or settled (a human may overrule any)."""
    from evaluation.elements import Element, elements_for
    from evaluation.methodologies.resolution import review_options

    current = next(((r, e) for r, e in world.current_etalons(part.shard) if r.code == code), None)
    if current is None or current[0].version != version:
        return None
    row, etalon = current
    candidates = [Element(r["element"], r["kind"], r["text"], detail=json.loads(r["detail"] or "{}"))
                  for r in world.lake.read("candidates", *part.lake_key()).to_pylist()
                  if r["code"] == code and r["version"] == version and int(r["attempt"]) == attempt]
    for element in elements_for(etalon, row.methodology, candidates):
        if element.id == target:
            return review_options(element)
    return None


def reviewers(world: World, benchmark: str) -> int:
    """Independent lawyers the benchmark asks per item (`review: {reviewers: N}` in its benchmark.yaml)."""
    settings = world.settings.get(benchmark)
    review = settings.raw.get("review") if settings is not None else None
    value = review.get("reviewers", 1) if isinstance(review, dict) else 1
    return value if isinstance(value, int) and value >= 1 else 1


def target_review(world: World, item_id: str) -> Any:
    """The TargetReview of one item under its benchmark's number of reviewers (None: no human record)."""
    from evaluation.engine.stages.scores import human_events
    from evaluation.review import target_reviews

    system, code, version, attempt, target = parse_item(item_id)
    shard = locate(world, code)
    decisions = [d for d in human_events(world, Part(shard, system), {code})["decisions"]
                 if (d.version, d.attempt, d.target) == (version, attempt, target)]
    return target_reviews(decisions, reviewers(world, shard.benchmark)).get(item_id)


def _record(world: World, shard: Shard, decision: Any, note: str | None, via: str) -> None:
    row = DecisionRow(decision_id=decision.decision_id, benchmark=shard.benchmark, system=decision.system,
                      code=decision.code, version=decision.version, attempt=decision.attempt, target=decision.target,
                      decision=decision.decision, decided_by=decision.decided_by, decided_at=decision.decided_at,
                      note=note, via=via, kind=decision.kind)
    world.lake.append_event("decisions", (shard.benchmark, decision.code), row, event_id=decision.decision_id,
                            system=decision.system)


def _item(world: World, item_id: str) -> tuple[Part, Any, bool]:
    """The review item of an element of a current cell, and whether it is open."""
    from evaluation.records import ReviewItem

    system, code, version, attempt, target = parse_item(item_id)
    part = Part(locate(world, code), system)
    item = next((r for r in open_items(world, part) if r["id"] == item_id), None)
    if item is not None:
        return part, ReviewItem(system, code, version, attempt, target, item["why"],
                                tuple(json.loads(item["options"]))), True
    options = element_options(world, part, code, version, attempt, target)
    if options is None:
        raise Refused(f"no review item {item_id!r}; `etalon review list` shows the open ones")
    return part, ReviewItem(system, code, version, attempt, target, "a human overrules the automatic conclusion",
                            options), False


def audit_target(world: World, part: Part, item_id: str) -> dict[str, Any] | None:
    """The element's row in the audit sample (evaluation.audit), when it is drawn: None otherwise."""
    if not any(r["id"] == item_id for r in world.lake.read("audit_items", part.benchmark).to_pylist()):
        return None
    _, code, version, attempt, target = parse_item(item_id)
    return next((t for t in world.lake.read("audit_targets", *part.lake_key()).to_pylist()
                 if (t["code"], t["version"], int(t["attempt"]), t["target"]) == (code, version, attempt, target)),
                None)


def _label(world: World, part: Part, item: Any, value: str, by: str, note: str | None,
           via: str) -> tuple[str, Consequence]:
    """Record an audit label: kept apart from the decisions, it changes no score. Once every audit item of the
    answer has its label, say what the judge had concluded on each (never before: the labels stay blind)."""
    if value not in item.options:
        raise Refused(f"{item.id}: {value!r} is not a valid label; expected one of {', '.join(item.options)}")
    if not by.strip():
        raise Refused(f"{item.id}: an audit label needs the name of who gives it (--by)")
    label_id = uuid.uuid4().hex[:12]
    world.lake.append_event("audits", (part.benchmark, item.code), AuditRow(
        decision_id=label_id, benchmark=part.benchmark, system=item.system, code=item.code, version=item.version,
        attempt=item.attempt, target=item.target, label=value, decided_by=by.strip(), decided_at=now_precise(),
        note=note, via=via), event_id=label_id, system=item.system)
    consequence = rescore(world, part)
    targets = [t for t in world.lake.read("audit_targets", *part.lake_key()).to_pylist()
               if (t["code"], t["version"], int(t["attempt"])) == (item.code, item.version, item.attempt)]
    waiting = [t["target"] for t in targets if t["human"] is None]
    said = f"audit label {value} recorded on {item.target} ({item.code}, {item.system}); it changes no score."
    if waiting:
        consequence.messages.append(f"{said} {len(waiting)} audit item(s) of this answer still wait "
                                    f"({', '.join(waiting)}): the judge's conclusions are shown once they are "
                                    "labelled.")
        return label_id, consequence
    differ = [t for t in targets if t["human"] != t["automatic"]]
    shown = "; ".join(f"{t['target']}: judge {t['automatic']}, lawyer {t['human']}"
                      + (" (differs)" if t["human"] != t["automatic"] else "") for t in targets)
    advice = (f" To put a lawyer's value in force, mark disagreement: `etalon review disagree "
              f"{item.system}:{item.code}:{item.version}:{item.attempt}:TARGET --by NAME --note TEXT`."
              if differ else "")
    consequence.messages.append(f"{said} Every audit item of this answer is labelled; the judge had concluded: "
                                f"{shown}.{advice}")
    return label_id, consequence


def decide(world: World, item_id: str, value: str, by: str, note: str | None = None,
           via: str = "cli --by") -> tuple[str, Consequence]:
    """Record a decision on any element of a current cell (an open item, or a settled one overruled); on a
    split double review it is the adjudication, refused to the reviewers who split. On an element of the audit
    sample that no human decision settles, it is an audit label (evaluation.audit), which changes no score."""
    from evaluation.review import decision_kind_for, new_decision

    part, item, is_open = _item(world, item_id)
    review = target_review(world, item_id)
    unsettled = not is_open and (review is None or review.state == "automatic")
    if unsettled and audit_target(world, part, item_id) is not None:
        return _label(world, part, item, value, by, note, via)
    kind, refusal = decision_kind_for(review, by)
    if refusal:
        raise Refused(refusal)
    try:
        decision = new_decision(item, value, by, note=note, at=now_precise(), kind=kind, via=via)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    _record(world, part.shard, decision, note, via)
    return decision.decision_id, rescore(world, part)


def disagree(world: World, item_id: str, by: str, note: str, via: str = "cli --by") -> tuple[str, Consequence]:
    """Mark disagreement with the conclusion in force on any element: it becomes an open item again."""
    from evaluation.review import new_disagreement

    part, item, _ = _item(world, item_id)
    review = target_review(world, item_id)
    disputed = review.effective.decision if review is not None and review.effective is not None else None
    try:
        record = new_disagreement(item, disputed, by, note, at=now_precise(), via=via)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    _record(world, part.shard, record, note, via)
    return record.decision_id, rescore(world, part)


def decisions_of(world: World, benchmark: str, code: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = world.lake.read_events("decisions", benchmark, code).to_pylist()
    return rows


def find_decision(world: World, decision_id: str) -> dict[str, Any]:
    """A decision or an audit label by its id (an undo revokes either)."""
    for table in ("decisions", "audits"):
        for benchmark in world.lake.folders(table):
            for code in world.lake.folders(table, benchmark):
                for name in world.lake.event_names(table, benchmark, code):
                    if name.endswith(f"@{decision_id}"):
                        rows = world.lake.read_events(table, benchmark, code, names=[name]).to_pylist()
                        if rows:
                            found: dict[str, Any] = rows[0]
                            return found
    raise Refused(f"no decision with id {decision_id!r}")


def undo(world: World, decision_id: str, by: str, via: str = "cli --by",
         roles: Iterable[str] | None = None) -> Consequence:
    """Revoke a decision (it stays on record). With `roles` (signed in), one undoes one's own; an admin anyone's."""
    decision = find_decision(world, decision_id)
    if roles is not None and "admin" not in set(roles) and not _same(decision["decided_by"], by):
        raise Refused(f"decision {decision_id} is {decision['decided_by']}'s: only they (or an admin) may undo it")
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


def approve(world: World, system: str, code: str, by: str, via: str = "cli --by",
            roles: Iterable[str] | None = None) -> tuple[int, Consequence]:
    """Approve a cell's evaluation once nothing is open. With `roles` (signed in), the methodology's rule: the
    etalon's author on their own etalon, a reviewer other than author and signer on a pool etalon."""
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
    if roles is None:
        refusal = approval_refusal(signer if from_pool else etalon.author, by, from_pool)
    else:
        refusal = approval_refusal(etalon.author, by, from_pool, roles=roles, signer=signer)
    if refusal:
        raise Refused(refusal)
    at = now_precise()
    for s in scores:
        world.lake.append_event("approvals", (shard.benchmark, code), ApprovalRow(
            benchmark=shard.benchmark, system=system, code=code, version=row.version, attempt=int(s["attempt"]),
            approved_by=by.strip(), approved_at=at, via=via), system=system)
    return len(scores), rescore(world, part)


def _same(a: str, b: str) -> bool:
    return bool(a.strip()) and a.strip().casefold() == b.strip().casefold()


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

def sign(world: World, code: str, by: str, via: str = "cli --by",
         roles: Iterable[str] | None = None) -> tuple[str, Consequence]:
    """Sign the current file version of an etalon; refused, naming each unresolved source. The event carries
    the cited units as they read now and an HMAC with the warehouse's key (etalons.signatures). With `roles`
    (signed in): the lawyer who wrote it, or a reviewer who checked it."""
    version, benchmark = record_signature(world, code, by, via, roles)
    return version, after_signature(world, benchmark)


def record_signature(world: World, code: str, by: str, via: str = "cli --by",
                     roles: Iterable[str] | None = None) -> tuple[str, str]:
    """`sign` without its consequences: the checked, sealed event only; returns (version, benchmark). For
    signing many etalons right before an update (the demo), which verifies them and refreshes the leaderboards
    once instead of once per signature."""
    from etalons.keys import SigningKeyError, signing_key
    from etalons.signatures import cited_units, signature_record
    from etalons.signing import SigningRefused
    from etalons.signing import sign as check_signable
    from etalons.verify import verify_sources

    loaded = world.loaded.by_code().get(code)
    if loaded is None:
        problems = [str(e) for e in world.loaded.errors if code in e.file]
        raise Refused(f"no etalon {code!r} under {world.home.etalons_dir}" + (f": {problems[0]}" if problems else ""))
    if roles is not None:
        held, author = set(roles), loaded.etalon.author or ""
        if not held & {"reviewer", "admin"} and not ("author" in held and _same(author, by)):
            raise Refused(f"{code}: {by} may not sign it: an etalon is signed by the lawyer who wrote it "
                          f"({author or 'no author named'}) or by a reviewer who checked it")
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
    return signature.version, signature.benchmark


def after_signature(world: World, benchmark: str) -> Consequence:
    """Signatures decide what is indicative: verify them again and refresh the benchmark's leaderboard rows."""
    from evaluation.engine import audit
    from evaluation.engine.stages import STAGES
    from evaluation.engine.stages.analytics import refresh_leaderboard_rows

    result = STAGES["signatures"].reconcile_partition(world, benchmark)
    world.index.flush()
    consequence = Consequence(results=[result], signatures=[benchmark])
    for system in world.systems.systems:
        refresh_leaderboard_rows(world, benchmark, system.id)
        consequence.leaderboards.append((benchmark, system.id))
    audit.refresh(world, benchmark)    # the corrected leaderboard counts signed etalons apart, like the leaderboard
    return consequence


def settle(world: World, benchmarks: Iterable[str]) -> Consequence:
    """What an act leaves for later, done now: the benchmarks' other analytics tables (pairs, agreement,
    slices) and the report, where they are stale.

    The act itself re-scores its cells and the leaderboard rows they feed, which is what a person waits for;
    this runs in the detached journal flusher right after, so the warehouse is whole again a few seconds later
    and the next update finds nothing to do. An update that comes first does the same work itself."""
    from evaluation.engine import plan
    from evaluation.engine.stages import STAGES

    consequence = Consequence()
    analytics, report = STAGES["analytics"], STAGES["report"]
    for benchmark in sorted(set(benchmarks) & set(plan.benchmarks(world))):
        if plan.stale(world, analytics, benchmark) is not None:
            consequence.results.append(analytics.reconcile_partition(world, benchmark))
    if consequence.results:
        for partition in plan.partitions(world, "report"):
            if plan.stale(world, report, partition) is not None:
                consequence.results.append(report.reconcile_partition(world, partition))
    world.index.flush()
    return consequence

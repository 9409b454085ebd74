"""Human decisions: recorded with who and when, never erased, undone by revocation.

Keeping every decision (an undo only sets revoked_at) is what lets a reviewer see the history and lets
the scorer return an element to its automatic state; the effective decision is recomputed from the log
each time rather than stored, so there is one source of truth.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from evaluation.records import Decision, ReviewItem


def item_id(system: str, code: str, version: str, attempt: int, target: str) -> str:
    """The id of a review target; identical to ReviewItem.id."""
    return f"{system}:{code}:{version}:{attempt}:{target}"


def decision_key(decision: Decision) -> str:
    return item_id(decision.system, decision.code, decision.version, decision.attempt, decision.target)


def effective_decisions(decisions: Iterable[Decision]) -> dict[str, Decision]:
    """The latest non-revoked decision per target, keyed by the target's item id.

    "Latest" is by decided_at (ISO 8601 UTC strings compare in time order); on a tie the later one in
    the log wins. A revoked decision never counts, so undoing the only decision on a target leaves no
    entry and the element returns to its automatic state.
    """
    best: dict[str, tuple[str, int, Decision]] = {}
    for position, decision in enumerate(decisions):
        if decision.revoked_at is not None:
            continue
        key = decision_key(decision)
        rank = (decision.decided_at, position)
        current = best.get(key)
        if current is None or rank >= current[:2]:
            best[key] = (decision.decided_at, position, decision)
    return {key: entry[2] for key, entry in best.items()}


def new_decision(
    item: ReviewItem,
    value: str,
    by: str,
    *,
    note: str | None = None,
    at: str | None = None,
    decision_id: str | None = None,
) -> Decision:
    """A decision on a review item; ValueError names what is wrong with a bad value or author."""
    if value not in item.options:
        raise ValueError(f"{item.id}: {value!r} is not a valid decision; expected one of {', '.join(item.options)}")
    if not by.strip():
        raise ValueError(f"{item.id}: a decision needs the name of who takes it (--by)")
    return Decision(
        decision_id=decision_id or uuid.uuid4().hex[:12],
        system=item.system,
        code=item.code,
        version=item.version,
        attempt=item.attempt,
        target=item.target,
        decision=value,
        decided_by=by.strip(),
        decided_at=at or now(),
        note=note,
    )


def revoke(decision: Decision, by: str, *, at: str | None = None) -> Decision:
    """The same decision marked revoked; the original stays in the log."""
    if decision.revoked_at is not None:
        raise ValueError(f"decision {decision.decision_id} was already undone at {decision.revoked_at}")
    if not by.strip():
        raise ValueError(f"decision {decision.decision_id}: an undo needs the name of who takes it (--by)")
    return replace(decision, revoked_at=at or now(), revoked_by=by.strip())


def find_decision(decisions: Sequence[Decision], decision_id: str) -> Decision:
    for decision in decisions:
        if decision.decision_id == decision_id:
            return decision
    raise ValueError(f"no decision with id {decision_id!r}")


def can_approve(author: str | None, approver: str, signed_from_pool: bool) -> bool:
    """Whether `approver` may approve an evaluation on an etalon written by `author`.

    On an etalon a lawyer wrote and signed, that lawyer may approve (so may another reviewer); on a pool
    etalon signed by someone else, the step stays with a reviewer other than its author.
    """
    return approval_refusal(author, approver, signed_from_pool) is None


def approval_refusal(author: str | None, approver: str, signed_from_pool: bool) -> str | None:
    """Why `approver` may not approve, or None when they may."""
    name = approver.strip()
    if not name:
        return "an approval needs the name of who approves (--by)"
    if signed_from_pool and author is not None and _same_person(author, name):
        return f"{name} wrote this pool etalon: its evaluations need another reviewer"
    return None


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _same_person(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()

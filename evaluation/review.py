"""Human decisions: recorded with who and when, never erased, undone by revocation.

Keeping every decision (an undo only sets revoked_at) is what lets a reviewer see the history and lets
the scorer return an element to its automatic state; the effective decision is recomputed from the log
each time rather than stored, so there is one source of truth.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Literal

from evaluation.records import Decision, DecisionKind, ReviewItem


def item_id(system: str, code: str, version: str, attempt: int, target: str) -> str:
    """The id of a review target; identical to ReviewItem.id."""
    return f"{system}:{code}:{version}:{attempt}:{target}"


def decision_key(decision: Decision) -> str:
    return item_id(decision.system, decision.code, decision.version, decision.attempt, decision.target)


ReviewState = Literal["automatic", "disputed", "awaiting", "split", "decided", "adjudicated"]


@dataclass(frozen=True)
class TargetReview:
    """What the human record says about one target, given how many independent reviewers it needs.

    `state`: "automatic" (no human record: the automatic conclusion stands); "disputed" (a lawyer marked
    disagreement and nobody has decided since); "awaiting" (fewer independent reviews than required);
    "split" (enough reviews, and they disagree: an adjudicator decides); "decided" (the reviews agree, or
    with one reviewer required, the latest review); "adjudicated" (an adjudicator settled a split).
    """

    state: ReviewState
    required: int
    effective: Decision | None = None
    reviews: tuple[Decision, ...] = ()          # the counted reviews: latest per reviewer, since the dispute
    dispute: Decision | None = None

    @property
    def reviewers(self) -> tuple[str, ...]:
        return tuple(d.decided_by for d in self.reviews)

    @property
    def pending(self) -> str | None:
        """Why the target waits for a human although it may have an automatic conclusion, or None.

        Never names a reviewer's value while reviews are still missing: that is what keeps the review blind.
        """
        if self.state == "disputed" and self.dispute is not None:
            note = f": {self.dispute.note}" if self.dispute.note else ""
            return f"disagreement marked by {self.dispute.decided_by}{note}"
        if self.state == "awaiting":
            return (f"{len(self.reviews)} of {self.required} independent reviews recorded: "
                    "waiting for another reviewer")
        if self.state == "split":
            said = "; ".join(f"{d.decision} by {d.decided_by}" for d in self.reviews)
            return f"the reviewers disagree ({said}): an adjudicator decides"
        return None

    def hides_from(self, viewer: str) -> bool:
        """Whether `viewer` must not see the reviews yet: blind while reviews are missing and theirs is not in."""
        if self.required < 2 or self.state != "awaiting":
            return False
        return not any(_same_person(d.decided_by, viewer) for d in self.reviews)


def target_reviews(decisions: Iterable[Decision], required: int = 1) -> dict[str, TargetReview]:
    """The review of every target that has a human record, keyed by the target's item id.

    Order is by decided_at (ISO 8601 UTC strings compare in time order), ties broken by position in the
    log. Revoked records never count. A disagreement supersedes every record before it on its target, so
    only what was decided after it settles the target again.
    """
    if required < 1:
        raise ValueError(f"a review needs at least one reviewer, got {required}")
    per_target: dict[str, list[tuple[str, int, Decision]]] = {}
    for position, decision in enumerate(decisions):
        if decision.revoked_at is None:
            per_target.setdefault(decision_key(decision), []).append((decision.decided_at, position, decision))
    return {key: _review([e[2] for e in sorted(entries, key=lambda e: e[:2])], required)
            for key, entries in per_target.items()}


def _review(ordered: Sequence[Decision], required: int) -> TargetReview:
    dispute_at = max((i for i, d in enumerate(ordered) if d.kind == "disagreement"), default=-1)
    dispute = ordered[dispute_at] if dispute_at >= 0 else None
    since = ordered[dispute_at + 1:]
    adjudications = [d for d in since if d.kind == "adjudication"]
    latest: dict[str, Decision] = {}
    for d in since:
        if d.kind == "decision":
            latest.pop(_person(d.decided_by), None)   # re-inserted: dicts keep the order of the last review
            latest[_person(d.decided_by)] = d
    reviews = tuple(latest.values())
    if adjudications:
        return TargetReview("adjudicated", required, adjudications[-1], reviews, dispute)
    if not reviews:
        return TargetReview("disputed" if dispute else "automatic", required, None, (), dispute)
    if required == 1:
        return TargetReview("decided", required, reviews[-1], reviews, dispute)
    if len(reviews) < required:
        return TargetReview("awaiting", required, None, reviews, dispute)
    if len({d.decision for d in reviews}) > 1:
        return TargetReview("split", required, None, reviews, dispute)
    return TargetReview("decided", required, reviews[-1], reviews, dispute)


def effective_decisions(decisions: Iterable[Decision], required: int = 1) -> dict[str, Decision]:
    """The decision in force per target, keyed by the target's item id.

    With one reviewer required, the latest review not revoked; with more, the reviews of that many
    different people once they agree, or an adjudicator's decision. A revoked decision never counts, so
    undoing the only decision on a target leaves no entry and the element returns to its automatic state.
    """
    return {key: review.effective for key, review in target_reviews(decisions, required).items()
            if review.effective is not None}


def new_decision(
    item: ReviewItem,
    value: str,
    by: str,
    *,
    note: str | None = None,
    at: str | None = None,
    decision_id: str | None = None,
    kind: DecisionKind = "decision",
    via: str | None = None,
) -> Decision:
    """A decision on a review item; ValueError names what is wrong with a bad value or author."""
    if kind == "disagreement":
        raise ValueError(f"{item.id}: a disagreement is recorded with new_disagreement")
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
        kind=kind,
        via=via,
    )


def new_disagreement(
    item: ReviewItem,
    disputed: str | None,
    by: str,
    note: str,
    *,
    at: str | None = None,
    decision_id: str | None = None,
    via: str | None = None,
) -> Decision:
    """A lawyer disagrees with the conclusion in force on `item` (`disputed`, None when there is none yet).

    The note is required: a disagreement nobody can read the reason of helps no adjudicator.
    """
    if not by.strip():
        raise ValueError(f"{item.id}: a disagreement needs the name of who marks it (--by)")
    if not note.strip():
        raise ValueError(f"{item.id}: a disagreement needs a note saying what is wrong with the conclusion")
    return Decision(
        decision_id=decision_id or uuid.uuid4().hex[:12], system=item.system, code=item.code,
        version=item.version, attempt=item.attempt, target=item.target, decision=disputed or "open",
        decided_by=by.strip(), decided_at=at or now(), note=note.strip(), kind="disagreement", via=via,
    )


def decision_kind_for(review: TargetReview | None, by: str) -> tuple[DecisionKind, str | None]:
    """The kind a new decision by `by` takes on a target in `review`, and why it is refused (None: allowed).

    A split review is settled by an adjudicator who is not one of the reviewers who split; every other
    decision is one more review (a reviewer deciding again replaces their own earlier review).
    """
    if review is None or review.state != "split":
        return "decision", None
    if any(_same_person(name, by) for name in review.reviewers):
        return "adjudication", (f"{by.strip()} reviewed this item: the reviewers disagree, so another "
                                "reviewer adjudicates it")
    return "adjudication", None


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


def approval_refusal(
    author: str | None,
    approver: str,
    signed_from_pool: bool,
    *,
    roles: Iterable[str] | None = None,
    signer: str | None = None,
) -> str | None:
    """Why `approver` may not approve, or None when they may.

    Without `roles` (a script's `--by`), only the pool rule applies. With the signed-in user's roles: on a
    pool etalon the step needs a reviewer who neither wrote nor signed it; on an etalon its author signed,
    the author may approve, and so may any reviewer. An admin counts as a reviewer.
    """
    name = approver.strip()
    if not name:
        return "an approval needs the name of who approves (--by)"
    if signed_from_pool and author is not None and _same_person(author, name):
        return f"{name} wrote this pool etalon: its evaluations need another reviewer"
    if roles is None:
        return None
    held = set(roles)
    reviewer = bool(held & {"reviewer", "admin"})
    if signed_from_pool:
        if signer is not None and _same_person(signer, name):
            return f"{name} signed this pool etalon: its evaluations need another reviewer"
        return None if reviewer else f"{name} is not a reviewer: on a pool etalon the approval stays with one"
    if reviewer or (author is not None and _same_person(author, name)):
        return None
    return f"{name} is neither the etalon's author nor a reviewer: approving needs one of them"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _person(name: str) -> str:
    return name.strip().casefold()


def _same_person(a: str, b: str) -> bool:
    return _person(a) == _person(b)


@dataclass(frozen=True)
class LawyerAgreement:
    """Agreement between lawyers on one element kind (the element id before ':', e.g. "branch").

    `units`: targets at least two different lawyers reviewed; `agreement`: the share of those on which
    all of them gave the same value; `kappa`: Cohen's kappa of the first and second review of each unit
    (by time: who came first differs from unit to unit, so it measures the review, not two fixed people);
    `alpha`: Krippendorff's alpha (nominal) over every review, for units with more than two.
    """

    kind: str
    units: int
    reviewers: int
    agreement: float | None
    kappa: float | None
    alpha: float | None


def lawyer_agreement(decisions: Iterable[Decision]) -> list[LawyerAgreement]:
    """Inter-lawyer agreement per element kind, from the decision log (independent reviews only)."""
    from evaluation.stats import cohen_kappa, krippendorff_alpha

    per_kind: dict[str, list[tuple[Decision, ...]]] = {}
    for review in target_reviews(decisions).values():
        if len(review.reviews) >= 2:
            kind = review.reviews[0].target.split(":", 1)[0]
            per_kind.setdefault(kind, []).append(
                tuple(sorted(review.reviews, key=lambda d: d.decided_at)))
    rows = []
    for kind, units in sorted(per_kind.items()):
        values = [[d.decision for d in unit] for unit in units]
        people = {_person(d.decided_by) for unit in units for d in unit}
        rows.append(LawyerAgreement(
            kind=kind, units=len(units), reviewers=len(people),
            agreement=sum(1 for v in values if len(set(v)) == 1) / len(values),
            kappa=cohen_kappa([v[0] for v in values], [v[1] for v in values]),
            alpha=krippendorff_alpha(values)))
    return rows

"""One answer's part in the audit: which of its elements the judge settled, and its score with lawyers' labels.

An audit checks the judge where nobody else does: the elements both runs agreed on (with a quote found) and
no lawyer ever saw. So the audit's targets are defined by the judge's runs alone (an element whose automatic
conclusion exists), never by what people did since, and the sample of them is a random sample of what was
judged. A lawyer's value for a target is the decision in force on it, when the normal review settled it, else
the audit label.

Two scores come out for the prediction-powered estimate, both recomputed from the answer's records:
- the judge's score (the prediction): every target at the judge's conclusion, human decisions only on the
  elements the judge could not settle. It differs from the official score only where a lawyer overruled or
  disputed an automatic conclusion, and it must not follow those acts: a disagreement an audit led to would
  otherwise make the audited answers look better judged than the rest.
- the human score (the label): every target at the lawyer's value, where there is one.

Audit labels never change the official score: they are laid over a copy of the decisions, here only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from evaluation.methodologies.inputs import ElementState
from evaluation.methodologies.resolution import resolve
from evaluation.records import Decision, Judgment, Score
from evaluation.review import item_id, target_reviews

SYNTHETIC = "audit-label"   # the decided_by of the copies of audit labels the human score is computed with


@dataclass(frozen=True)
class Target:
    """An element the judge settled automatically, with the lawyer's value when there is one.

    `source`: "decision" (the normal review settled it: that value wins), "audit" (an audit label), None."""

    target: str
    kind: str
    options: tuple[str, ...]
    automatic: str
    human: str | None
    source: str | None
    label_id: str | None


@dataclass(frozen=True)
class CellAudit:
    targets: tuple[Target, ...]
    judge: Score | None          # every target at the judge's conclusion (None: an error answer)
    human: Score | None          # every target at the lawyer's value where there is one

    @property
    def covered(self) -> int:
        return sum(1 for t in self.targets if t.human is not None)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(sorted({t.kind for t in self.targets}))


def labels_in_force(audits: Sequence[Decision]) -> dict[str, Decision]:
    """The audit label in force per target id: the latest not undone (by time, then id)."""
    out: dict[str, Decision] = {}
    for label in sorted((a for a in audits if a.revoked_at is None), key=lambda a: (a.decided_at, a.decision_id)):
        out[item_id(label.system, label.code, label.version, label.attempt, label.target)] = label
    return out


def cell_audit(
    states: dict[str, ElementState],
    *,
    key: tuple[str, str, str, int],
    answer_status: str,
    judgments: Sequence[Judgment],
    decisions: Sequence[Decision],
    audits: Sequence[Decision],
    judge_configured: bool,
    reviewers: int,
    official: Score,
    rescore: Callable[[Sequence[Decision]], Score],
) -> CellAudit:
    """The audit targets of one answer (`key`: system, code, version, attempt), its judge's and human scores.

    `states` are the scorer's element states (its element list), `decisions` and `audits` the answer's
    records; `rescore(decisions)` scores the answer again with other decisions."""
    if official.status == "error":
        return CellAudit((), None, None)
    mine = [j for j in judgments if (j.system, j.code, j.version, j.attempt) == key]
    own = [d for d in decisions if (d.system, d.code, d.version, d.attempt) == key]
    reviews = target_reviews(own, reviewers)
    labels = labels_in_force([a for a in audits if (a.system, a.code, a.version, a.attempt) == key])
    targets: list[Target] = []
    for element_id, state in states.items():
        if answer_status != "ok":
            break   # a refused answer's elements are the program's, not the judge's
        element = state.element
        automatic = resolve(element, [j for j in mine if j.element == element_id],
                            judge_configured=judge_configured).automatic
        if automatic is None:
            continue
        tid = item_id(*key, element_id)
        review = reviews.get(tid)
        decided = review.effective if review is not None else None
        label = labels.get(tid)
        if decided is not None and decided.decision in state.review_options:
            targets.append(Target(element_id, element.kind, state.review_options, automatic, decided.decision,
                                  "decision", None))
        elif label is not None and label.decision in state.review_options:
            targets.append(Target(element_id, element.kind, state.review_options, automatic, label.decision,
                                  "audit", label.decision_id))
        else:
            targets.append(Target(element_id, element.kind, state.review_options, automatic, None, None, None))
    names = {t.target for t in targets}
    touched = any(d.target in names for d in own)
    covered = [t for t in targets if t.human is not None]
    if not touched and not any(t.source == "audit" for t in targets):
        return CellAudit(tuple(targets), official, official)
    others = [d for d in decisions if not ((d.system, d.code, d.version, d.attempt) == key and d.target in names)]
    judge = rescore(others) if touched else official
    # An adjudication settles its target whatever else the log holds there: the copy stands in for the lawyer.
    copies = [Decision(decision_id=f"{SYNTHETIC}:{t.target}", system=key[0], code=key[1], version=key[2],
                       attempt=key[3], target=t.target, decision=str(t.human), decided_by=SYNTHETIC,
                       decided_at="9999-12-31T23:59:59+00:00", kind="adjudication") for t in covered]
    return CellAudit(tuple(targets), judge, rescore([*others, *copies]) if copies else judge)

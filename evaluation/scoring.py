"""Score one answer: resolve its judged elements, apply human decisions, run its methodology.

A pure function of records so that re-scoring a cell after a decision, an undo or an etalon edit is
just calling it again; the Dagster assets and the `etalon review` commands are thin layers over it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from etalons.model import Etalon
from evaluation.elements import Element, elements_for
from evaluation.methodologies.config import MethodologyConfig, config_for
from evaluation.methodologies.inputs import AnswerCitation, Context, ElementState, ExpectedSource, Outcome
from evaluation.methodologies.irac import irac_system_figure
from evaluation.methodologies.registry import get
from evaluation.methodologies.resolution import fixed, resolve
from evaluation.records import Answer, Decision, Judgment, ReviewItem, Score
from evaluation.review import item_id, target_reviews

__all__ = [
    "AnswerCitation",
    "ExpectedSource",
    "MethodologyConfig",
    "ScoredAnswer",
    "config_for",
    "irac_system_figure",
    "score_answer",
]

Status = Literal["needs_input", "final", "approved", "error"]


@dataclass(frozen=True)
class ScoredAnswer:
    """The Score record plus what a reader of one cell needs to trust it."""

    score: Score
    indicative: bool                                  # scored on an unsigned etalon
    unverifiable: tuple[AnswerCitation, ...]          # listed apart; they change nothing
    explanation: tuple[str, ...]
    states: Mapping[str, ElementState] = field(default_factory=dict)

    @property
    def status(self) -> str:
        return self.score.status

    @property
    def open_items(self) -> tuple[ReviewItem, ...]:
        return self.score.open_items

    def item(self, target: str) -> ReviewItem:
        """A review item for any element, open or not: a human may also overrule a settled one."""
        state = self.states.get(target)
        if state is None:
            known = ", ".join(sorted(self.states)) or "none"
            raise ValueError(f"{self.score.code}: no element {target!r}; elements: {known}")
        return _item(self.score, state)


def score_answer(
    *,
    etalon: Etalon,
    benchmark: str,
    answer: Answer,
    expected: Sequence[ExpectedSource],
    cited: Sequence[AnswerCitation],
    judgments: Sequence[Judgment],
    decisions: Sequence[Decision],
    config: MethodologyConfig,
    judge_configured: bool,
    signed: bool,
    approved_by: str | None = None,
    candidates: Sequence[Element] = (),
    reviewers: int = 1,
) -> ScoredAnswer:
    """Score, verdict and status of one answer (system x etalon version x attempt).

    Judgments and decisions of other answers are ignored, so callers may pass a whole table. An answer
    whose model call failed gets status "error" and no score: it must be excluded from averages, never
    counted as a zero.
    """
    methodology = config.methodology
    method = get(methodology)
    base = Score(answer.system, benchmark, answer.code, answer.version, answer.attempt, methodology,
                 score=None, verdict=None, status="error")
    unverifiable = tuple(c for c in cited if c.status == "unverifiable")
    if answer.status == "error":
        reason = f"the model call failed: {answer.error or 'no reason given'}; excluded from averages"
        return ScoredAnswer(_with(base, notes=(reason,)), not signed, unverifiable, (reason,))

    states = _states(etalon, methodology, answer, judgments, decisions, candidates, judge_configured, reviewers)
    ctx = Context(etalon, states, expected, cited, config)
    outcome: Outcome = method.score(ctx)
    open_items = tuple(
        _item(base, s) for key, s in states.items() if s.is_open and key not in outcome.moot
    )
    notes = list(outcome.explanation)
    for key, state in states.items():
        if state.decision is not None:
            d = state.decision
            notes.append(f"{key}: {d.decision} by {d.decided_by} at {d.decided_at} "
                         f"(automatic: {state.automatic or 'open'})")
    notes.extend(f"{s.element.id}: open, {s.why_open}" for s in states.values()
                 if s.is_open and s.element.id not in outcome.moot)
    notes.extend(f"unverifiable citation listed apart: {c.text or c.court or c.act}" for c in unverifiable)
    status: Status
    if open_items:
        status = "needs_input"
        if approved_by:
            notes.append(f"approval by {approved_by} does not apply while {len(open_items)} item(s) are open")
    else:
        status = "approved" if approved_by else "final"
    score = Score(answer.system, benchmark, answer.code, answer.version, answer.attempt, methodology,
                  score=outcome.score, verdict=outcome.verdict, status=status,
                  components=dict(outcome.components), open_items=open_items, notes=tuple(notes),
                  rule=outcome.rule)
    return ScoredAnswer(score, not signed, unverifiable, tuple(notes), states)


def _states(
    etalon: Etalon,
    methodology: str,
    answer: Answer,
    judgments: Sequence[Judgment],
    decisions: Sequence[Decision],
    candidates: Sequence[Element],
    judge_configured: bool,
    reviewers: int = 1,
) -> dict[str, ElementState]:
    key = (answer.system, answer.code, answer.version, answer.attempt)
    mine = [j for j in judgments if (j.system, j.code, j.version, j.attempt) == key]
    method = get(methodology)
    elements = elements_for(etalon, methodology, candidates)
    known = {e.id for e in elements}
    for j in mine:  # candidates judged but not passed in still count: their judgments name them
        kind = j.element.split(":", 1)[0]
        if j.element not in known and kind in method.candidate_kinds:
            elements.append(Element(j.element, kind, ""))
            known.add(j.element)
    reviews = target_reviews(
        (d for d in decisions if (d.system, d.code, d.version, d.attempt) == key), reviewers
    )
    states: dict[str, ElementState] = {}
    for element in elements:
        review = reviews.get(item_id(*key, element.id))
        decision = review.effective if review is not None else None
        if answer.status == "refused":
            # what a refused answer means for the element, without asking a judge: it refused, said nothing else
            state = fixed(element, method.refused.get(element.kind, "no"), decision)
        else:
            runs = [j for j in mine if j.element == element.id]
            state = resolve(element, runs, judge_configured=judge_configured, decision=decision)
        pending = review.pending if review is not None else None
        if pending is not None and state.decision is None:  # under human review: open until settled
            was = f" (automatic: {state.automatic})" if state.automatic is not None else ""
            state = replace(state, automatic=None, why_open=pending + was)
        states[element.id] = state
    return states


def _item(score: Score, state: ElementState) -> ReviewItem:
    why = state.why_open or "a human overrules the automatic conclusion"
    return ReviewItem(score.system, score.code, score.version, score.attempt, state.element.id, why,
                      state.review_options)


def _with(score: Score, **changes: Any) -> Score:
    return replace(score, **changes)

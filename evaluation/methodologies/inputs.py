"""What a methodology reads: resolved elements and citation rows, never raw strings.

The citation stage has already parsed and resolved both the etalon's sources (bench.sources) and the
answer's citations (eval.citations); scoring on those rows keeps the scorer deterministic and keeps one
citation parser in the project.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from etalons.model import Etalon
from evaluation.elements import Element
from evaluation.methodologies.config import MethodologyConfig
from evaluation.records import Decision

Verdict = Literal["positive", "partial", "negative"]


@dataclass(frozen=True)
class ExpectedSource:
    """One row of bench.sources: an etalon source, parsed and looked up in the corpus."""

    index: int                  # 1-based position in etalon.sources (the k of "condition:<k>")
    citation: str
    priority: str               # mandatory | conditional | recommended
    condition: str | None
    kind: str                   # article | act | decision
    act: str | None
    article: str | None
    article_to: str | None
    part: str | None
    court: str | None
    number: str | None
    point: str | None
    status: str                 # found | not_found | unknown_act | ambiguous | unverifiable


@dataclass(frozen=True)
class AnswerCitation:
    """One row of eval.citations for the answer being scored."""

    kind: str
    act: str | None
    article: str | None
    article_to: str | None
    part: str | None
    court: str | None
    number: str | None
    point: str | None
    status: str | None
    in_text: bool               # False: only in the answer's separate sources list
    text: str | None = None     # as written, for explanations


@dataclass(frozen=True)
class ElementState:
    """An element after the two judge runs and any human decision.

    The automatic conclusion is kept next to the decision so an undo restores it and a reviewer can
    see what the program concluded.
    """

    element: Element
    automatic: str | None       # None: the runs could not settle it
    why_open: str | None        # why the automatic resolution is open
    review_options: tuple[str, ...]
    decision: Decision | None = None

    @property
    def value(self) -> str | None:
        return self.decision.decision if self.decision is not None else self.automatic

    @property
    def is_open(self) -> bool:
        return self.value is None


@dataclass(frozen=True)
class Context:
    etalon: Etalon
    states: Mapping[str, ElementState]
    expected: Sequence[ExpectedSource]
    cited: Sequence[AnswerCitation]
    config: MethodologyConfig

    def value(self, element_id: str) -> str | None:
        state = self.states.get(element_id)
        return state.value if state is not None else None

    def confirmed(self, prefix: str) -> list[str]:
        """Ids of negative elements (errors, hallucinations) whose effective value is "yes"."""
        return sorted(k for k, s in self.states.items() if k.startswith(prefix) and s.value == "yes")


@dataclass(frozen=True)
class Outcome:
    score: float
    verdict: Verdict
    components: dict[str, float]
    explanation: tuple[str, ...]
    moot: frozenset[str] = field(default_factory=frozenset)   # open elements that cannot change the result
    rule: str | None = None   # the rule that decided the verdict, in words (shown beside every score)


def band_rule(score: float, config: MethodologyConfig, *, blocked: bool = False) -> str:
    """The band rule that `verdict_by_bands` applied, in words."""
    low, high = config.thresholds.negative_below, config.thresholds.positive_at
    if score < low:
        return f"score {score:g} below {low:g}: negative"
    if score >= high and blocked:
        return f"score {score:g} reaches {high:g} but a mandatory source is missing: partial"
    if score >= high:
        return f"score {score:g} reaches {high:g}: positive"
    return f"score {score:g} between {low:g} and {high:g}: partial"


def verdict_by_bands(score: float, config: MethodologyConfig, *, blocked: bool = False) -> Verdict:
    """Score bands; `blocked` keeps a high score out of positive (e.g. a mandatory source missing)."""
    if score < config.thresholds.negative_below:
        return "negative"
    if score >= config.thresholds.positive_at and not blocked:
        return "positive"
    return "partial"

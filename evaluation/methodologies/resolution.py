"""From two independent judge runs (and a human decision) to one state per element.

The rule is the methodology's guard against a lone or careless judge: an element earns points, and an
error or hallucination fails an answer, only when both runs say the same thing and every "yes" comes with
a quote the program found in the answer. Anything less is an open item for a human, never a guess.
An answer the judge stage found addressing its evaluator (a judgment's detail carries "manipulation") is
a possible manipulation: every element of it is left to a human, whatever the runs said, since a judge
that obeyed the answer's instructions agrees with itself and quotes what it was told to.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from evaluation.elements import IRAC_OPTIONS, Element
from evaluation.methodologies.inputs import ElementState
from evaluation.records import Decision, Judgment

REQUIRED_RUNS = 2
IRAC_FLAGS = ("rule_misstatement", "fact_misstatement", "incorrect_outcome", "logic_error", "arithmetic_error")
IRAC_WITH_ANALYSIS = "correct_and_contains_analysis"
# A human settling an IRAC element decides the analysis too, so the review offers the middle case.
IRAC_REVIEW_OPTIONS = ("correct", "correct_but_no_analysis", "incorrect")
_NO_QUOTE_NEEDED = frozenset({"no", "incorrect"})
# Hallucination categories (evaluation/candidates.py) the corpus cannot settle even when both runs
# confirm: a decision may be missing from an incomplete case-law base, and a figure may come from a
# legitimate calculation. The seed sends these to a human instead of failing the answer.
UNSETTLED_CATEGORIES = frozenset({"invented_case_law", "invented_figure"})


def review_options(element: Element) -> tuple[str, ...]:
    return IRAC_REVIEW_OPTIONS if element.kind == "irac" else element.options


def resolve(
    element: Element,
    judgments: Sequence[Judgment],
    *,
    judge_configured: bool,
    decision: Decision | None = None,
) -> ElementState:
    """The automatic state of one element from its judgments, with the human decision laid over it."""
    automatic, why = _automatic(element, judgments, judge_configured)
    options = review_options(element)
    if decision is not None and decision.decision not in options:
        decision = None  # recorded against other options (e.g. an older rubric): not applicable here
    return ElementState(element, automatic, why, options, decision)


def fixed(element: Element, value: str, decision: Decision | None = None) -> ElementState:
    """A state the program knows without a judge (e.g. everything about a refused answer)."""
    options = review_options(element)
    if decision is not None and decision.decision not in options:
        decision = None
    return ElementState(element, value, None, options, decision)


def _automatic(
    element: Element, judgments: Sequence[Judgment], judge_configured: bool
) -> tuple[str | None, str | None]:
    if not judge_configured:
        return None, "no judge is configured: a human decides"
    flagged = possible_manipulation(judgments)
    if flagged is not None:
        return None, flagged
    runs = _latest_per_run(judgments)
    if len(runs) < REQUIRED_RUNS:
        got = "no judge run" if not runs else f"only {len(runs)} judge run"
        return None, f"{got} of {REQUIRED_RUNS} gave a verdict"
    if element.kind == "irac":
        return _irac(runs)
    verdicts: dict[int, str] = {}
    for run, judgment in runs.items():
        if judgment.verdict is None:
            reason = f": {judgment.error}" if judgment.error else ""
            return None, f"run {run} gave no verdict{reason}"
        if judgment.verdict not in element.options:
            return None, f"run {run} gave {judgment.verdict!r}, expected one of {', '.join(element.options)}"
        verdicts[run] = judgment.verdict
    if len(set(verdicts.values())) > 1:
        said = ", ".join(f"run {r} {v}" for r, v in sorted(verdicts.items()))
        return None, f"the runs disagree ({said})"
    agreed = next(iter(verdicts.values()))
    if agreed not in _NO_QUOTE_NEEDED:
        missing = sorted(r for r, j in runs.items() if not j.quote_found)
        if missing:
            which = ", ".join(map(str, missing))
            return None, f"the quote of run {which} is not found in the answer"
        if element.kind == "hallucination" and _unsettled(element):
            return None, "the corpus cannot settle this possible hallucination"
    return agreed, None


def _irac(runs: Mapping[int, Judgment]) -> tuple[str | None, str | None]:
    outcomes: dict[int, str] = {}
    for run, judgment in runs.items():
        outcome = irac_outcome(judgment.detail)
        if outcome is None:
            return None, f"run {run} gave no readable atomic verdict"
        outcomes[run] = outcome
    if len(set(outcomes.values())) > 1:
        said = ", ".join(f"run {r} {v}" for r, v in sorted(outcomes.items()))
        return None, f"the runs disagree ({said})"
    return next(iter(outcomes.values())), None


def irac_outcome(detail: str | None) -> str | None:
    """correct | correct_but_no_analysis | incorrect from the atomic verdict; None if unreadable.

    Correctness is derived from the five flags, never taken from the model's own summary, so a verdict
    with a flag raised can never count as correct.
    """
    if not detail:
        return None
    try:
        data = json.loads(detail)
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    flags = [data.get(name) for name in IRAC_FLAGS]
    if any(flag not in (0, 1) for flag in flags):
        return None
    if any(flags):
        return IRAC_OPTIONS[1]
    case = data.get("analysis_case")
    if case == IRAC_WITH_ANALYSIS:
        return "correct"
    if case in ("correct_but_no_analysis", "incorrect"):
        return "correct_but_no_analysis"
    return None


def possible_manipulation(judgments: Sequence[Judgment]) -> str | None:
    """The reason recorded by the judge stage when the answer addresses its evaluator, else None."""
    for judgment in judgments:
        if not judgment.detail or '"manipulation"' not in judgment.detail:
            continue
        try:
            data = json.loads(judgment.detail)
        except json.JSONDecodeError:
            continue
        flag = data.get("manipulation") if isinstance(data, dict) else None
        if flag:
            reason = flag.get("reason") if isinstance(flag, dict) else None
            return str(reason or "possible manipulation")
    return None


def _unsettled(element: Element) -> bool:
    if element.detail.get("settled") is False:
        return True
    return element.detail.get("category") in UNSETTLED_CATEGORIES


def _latest_per_run(judgments: Sequence[Judgment]) -> dict[int, Judgment]:
    runs: dict[int, Judgment] = {}
    for judgment in judgments:
        runs[judgment.run] = judgment
    return runs

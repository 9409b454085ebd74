from __future__ import annotations

import json

import pytest
from scoring_cases import runs

from evaluation.elements import Element
from evaluation.methodologies.resolution import irac_outcome, resolve
from evaluation.records import Judgment

ISSUE = Element("issue", "issue", "the decisive issue")
CRITICAL = Element("critical:1", "critical", "inverse rule")
UNSETTLED = Element("hallucination:1", "hallucination", "a decision the corpus lacks", detail={"settled": False})
FIGURE = Element("hallucination:3", "hallucination", "a sum", detail={"category": "invented_figure"})
MISSING_DECISION = Element("hallucination:4", "hallucination", "a decision",
                           detail={"category": "invented_case_law"})
SETTLED = Element("hallucination:2", "hallucination", "an article that does not exist")
CONCLUSION = Element("conclusion", "conclusion", "ref", options=("correct", "partial", "incorrect"))


@pytest.mark.parametrize(
    ("element", "judgments", "value", "why"),
    [
        (ISSUE, runs("issue", "yes", "yes"), "yes", None),
        (ISSUE, runs("issue", "no", "no", found=False), "no", None),
        (ISSUE, runs("issue", "yes", "no"), None, "the runs disagree (run 1 yes, run 2 no)"),
        (ISSUE, runs("issue", "yes", None), None, "run 2 gave no verdict: timeout"),
        (ISSUE, runs("issue", "yes"), None, "only 1 judge run of 2 gave a verdict"),
        (ISSUE, [], None, "no judge run of 2 gave a verdict"),
        (ISSUE, runs("issue", "yes", "yes", found=[True, False]), None,
         "the quote of run 2 is not found in the answer"),
        (ISSUE, runs("issue", "maybe", "maybe"), None, "run 1 gave 'maybe', expected one of yes, no"),
        (CRITICAL, runs("critical:1", "yes", "yes"), "yes", None),
        (CRITICAL, runs("critical:1", "yes", "no"), None, "the runs disagree (run 1 yes, run 2 no)"),
        (CRITICAL, runs("critical:1", "yes", "yes", found=[False, True]), None,
         "the quote of run 1 is not found in the answer"),
        (CRITICAL, runs("critical:1", "no", "no"), "no", None),
        (UNSETTLED, runs("hallucination:1", "yes", "yes"), None,
         "the corpus cannot settle this possible hallucination"),
        (SETTLED, runs("hallucination:2", "yes", "yes"), "yes", None),
        (FIGURE, runs("hallucination:3", "yes", "yes"), None, "the corpus cannot settle this possible hallucination"),
        (MISSING_DECISION, runs("hallucination:4", "yes", "yes"), None,
         "the corpus cannot settle this possible hallucination"),
        (CONCLUSION, runs("conclusion", "partial", "partial"), "partial", None),
        (CONCLUSION, runs("conclusion", "incorrect", "incorrect", found=False), "incorrect", None),
        (CONCLUSION, runs("conclusion", "correct", "partial"), None,
         "the runs disagree (run 1 correct, run 2 partial)"),
    ],
)
def test_two_runs_settle_an_element_only_when_they_agree_with_found_quotes(
    element: Element, judgments: list[Judgment], value: str | None, why: str | None
) -> None:
    state = resolve(element, judgments, judge_configured=True)
    assert (state.value, state.why_open) == (value, why)


def test_without_a_judge_every_judged_element_waits_for_a_human() -> None:
    state = resolve(ISSUE, runs("issue", "yes", "yes"), judge_configured=False)
    assert state.is_open and state.why_open == "no judge is configured: a human decides"


def _atomic(case: str = "correct_and_contains_analysis", **flags: int) -> str:
    base = dict.fromkeys(
        ("rule_misstatement", "fact_misstatement", "incorrect_outcome", "logic_error", "arithmetic_error"), 0
    )
    return json.dumps({**base, **flags, "analysis_case": case})


@pytest.mark.parametrize(
    ("detail", "outcome"),
    [
        # seed 004: right outcome, misstated manoeuvre and wrong amount -> correctness 0, analysis 0
        (_atomic("incorrect", fact_misstatement=1, arithmetic_error=1), "incorrect"),
        # the model cannot call an answer with a raised flag correct
        (_atomic("correct_and_contains_analysis", logic_error=1), "incorrect"),
        (_atomic("correct_and_contains_analysis"), "correct"),
        (_atomic("correct_but_no_analysis"), "correct_but_no_analysis"),
        (_atomic(rule_misstatement=2), None),
        ("not json", None),
        (None, None),
    ],
)
def test_the_irac_outcome_is_derived_from_the_five_flags(detail: str | None, outcome: str | None) -> None:
    assert irac_outcome(detail) == outcome

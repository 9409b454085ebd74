from __future__ import annotations

import json

import pytest
from scoring_cases import runs, score

from evaluation.records import Score
from evaluation.scoring import irac_system_figure

FLAGS = ("rule_misstatement", "fact_misstatement", "incorrect_outcome", "logic_error", "arithmetic_error")


def _atomic(case: str, **flags: int) -> str:
    return json.dumps({**dict.fromkeys(FLAGS, 0), **flags, "analysis_case": case})


# Seed 004: coverage is right, but the driver "was entering" the space (was reversing) and the claim is
# 1,200 EUR (it is 1,400): a fact misstatement and an arithmetic error.
SLIPPED = _atomic("incorrect", fact_misstatement=1, arithmetic_error=1)
FIXED = _atomic("correct_and_contains_analysis")
NO_ANALYSIS = _atomic("correct_but_no_analysis")


@pytest.mark.parametrize(
    ("detail", "figures", "expected_score", "verdict"),
    [
        (SLIPPED, (0, 0), 0, "negative"),
        (FIXED, (1, 1), 100, "positive"),
        (NO_ANALYSIS, (1, 0), 50, "partial"),
    ],
)
def test_the_irac_example_scores_correctness_and_analysis_from_the_flags(
    detail: str, figures: tuple[int, int], expected_score: float, verdict: str
) -> None:
    verdict_word = "incorrect" if detail == SLIPPED else "correct"
    result = score(methodology="irac", judgments=runs("irac", verdict_word, verdict_word, detail=[detail, detail]))
    components = result.score.components
    assert (components["correctness"], components["analysis"]) == figures
    assert (result.score.score, result.score.verdict, result.status) == (expected_score, verdict, "final")


def test_irac_runs_that_disagree_wait_for_a_human() -> None:
    result = score(methodology="irac", judgments=runs("irac", "incorrect", "correct", detail=[SLIPPED, FIXED]))
    assert (result.score.score, result.status, result.open_items[0].options) == (
        0, "needs_input", ("correct", "correct_but_no_analysis", "incorrect"))


def _row(correctness: float, analysis: float, status: str = "final") -> Score:
    return Score("s", "b", "c", "v", 1, "irac", None if status == "error" else 0.0, None, status,  # type: ignore[arg-type]
                 {"correctness": correctness, "analysis": analysis})


@pytest.mark.parametrize(
    ("rows", "figure"),
    [
        ([_row(1, 1), _row(1, 0), _row(0, 0), _row(1, 1)], (0.75 + 0.5) / 2),
        ([_row(1, 1), _row(0, 0, "error")], 1.0),     # an error row is excluded, not a zero
        ([{"correctness": 1.0, "analysis": 0.0}], 0.5),
    ],
)
def test_a_system_figure_is_the_mean_of_its_correctness_and_analysis_rates(
    rows: list[Score], figure: float
) -> None:
    assert irac_system_figure(rows) == pytest.approx(figure)


def test_a_system_figure_needs_at_least_one_scored_answer() -> None:
    with pytest.raises(ValueError, match="at least one"):
        irac_system_figure([_row(0, 0, "error")])

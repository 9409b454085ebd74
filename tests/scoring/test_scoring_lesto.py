from __future__ import annotations

from typing import Any

import pytest
from scoring_cases import agreed, cite, runs, score, source

from evaluation.records import Judgment
from evaluation.scoring import AnswerCitation, ExpectedSource, config_for

GOOD = {"conclusion": "correct", "next_steps": "yes", "refusal": "no", "gross_error:1": "no"}
ART_A, ART_B = source(1, article="1152"), source(2, article="1153")
PLENUM = source(3, "decision", None, None, court="ВС РФ Пленум", number="9", point="36")
ALL = [ART_A, ART_B, PLENUM]
CITE_A, CITE_B = cite(article="1152"), cite(article="1153")
CITE_PLENUM = cite("decision", None, None, court="ВС РФ Пленум", number="9", point="36")


def _judged(**changes: str) -> list[Judgment]:
    return agreed({**GOOD, **changes})


def _lesto(expected: list[ExpectedSource], cited: list[AnswerCitation], judgments: list[Judgment],
           **kwargs: Any) -> tuple[float | None, str | None]:
    result = score(methodology="lesto", expected=expected, cited=cited, judgments=judgments, **kwargs)
    return result.score.score, result.score.verdict


@pytest.mark.parametrize(
    ("grade", "expected_score"), [("correct", 100), ("partial", 80), ("incorrect", 60)]
)
def test_the_conclusion_earns_40_20_or_0(grade: str, expected_score: float) -> None:
    assert _lesto(ALL, [CITE_A, CITE_B, CITE_PLENUM], _judged(conclusion=grade))[0] == expected_score


@pytest.mark.parametrize(
    ("expected", "cited", "expected_score"),
    [
        (ALL, [CITE_A, CITE_PLENUM], 85),                         # one of two articles: 15 of 30
        (ALL, [CITE_A, cite(act="ru/sk", article="1153"), CITE_PLENUM], 85),   # the right act is required
        (ALL, [CITE_A, CITE_B], 80),                              # practice missing
        (ALL, [CITE_A, CITE_B, cite("decision", None, None, court="ВС РФ Пленум", number="9", point="12")], 80),
        ([ART_A, ART_B], [CITE_A, CITE_B], 100),                  # no practice: its 20 go to norms
        ([ART_A, ART_B], [CITE_A], 75),
        ([ART_A, ART_B, source(4, article="9999", status="not_found")], [CITE_A, CITE_B], 100),
    ],
)
def test_norms_and_practice_are_shares_of_the_etalon_sources_named_with_the_right_act(
    expected: list[ExpectedSource], cited: list[AnswerCitation], expected_score: float
) -> None:
    assert _lesto(expected, cited, _judged())[0] == expected_score


@pytest.mark.parametrize(
    ("invented", "expected_score"), [(0, 100), (1, 90), (2, 80), (3, 70), (4, 70), (7, 70)]
)
def test_each_invented_citation_costs_10_points_at_most_30(invented: int, expected_score: float) -> None:
    fakes = [cite(article=str(5000 + i), status="not_found") for i in range(invented)]
    assert _lesto(ALL, [CITE_A, CITE_B, CITE_PLENUM, *fakes], _judged())[0] == expected_score


@pytest.mark.parametrize(
    ("fake", "expected_score"),
    [
        (cite(act="ru/zzz", status="unknown_act"), 90),
        (cite(article="5000", status="not_found", in_text=False), 100),   # only in the sources list
        (cite("decision", None, None, court="CJEU", number="C-1/20", status="unverifiable"), 100),
    ],
)
def test_only_citations_in_the_text_that_the_corpus_refutes_count_as_invented(
    fake: AnswerCitation, expected_score: float
) -> None:
    assert _lesto(ALL, [CITE_A, CITE_B, CITE_PLENUM, fake], _judged())[0] == expected_score


def test_a_confirmed_gross_error_zeroes_an_answer_worth_90_points() -> None:
    cited = [CITE_A, CITE_B, CITE_PLENUM]
    assert _lesto(ALL, cited, _judged(next_steps="no")) == (90, "positive")
    assert _lesto(ALL, cited, _judged(next_steps="no", **{"gross_error:1": "yes"})) == (0, "negative")


def test_a_gross_error_reported_by_one_run_only_does_not_zero_the_answer_until_decided() -> None:
    judgments = [j for j in _judged() if j.element != "gross_error:1"] + runs("gross_error:1", "yes", "no")
    result = score(methodology="lesto", expected=ALL, cited=[CITE_A, CITE_B, CITE_PLENUM], judgments=judgments)
    assert (result.score.score, result.status) == (100, "needs_input")


def test_a_confirmed_refusal_where_the_facts_sufficed_scores_zero() -> None:
    assert _lesto(ALL, [CITE_A, CITE_B, CITE_PLENUM], _judged(refusal="yes")) == (0, "negative")


def test_the_score_never_goes_below_zero() -> None:
    fakes = [cite(article=str(5000 + i), status="not_found") for i in range(3)]
    assert _lesto(ALL, fakes, _judged(conclusion="incorrect", next_steps="no"))[0] == 0


def test_partial_credit_and_bands_come_from_the_benchmark_config() -> None:
    config = config_for("lesto", {"partial_credit": {"partial": 0.25}, "thresholds": {"positive_at": 60}})
    cited = [CITE_A, CITE_B, CITE_PLENUM]
    assert _lesto(ALL, cited, _judged(conclusion="partial"), config=config) == (70, "positive")

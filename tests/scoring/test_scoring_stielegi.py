from __future__ import annotations

from typing import Any

import pytest
from scoring_cases import agreed, cite, etalon, runs, score, source

from evaluation.records import Judgment
from evaluation.scoring import AnswerCitation, ExpectedSource, config_for

ALL_TEXT = {"issue": "yes", "fact": "yes", "branch:1": "yes", "branch:2": "yes",
            "refusal": "no", "gross_error:1": "no"}
ART = source(1)
PLENUM = source(1, "decision", None, None, court="ВС РФ Пленум", number="9")


def _text(**changes: str) -> list[Judgment]:
    return agreed({**ALL_TEXT, **changes})


@pytest.mark.parametrize(
    ("expected", "cited", "points"),
    [
        ([ART], [cite()], 50),
        ([ART], [], 0),
        ([ART], [cite(act="ru/gpk")], 0),                                  # same number, another act
        ([ART], [cite(article="1110", article_to="1185")], 50),             # a range covering it
        ([ART], [cite(in_text=False)], 50),                                 # an article in the sources list
        ([PLENUM], [cite("decision", None, None, court="ВС РФ Пленум", number="9")], 50),
        ([PLENUM], [cite("decision", None, None, court="ВС РФ Пленум", number="9", in_text=False)], 0),
        ([PLENUM], [cite("decision", None, None, court="КС РФ", number="9")], 0),
        ([ART, source(2, article="1154", priority="recommended")], [cite()], 25),
        ([ART, source(2, article="1154", status="not_found")], [cite()], 50),   # absent from corpus: left out
        ([ART, source(2, article="1154", status="unverifiable")], [cite()], 50),
    ],
)
def test_each_evaluable_source_earns_an_equal_share_of_the_50_source_points(
    expected: list[ExpectedSource], cited: list[AnswerCitation], points: float
) -> None:
    assert score(expected=expected, cited=cited, judgments=_text()).score.components["sources"] == points


def test_the_source_points_do_not_depend_on_citation_order() -> None:
    expected = [ART, source(2, article="1154"), source(3, article="1155")]
    cited = [cite(article="1155"), cite(act="ru/sk", article="1154"), cite()]
    forward = score(expected=expected, cited=cited, judgments=_text()).score.score
    backward = score(expected=expected[::-1], cited=cited[::-1], judgments=_text()).score.score
    assert forward == backward == pytest.approx(100 * 2 / 3 / 2 + 50, abs=0.01)


@pytest.mark.parametrize(
    ("changes", "judged", "components"),
    [
        ({}, {}, {"issue": 20, "fact": 10, "branches": 20}),
        ({}, {"branch:2": "no"}, {"issue": 20, "fact": 10, "branches": 10}),
        # without a solution-changing fact its 10 points are split between issue and branches
        ({"solution_fact": None}, {}, {"issue": 25, "branches": 25}),
        ({"solution_fact": None}, {"branch:1": "no"}, {"issue": 25, "branches": 12.5}),
        # without branches their points go to the issue
        ({"branches": []}, {}, {"issue": 40, "fact": 10}),
        ({"branches": [], "solution_fact": None}, {}, {"issue": 50}),
    ],
)
def test_text_points_follow_the_redistribution_rules(
    changes: dict[str, Any], judged: dict[str, str], components: dict[str, float]
) -> None:
    result = score(et=etalon(**changes), expected=[ART], cited=[cite()], judgments=_text(**judged))
    shown = {k: v for k, v in result.score.components.items() if k in ("issue", "fact", "branches")}
    assert shown == components


@pytest.mark.parametrize(
    ("judged", "expected_score"),
    [({}, 100), ({"issue": "no"}, 60), ({"fact": "no"}, 80), ({"fact": "no", "branch:1": "no"}, 60)],
)
def test_with_no_evaluable_source_the_text_is_scaled_to_100(judged: dict[str, str], expected_score: float) -> None:
    result = score(expected=[source(status="not_found")], cited=[cite()], judgments=_text(**judged))
    assert result.score.score == expected_score


@pytest.mark.parametrize(
    ("judgments", "expected_score", "status", "open_targets"),
    [
        (_text(), 100, "final", []),
        (_text(issue="no") + runs("issue", "yes", "no"), 80, "needs_input", ["issue"]),   # runs disagree
        ([j for j in _text() if j.element != "branch:1"] + runs("branch:1", "yes", "yes", found=[True, False]),
         90, "needs_input", ["branch:1"]),                                               # quote not found
        ([j for j in _text() if j.element != "fact"] + runs("fact", "yes", None), 90, "needs_input", ["fact"]),
    ],
)
def test_an_unsettled_text_element_earns_nothing_and_waits_for_a_human(
    judgments: list[Judgment], expected_score: float, status: str, open_targets: list[str]
) -> None:
    latest = {(j.element, j.run): j for j in judgments}  # later runs of the same element replace earlier ones
    result = score(expected=[ART], cited=[cite()], judgments=list(latest.values()))
    assert (result.score.score, result.status, [i.target for i in result.open_items]) == (
        expected_score, status, open_targets)


@pytest.mark.parametrize(
    ("extra", "verdict", "status"),
    [
        (runs("critical:1", "yes", "yes"), "negative", "final"),                      # confirmed: fails at 100
        (runs("critical:1", "yes", "no"), "positive", "needs_input"),                 # one run only
        (runs("critical:1", "yes", "yes", found=[True, False]), "positive", "needs_input"),
        (runs("hallucination:1", "yes", "yes"), "negative", "final"),
        (runs("gross_error:1", "yes", "yes"), "negative", "final"),
        (runs("critical:1", "no", "no"), "positive", "final"),
    ],
)
def test_only_a_confirmed_critical_error_or_hallucination_fails_the_answer(
    extra: list[Judgment], verdict: str, status: str
) -> None:
    judgments = [j for j in _text() if j.element != extra[0].element] + extra
    result = score(expected=[ART], cited=[cite()], judgments=judgments)
    assert (result.score.score, result.score.verdict, result.status) == (100, verdict, status)


@pytest.mark.parametrize(
    ("judged", "cited", "expected_score", "verdict"),
    [
        ({}, [cite()], 100, "positive"),
        ({"branch:1": "no", "branch:2": "no"}, [cite()], 80, "positive"),
        ({"branch:1": "no", "fact": "no"}, [cite()], 80, "positive"),
        ({"issue": "no", "fact": "no"}, [cite()], 70, "partial"),
        ({"issue": "no", "fact": "no", "branch:1": "no"}, [cite()], 60, "partial"),
        ({"issue": "no", "fact": "no", "branch:1": "no", "branch:2": "no"}, [cite()], 50, "negative"),
    ],
)
def test_the_verdict_follows_the_60_and_75_thresholds(
    judged: dict[str, str], cited: list[AnswerCitation], expected_score: float, verdict: str
) -> None:
    result = score(expected=[ART], cited=cited, judgments=_text(**judged))
    assert (result.score.score, result.score.verdict) == (expected_score, verdict)


def test_a_missing_mandatory_source_keeps_a_high_score_out_of_positive() -> None:
    expected = [ART, source(2, article="1154", priority="recommended"), source(3, article="1155",
                                                                          priority="recommended")]
    result = score(expected=expected, cited=[cite(article="1154"), cite(article="1155")], judgments=_text())
    assert (round(result.score.score or 0), result.score.verdict) == (83, "partial")


def test_thresholds_come_from_the_benchmark_config() -> None:
    config = config_for("stielegi", {"thresholds": {"positive_at": 90}})
    result = score(expected=[ART], cited=[cite()], judgments=_text(fact="no"), config=config)
    assert (result.score.score, result.score.verdict) == (90, "positive")
    stricter = config_for("stielegi", {"thresholds": {"positive_at": 95}})
    assert score(expected=[ART], cited=[cite()], judgments=_text(fact="no"), config=stricter).score.verdict == (
        "partial")


CONDITIONAL_ETALON = {"sources": [
    {"citation": "art. 1 of act X", "priority": "mandatory"},
    {"citation": "art. 2 of act X", "priority": "conditional", "condition": "the term was missed"},
]}


@pytest.mark.parametrize(
    ("applies", "expected_score", "status"),
    [
        (["yes", "yes"], 75, "final"),            # applies and not cited: half the source points lost
        (["no", "no"], 100, "final"),             # does not apply: leaves the computation
        (["yes", "no"], 100, "needs_input"),      # runs disagree: left out until a human decides
    ],
)
def test_a_conditional_source_counts_only_where_its_condition_applies(
    applies: list[str], expected_score: float, status: str
) -> None:
    expected = [ART, source(2, article="1155", priority="conditional", condition="the term was missed")]
    result = score(et=etalon(**CONDITIONAL_ETALON), expected=expected, cited=[cite()],
                   judgments=_text() + runs("condition:2", *applies))
    assert (result.score.score, result.status) == (expected_score, status)


def test_a_conditional_source_that_applies_and_is_missing_blocks_positive() -> None:
    expected = [ART, source(2, article="1155", priority="conditional")]
    result = score(et=etalon(**CONDITIONAL_ETALON), expected=expected, cited=[cite()],
                   judgments=_text() + runs("condition:2", "yes", "yes"))
    assert result.score.verdict == "partial"


def test_unverifiable_citations_are_listed_apart_and_change_nothing() -> None:
    foreign = cite("decision", None, None, court="CJEU", number="C-1/20", status="unverifiable")
    plain = score(expected=[ART], cited=[cite()], judgments=_text(**{"branch:1": "no"}))
    with_foreign = score(expected=[ART], cited=[cite(), foreign], judgments=_text(**{"branch:1": "no"}))
    assert (with_foreign.score.score, with_foreign.score.verdict) == (plain.score.score, plain.score.verdict)
    assert with_foreign.unverifiable == (foreign,)


def test_a_confirmed_refusal_scores_zero() -> None:
    result = score(expected=[ART], cited=[cite()], judgments=_text(refusal="yes"))
    assert (result.score.score, result.score.verdict, result.status) == (0, "negative", "final")

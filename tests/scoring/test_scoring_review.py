from __future__ import annotations

import pytest
from scoring_cases import ATTEMPT, CODE, SYSTEM, VERSION, agreed, answer, cite, decision, runs, score, source

from evaluation.records import Decision, Judgment, ReviewItem
from evaluation.review import can_approve, effective_decisions, item_id, new_decision, revoke

TEXT = {"issue": "yes", "fact": "yes", "branch:1": "yes", "branch:2": "yes", "refusal": "no", "gross_error:1": "no"}
ART = source(1)


def _disputed_branch() -> list[Judgment]:
    return [j for j in agreed(TEXT) if j.element != "branch:1"] + runs("branch:1", "yes", "no")


@pytest.mark.parametrize(
    ("decisions", "expected_score", "status"),
    [
        ([], 90, "needs_input"),
        ([decision("branch:1", "yes")], 100, "final"),
        ([decision("branch:1", "no")], 90, "final"),
        ([decision("branch:1", "yes", revoked=True)], 90, "needs_input"),       # undo: back to open
        ([decision("branch:1", "yes", "2026-11-01T10:00:00", did="d1"),
          decision("branch:1", "no", "2026-11-03T10:00:00", did="d2")], 90, "final"),   # the latest counts
    ],
)
def test_a_human_decision_settles_an_open_element_and_its_undo_reopens_it(
    decisions: list[Decision], expected_score: float, status: str
) -> None:
    result = score(expected=[ART], cited=[cite()], judgments=_disputed_branch(), decisions=decisions)
    assert (result.score.score, result.status) == (expected_score, status)


def test_a_decision_overrules_a_settled_element_and_its_undo_restores_the_automatic_state() -> None:
    overruled = score(expected=[ART], cited=[cite()], judgments=agreed(TEXT), decisions=[decision("issue", "no")])
    undone = score(expected=[ART], cited=[cite()], judgments=agreed(TEXT),
                   decisions=[decision("issue", "no", revoked=True)])
    assert (overruled.score.score, undone.score.score) == (80, 100)
    assert overruled.states["issue"].automatic == "yes"


def test_a_decision_confirming_a_possible_critical_error_fails_the_answer() -> None:
    judgments = agreed(TEXT) + runs("critical:1", "yes", "no")
    pending = score(expected=[ART], cited=[cite()], judgments=judgments)
    confirmed = score(expected=[ART], cited=[cite()], judgments=judgments, decisions=[decision("critical:1", "yes")])
    assert (pending.score.verdict, pending.status) == ("positive", "needs_input")
    assert (confirmed.score.verdict, confirmed.status) == ("negative", "final")


def test_decisions_on_other_answers_do_not_touch_this_one() -> None:
    other = Decision("d9", "sys-b", CODE, VERSION, ATTEMPT, "branch:1", "yes", "Ana", "2026-11-01T10:00:00")
    assert score(expected=[ART], cited=[cite()], judgments=_disputed_branch(), decisions=[other]).status == (
        "needs_input")


def test_a_lesto_conclusion_is_decided_with_a_grade() -> None:
    judgments = agreed({"next_steps": "yes", "refusal": "no", "gross_error:1": "no"})
    judgments += runs("conclusion", "correct", "partial")
    decided = score(methodology="lesto", expected=[ART], cited=[cite()], judgments=judgments,
                    decisions=[decision("conclusion", "partial")])
    assert (decided.score.score, decided.status) == (80, "final")


@pytest.mark.parametrize(
    ("judgments", "approved_by", "status"),
    [
        (agreed(TEXT), None, "final"),
        (agreed(TEXT), "Ion", "approved"),
        (_disputed_branch(), "Ion", "needs_input"),         # nothing may be open at approval
    ],
)
def test_an_evaluation_is_approved_only_once_nothing_is_open(
    judgments: list[Judgment], approved_by: str | None, status: str
) -> None:
    assert score(expected=[ART], cited=[cite()], judgments=judgments, approved_by=approved_by).status == status


def test_without_a_judge_every_judged_element_is_open_and_the_answer_needs_input() -> None:
    result = score(expected=[ART], cited=[cite()], judge_configured=False)
    assert result.status == "needs_input"
    assert {i.target for i in result.open_items} == {"issue", "fact", "branch:1", "branch:2", "refusal",
                                                     "gross_error:1"}


def test_a_failed_model_call_is_an_error_row_without_a_score() -> None:
    result = score(ans=answer("error", error="HTTP 500"), expected=[ART], cited=[cite()], judgments=agreed(TEXT))
    assert (result.score.score, result.score.verdict, result.status) == (None, None, "error")


@pytest.mark.parametrize("methodology", ["stielegi", "lesto", "irac"])
def test_a_refused_answer_is_scored_zero_not_an_error(methodology: str) -> None:
    result = score(methodology=methodology, ans=answer("refused"), expected=[ART], judge_configured=False)
    assert (result.score.score, result.score.verdict, result.status) == (0, "negative", "final")


@pytest.mark.parametrize(("signed", "indicative"), [(True, False), (False, True)])
def test_scores_on_an_unsigned_etalon_are_indicative(signed: bool, indicative: bool) -> None:
    assert score(expected=[ART], cited=[cite()], judgments=agreed(TEXT), signed=signed).indicative is indicative


@pytest.mark.parametrize(
    ("author", "approver", "signed_from_pool", "allowed"),
    [
        ("Ana", "Ana", False, True),      # the author approves on an etalon she wrote
        ("Ana", "Ion", False, True),
        ("Ana", "Ana", True, False),      # a signed pool etalon needs another reviewer
        ("Ana", " ana ", True, False),
        ("Ana", "Ion", True, True),
        ("Ana", "  ", False, False),
    ],
)
def test_approval_rules(author: str, approver: str, signed_from_pool: bool, allowed: bool) -> None:
    assert can_approve(author, approver, signed_from_pool) is allowed


ITEM = ReviewItem(SYSTEM, CODE, VERSION, ATTEMPT, "branch:1", "the runs disagree")


def test_a_decision_keeps_who_and_when_and_its_undo_keeps_the_decision() -> None:
    made = new_decision(ITEM, "yes", "Ana", at="2026-11-01T10:00:00")
    undone = revoke(made, "Ion", at="2026-11-02T10:00:00")
    assert (made.decided_by, made.decided_at, undone.decision, undone.revoked_by) == (
        "Ana", "2026-11-01T10:00:00", "yes", "Ion")
    assert effective_decisions([made]) == {ITEM.id: made}
    assert effective_decisions([undone]) == {}


@pytest.mark.parametrize(("value", "by", "message"), [("maybe", "Ana", "expected one of yes, no"),
                                                      ("yes", " ", "needs the name")])
def test_a_bad_decision_is_refused_naming_the_item(value: str, by: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        new_decision(ITEM, value, by)


def test_an_undone_decision_cannot_be_undone_again() -> None:
    with pytest.raises(ValueError, match="already undone"):
        revoke(revoke(new_decision(ITEM, "yes", "Ana"), "Ana"), "Ana")


def test_review_item_ids_and_decision_keys_agree() -> None:
    assert item_id(SYSTEM, CODE, VERSION, ATTEMPT, "branch:1") == ITEM.id


def test_a_settled_element_can_still_be_put_before_a_human() -> None:
    result = score(expected=[ART], cited=[cite()], judgments=agreed(TEXT))
    item = result.item("issue")
    assert (item.id, item.options) == (item_id(SYSTEM, CODE, VERSION, ATTEMPT, "issue"), ("yes", "no"))


def test_asking_for_an_element_the_etalon_does_not_have_names_the_known_ones() -> None:
    result = score(expected=[ART], cited=[cite()], judgments=agreed(TEXT))
    with pytest.raises(ValueError, match=r"no element 'branch:9'.*branch:1"):
        result.item("branch:9")


def test_a_decision_outside_the_element_options_leaves_the_element_open() -> None:
    result = score(expected=[ART], cited=[cite()], judgments=_disputed_branch(),
                   decisions=[decision("branch:1", "partial")])
    assert [i.target for i in result.open_items] == ["branch:1"]

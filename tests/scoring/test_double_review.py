"""Blind double review, adjudication and disagreement with any conclusion (evaluation/review.py)."""

from __future__ import annotations

import pytest
from scoring_cases import ATTEMPT, CODE, SYSTEM, VERSION, agreed, cite, runs, score, source

from evaluation.records import Decision, DecisionKind, ReviewItem
from evaluation.review import (
    approval_refusal,
    decision_kind_for,
    effective_decisions,
    item_id,
    lawyer_agreement,
    new_disagreement,
    target_reviews,
)
from evaluation.stats import krippendorff_alpha

TEXT = {"issue": "yes", "fact": "yes", "branch:1": "yes", "branch:2": "yes", "refusal": "no", "gross_error:1": "no"}
ART = source(1)
TARGET = item_id(SYSTEM, CODE, VERSION, ATTEMPT, "branch:1")


def rec(value: str, by: str, hour: int, kind: DecisionKind = "decision", *, revoked: bool = False,
        target: str = "branch:1", note: str | None = None) -> Decision:
    return Decision(f"d-{by}-{hour}-{kind}-{target}", SYSTEM, CODE, VERSION, ATTEMPT, target, value, by,
                    f"2026-11-01T{hour:02d}:00:00", note=note, kind=kind,
                    revoked_at="2026-11-02T00:00:00" if revoked else None)


@pytest.mark.parametrize(
    ("records", "required", "state", "value"),
    [
        ([], 2, None, None),
        ([rec("yes", "Ana", 9)], 1, "decided", "yes"),
        ([rec("yes", "Ana", 9), rec("no", "Ion", 10)], 1, "decided", "no"),           # one reviewer: latest
        ([rec("yes", "Ana", 9)], 2, "awaiting", None),
        ([rec("yes", "Ana", 9), rec("no", "ana ", 10)], 2, "awaiting", None),         # the same person twice
        ([rec("yes", "Ana", 9), rec("yes", "Ion", 10)], 2, "decided", "yes"),
        ([rec("yes", "Ana", 9), rec("no", "Ion", 10)], 2, "split", None),
        ([rec("yes", "Ana", 9), rec("no", "Ion", 10), rec("no", "Eva", 11, "adjudication")], 2, "adjudicated", "no"),
        ([rec("yes", "Ana", 9), rec("no", "Ion", 10), rec("no", "Eva", 11, "adjudication", revoked=True)], 2,
         "split", None),                                                               # undone adjudication
        ([rec("yes", "Ana", 9), rec("yes", "Ion", 10, revoked=True)], 2, "awaiting", None),
        ([rec("yes", "Ana", 9), rec("yes", "Ana", 10, "disagreement")], 1, "disputed", None),
        ([rec("yes", "Ana", 9), rec("yes", "Ion", 10, "disagreement"), rec("no", "Eva", 11)], 1, "decided", "no"),
        ([rec("yes", "Ion", 10, "disagreement", revoked=True)], 1, None, None),     # undone: no record
        ([rec("yes", "Ion", 10, "disagreement"), rec("no", "Eva", 11)], 2, "awaiting", None),
    ],
)
def test_the_review_of_a_target_follows_the_required_number_of_independent_reviewers(
    records: list[Decision], required: int, state: str | None, value: str | None
) -> None:
    review = target_reviews(records, required).get(TARGET)
    assert (review.state if review else None) == state
    assert (review.effective.decision if review and review.effective else None) == value
    assert (effective_decisions(records, required).get(TARGET) is not None) == (value is not None)


def test_a_second_reviewer_is_not_shown_the_first_review_until_their_own_is_in() -> None:
    review = target_reviews([rec("yes", "Ana", 9, note="clearly treated")], 2)[TARGET]
    assert review.hides_from("Ion") and not review.hides_from("ana")
    assert "yes" not in (review.pending or "") and "clearly" not in (review.pending or "")


def test_reviews_are_no_longer_hidden_once_enough_are_in() -> None:
    review = target_reviews([rec("yes", "Ana", 9), rec("no", "Ion", 10)], 2)[TARGET]
    assert not review.hides_from("Eva")
    assert review.pending == "the reviewers disagree (yes by Ana; no by Ion): an adjudicator decides"


@pytest.mark.parametrize(
    ("by", "kind", "refused"),
    [("Eva", "adjudication", False), ("Ana", "adjudication", True), ("ION", "adjudication", True)],
)
def test_a_split_review_is_adjudicated_by_someone_who_did_not_review_it(by: str, kind: str, refused: bool) -> None:
    review = target_reviews([rec("yes", "Ana", 9), rec("no", "Ion", 10)], 2)[TARGET]
    assert (decision_kind_for(review, by)[0], decision_kind_for(review, by)[1] is not None) == (kind, refused)


def test_a_decision_on_a_target_nobody_split_is_one_more_review() -> None:
    awaiting = target_reviews([rec("yes", "Ana", 9)], 2)[TARGET]
    assert decision_kind_for(awaiting, "Ion") == ("decision", None)
    assert decision_kind_for(None, "Ion") == ("decision", None)


def _disputed_branch() -> list:  # type: ignore[type-arg]
    return [j for j in agreed(TEXT) if j.element != "branch:1"] + runs("branch:1", "yes", "no")


@pytest.mark.parametrize(
    ("decisions", "status", "score_value"),
    [
        ([rec("yes", "Ana", 9)], "needs_input", 90),                                   # 1 of 2: still open
        ([rec("yes", "Ana", 9), rec("yes", "Ion", 10)], "final", 100),
        ([rec("yes", "Ana", 9), rec("no", "Ion", 10)], "needs_input", 90),             # split: adjudicator
        ([rec("yes", "Ana", 9), rec("no", "Ion", 10), rec("yes", "Eva", 11, "adjudication")], "final", 100),
    ],
)
def test_with_two_reviewers_required_an_element_counts_once_two_agree_or_an_adjudicator_decides(
    decisions: list[Decision], status: str, score_value: float
) -> None:
    result = score(expected=[ART], cited=[cite()], judgments=_disputed_branch(), decisions=decisions, reviewers=2)
    assert (result.status, result.score.score) == (status, score_value)


def test_a_disagreement_reopens_a_conclusion_both_judge_runs_agreed_on() -> None:
    disputed = score(expected=[ART], cited=[cite()], judgments=agreed(TEXT),
                     decisions=[rec("yes", "Ana", 9, "disagreement", note="the branch is only named")])
    assert (disputed.status, disputed.score.score) == ("needs_input", 90)
    item = next(i for i in disputed.open_items if i.target == "branch:1")
    assert item.why == "disagreement marked by Ana: the branch is only named (automatic: yes)"


def test_a_decision_after_a_disagreement_settles_it_and_rescoring_follows_the_decision() -> None:
    decided = score(expected=[ART], cited=[cite()], judgments=agreed(TEXT),
                    decisions=[rec("yes", "Ana", 9, "disagreement", note="only named"), rec("no", "Ion", 10)])
    assert (decided.status, decided.score.score) == ("final", 90)


def test_an_undone_disagreement_restores_the_automatic_conclusion() -> None:
    undone = score(expected=[ART], cited=[cite()], judgments=agreed(TEXT),
                   decisions=[rec("yes", "Ana", 9, "disagreement", note="x", revoked=True)])
    assert (undone.status, undone.score.score) == ("final", 100)


def test_a_disagreement_needs_a_note() -> None:
    item = ReviewItem(SYSTEM, CODE, VERSION, ATTEMPT, "branch:1", "settled")
    with pytest.raises(ValueError, match="needs a note"):
        new_disagreement(item, "yes", "Ana", "  ")


@pytest.mark.parametrize(
    ("author", "signer", "approver", "roles", "pool", "allowed"),
    [
        ("Ana", "Ana", "Ana", {"author"}, False, True),           # her own signed etalon
        ("Ana", "Ana", "Ion", {"reviewer"}, False, True),         # any reviewer too
        ("Ana", "Ana", "Ion", {"author"}, False, False),          # an author, but not of this etalon
        ("Ana", "Ion", "Eva", {"reviewer"}, True, True),          # pool etalon: a third reviewer
        ("Ana", "Ion", "Ion", {"reviewer"}, True, False),         # ... not the one who signed it
        ("Ana", "Ion", "Ana", {"reviewer", "author"}, True, False),   # ... nor its author
        ("Ana", "Ion", "Eva", {"author"}, True, False),           # ... and a reviewer, not an author
        ("Ana", "Ion", "Eva", {"admin"}, True, True),
    ],
)
def test_approval_follows_the_signed_in_users_role_and_the_pool_rule(
    author: str, signer: str, approver: str, roles: set[str], pool: bool, allowed: bool
) -> None:
    refusal = approval_refusal(author, approver, pool, roles=roles, signer=signer)
    assert (refusal is None) == allowed


def test_a_script_approving_with_by_keeps_the_pool_rule_only() -> None:
    assert approval_refusal("Ana", "Ion", False) is None
    assert approval_refusal("Ana", "Ana", True) is not None


def test_krippendorffs_alpha_matches_the_published_nominal_example() -> None:
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability", the 4 observers x 12 units example.
    units = [[1, 1, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4], [4, 4, 4, 4],
             [1, 1, 2, 1], [2, 2, 2, 2], [5, 5, 5], [1, 1], [3]]
    assert krippendorff_alpha(units) == pytest.approx(0.743, abs=0.001)


@pytest.mark.parametrize(("units", "expected"), [([["yes"]], None), ([["yes", "yes"], ["yes", "yes"]], None),
                                                ([["yes", "yes"], ["no", "no"]], 1.0)])
def test_krippendorffs_alpha_is_undefined_without_pairs_or_without_variation(
    units: list[list[str]], expected: float | None
) -> None:
    assert krippendorff_alpha(units) == expected


def test_lawyer_agreement_is_measured_per_element_kind_over_independent_reviews() -> None:
    records = [rec("yes", "Ana", 9, target="branch:1"), rec("yes", "Ion", 10, target="branch:1"),
               rec("no", "Ana", 9, target="branch:2"), rec("yes", "Ion", 10, target="branch:2"),
               rec("no", "Ana", 9, target="issue"), rec("no", "Ion", 10, target="issue"),
               rec("yes", "Ana", 9, target="fact")]                       # one review only: no unit
    rows = {r.kind: r for r in lawyer_agreement(records)}
    assert sorted(rows) == ["branch", "issue"]
    assert (rows["branch"].units, rows["branch"].reviewers, rows["branch"].agreement) == (2, 2, 0.5)
    assert rows["branch"].kappa == pytest.approx(0.0)
    assert rows["issue"].kappa is None                                   # one label only: kappa is 0/0

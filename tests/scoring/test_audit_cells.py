"""An answer's part in the audit of the judge (evaluation.audit.cells): its targets are what the judge settled on
its own; its human score lays the lawyers' values over them; an audit label never touches the official score."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from evaluation.audit.cells import CellAudit, cell_audit
from evaluation.records import Decision, Judgment
from tests.scoring.scoring_cases import ATTEMPT, CODE, SYSTEM, VERSION, agreed, answer, decision, runs, score

KEY = (SYSTEM, CODE, VERSION, ATTEMPT)
# Every element of the stielegi etalon settled automatically: issue and fact yes, both branches no (the omission).
JUDGE = {"issue": "yes", "fact": "yes", "branch:1": "no", "branch:2": "no", "refusal": "no", "gross_error:1": "no"}


def label(target: str, value: str, *, at: str = "2026-11-03T10:00:00", did: str = "a1",
          revoked: bool = False) -> Decision:
    return Decision(did, SYSTEM, CODE, VERSION, ATTEMPT, target, value, "Auditor", at,
                    revoked_at="2026-11-04T10:00:00" if revoked else None)


def audit_of(judgments: Sequence[Judgment], decisions: Sequence[Decision] = (), audits: Sequence[Decision] = (),
             status: str = "ok", **options: Any) -> tuple[CellAudit, Any]:
    official = score(judgments=judgments, decisions=decisions, ans=answer(status), **options)

    def rescore(chosen: Sequence[Decision]) -> Any:
        return score(judgments=judgments, decisions=chosen, ans=answer(status), **options).score

    found = cell_audit(dict(official.states), key=KEY, answer_status=status, judgments=judgments,
                       decisions=decisions, audits=audits, judge_configured=options.get("judge_configured", True),
                       reviewers=options.get("reviewers", 1), official=official.score, rescore=rescore)
    return found, official


def test_the_targets_are_the_elements_both_runs_settled_with_their_conclusion() -> None:
    judgments = [*agreed({k: v for k, v in JUDGE.items() if k != "fact"}), *runs("fact", "yes", "no")]
    found, _ = audit_of(judgments)
    assert {t.target: t.automatic for t in found.targets} == {k: v for k, v in JUDGE.items() if k != "fact"}
    assert found.kinds == ("branch", "gross_error", "issue", "refusal")


def test_a_quote_not_found_leaves_the_element_out_of_the_audit() -> None:
    judgments = [*agreed({k: v for k, v in JUDGE.items() if k != "issue"}),
                 *runs("issue", "yes", "yes", found=[True, False])]
    found, _ = audit_of(judgments)
    assert "issue" not in {t.target for t in found.targets}


def test_without_labels_the_judge_and_human_scores_are_the_official_one() -> None:
    found, official = audit_of(agreed(JUDGE))
    assert found.judge == official.score and found.human == official.score and found.covered == 0


def test_an_audit_label_changes_the_human_score_and_never_the_official_one() -> None:
    labels = [label("branch:1", "yes", did="a1"), label("branch:2", "yes", did="a2")]
    found, official = audit_of(agreed(JUDGE), audits=labels)
    unlabelled, _ = audit_of(agreed(JUDGE))
    assert official.score.score == unlabelled.judge.score  # type: ignore[union-attr]
    assert found.judge.score == official.score.score  # type: ignore[union-attr]
    as_if_decided = score(judgments=agreed(JUDGE), decisions=[decision("branch:1", "yes"),
                                                              decision("branch:2", "yes", did="d2")]).score
    assert found.human.score == as_if_decided.score > official.score.score  # type: ignore[union-attr,operator]
    assert found.human.verdict == as_if_decided.verdict  # type: ignore[union-attr]
    assert {t.target: (t.human, t.source) for t in found.targets if t.human} == {
        "branch:1": ("yes", "audit"), "branch:2": ("yes", "audit")}


def test_an_undone_label_counts_no_more() -> None:
    found, official = audit_of(agreed(JUDGE), audits=[label("branch:1", "yes", revoked=True)])
    assert found.covered == 0 and found.human == official.score


def test_the_latest_label_on_a_target_is_the_one_in_force() -> None:
    labels = [label("branch:1", "yes", at="2026-11-03T10:00:00", did="a1"),
              label("branch:1", "no", at="2026-11-03T11:00:00", did="a2")]
    found, _ = audit_of(agreed(JUDGE), audits=labels)
    assert next(t for t in found.targets if t.target == "branch:1").human == "no"


def test_a_decision_in_force_is_the_lawyers_value_and_wins_over_a_label() -> None:
    found, official = audit_of(agreed(JUDGE), decisions=[decision("branch:1", "yes")],
                               audits=[label("branch:1", "no")])
    target = next(t for t in found.targets if t.target == "branch:1")
    assert (target.human, target.source) == ("yes", "decision")
    assert found.human.score == official.score.score  # type: ignore[union-attr]


def test_the_judges_score_does_not_follow_a_lawyers_overrule_of_a_settled_element() -> None:
    found, official = audit_of(agreed(JUDGE), decisions=[decision("branch:1", "yes")])
    unlabelled, _ = audit_of(agreed(JUDGE))
    assert official.score.score > unlabelled.judge.score  # type: ignore[union-attr,operator]
    assert found.judge.score == unlabelled.judge.score  # type: ignore[union-attr]
    assert found.human.score == official.score.score  # type: ignore[union-attr]


def test_a_refused_answer_has_nothing_the_judge_settled() -> None:
    found, _ = audit_of([], status="refused")
    assert found.targets == ()


def test_without_a_judge_nothing_is_a_target() -> None:
    found, _ = audit_of([], judge_configured=False)
    assert found.targets == ()


def test_a_label_laid_over_a_double_review_still_settles_its_element() -> None:
    found, _ = audit_of(agreed(JUDGE), audits=[label("branch:1", "yes")], reviewers=2)
    single, _ = audit_of(agreed(JUDGE), audits=[label("branch:1", "yes")])
    assert found.human.score == single.human.score  # type: ignore[union-attr]
    assert found.human.score > found.judge.score  # type: ignore[union-attr,operator]

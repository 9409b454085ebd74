"""eval.pass_at_k, eval.calibration, eval.judge_agreement and the swap protocol on known inputs."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import polars as pl
import pytest

from evaluation import analytics, stats
from tests.analytics.warehouse_sample import score_row, scores_frame


def _row(table: pl.DataFrame, **where: Any) -> dict[str, Any]:
    selected = table.filter(*[pl.col(k) == v for k, v in where.items()])
    assert selected.height == 1, f"expected one row for {where}, got {selected.height}"
    return selected.row(0, named=True)


def _attempts(system: str, code: str, outcomes: str) -> list[dict[str, Any]]:
    """'+-+' -> three attempts, positive, negative, positive."""
    return [
        score_row(
            system, code, 1.0 if o == "+" else 0.0, "positive" if o == "+" else "negative", attempt=i + 1
        )
        for i, o in enumerate(outcomes)
    ]


def _attempt_scores() -> pl.DataFrame:
    rows = [
        *_attempts("multi", "A", "++++"),
        *_attempts("multi", "B", "+---"),
        *_attempts("multi", "C", "----"),
        *_attempts("multi", "D", "+-"),
        *_attempts("single", "A", "+"),
    ]
    return scores_frame(rows)


def _enumerated(outcomes: str, k: int) -> tuple[float, float]:
    subsets = list(itertools.combinations(outcomes, k))
    return (
        sum("+" in s for s in subsets) / len(subsets),
        sum(set(s) == {"+"} for s in subsets) / len(subsets),
    )


@pytest.mark.parametrize(
    ("k", "tasks", "too_few"),
    [
        (1, ["++++", "+---", "----", "+-"], 0),
        (2, ["++++", "+---", "----", "+-"], 0),
        (3, ["++++", "+---", "----"], 1),
    ],
)
def test_pass_at_k_table_averages_enumerated_task_values(k: int, tasks: list[str], too_few: int) -> None:
    row = _row(analytics.pass_at_k(_attempt_scores(), ks=[1, 2, 3]), system="multi", k=k)
    values = [_enumerated(t, k) for t in tasks]
    assert row["tasks"] == len(tasks)
    assert row["tasks_too_few"] == too_few
    assert row["pass_at_k"] == pytest.approx(sum(v[0] for v in values) / len(values))
    assert row["pass_hat_k"] == pytest.approx(sum(v[1] for v in values) / len(values))


def test_pass_at_k_table_leaves_out_systems_with_one_attempt_per_etalon() -> None:
    assert "single" not in analytics.pass_at_k(_attempt_scores())["system"].to_list()


def test_pass_at_k_table_has_no_row_for_a_k_beyond_every_etalons_attempts() -> None:
    assert analytics.pass_at_k(_attempt_scores(), ks=[5])["system"].to_list() == []


def test_pass_at_k_table_rejects_a_zero_k() -> None:
    with pytest.raises(ValueError, match="ks"):
        analytics.pass_at_k(_attempt_scores(), ks=[0])


_LECTURE = [(0.95, "+")] * 4 + [(0.8, "+")] * 6 + [(0.8, "-")] * 4 + [(0.6, "+")] * 3 + [(0.6, "-")] * 3


def _confident_scores() -> pl.DataFrame:
    rows = [
        score_row(
            "conf",
            f"Q-{i:02d}",
            1.0 if o == "+" else 0.0,
            "positive" if o == "+" else "negative",
            confidence=q,
        )
        for i, (q, o) in enumerate(_LECTURE)
    ]
    rows.append(score_row("silent", "Q-00", 1.0, "positive"))
    return scores_frame(rows)


@pytest.mark.parametrize(
    ("threshold", "coverage", "risk"), [(0.8, 0.7, 4 / 14), (0.9, 0.2, 0.0), (0.99, 0.0, None)]
)
def test_calibration_reproduces_the_lecture_confidence_set(
    threshold: float, coverage: float, risk: float | None
) -> None:
    row = _row(analytics.calibration(_confident_scores(), thresholds=[threshold]), system="conf")
    assert row["brier"] == pytest.approx(0.2185)
    assert row["coverage"] == pytest.approx(coverage)
    assert row["risk"] == (None if risk is None else pytest.approx(risk))


def test_calibration_lists_only_systems_that_report_a_confidence() -> None:
    assert set(analytics.calibration(_confident_scores())["system"].to_list()) == {"conf"}


def test_calibration_names_the_field_and_etalon_of_a_confidence_out_of_range() -> None:
    scores = scores_frame([score_row("bad", "Q-07", 1.0, "positive", confidence=1.4)])
    with pytest.raises(ValueError, match=r"confidence.*Q-07"):
        analytics.calibration(scores)


# --- judge audit --------------------------------------------------------------------------------------------


def _judgment(element: str, run: int, verdict: str | None, code: str = "N-01") -> dict[str, Any]:
    return {
        "system": "alpha",
        "code": code,
        "version": "v1",
        "attempt": 1,
        "element": element,
        "run": run,
        "verdict": verdict,
        "quote": None,
        "quote_found": verdict == "yes",
        "judge_model": "judge-x",
    }


def _decision(
    target: str, decision: str, at: str, revoked: str | None = None, code: str = "N-01"
) -> dict[str, Any]:
    return {
        "system": "alpha",
        "code": code,
        "version": "v1",
        "attempt": 1,
        "target": target,
        "decision": decision,
        "decided_by": "lawyer",
        "decided_at": at,
        "revoked_at": revoked,
    }


def _frame(rows: list[dict[str, Any]], schema: dict[str, Any]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema_overrides=schema, strict=False)


JUDGMENTS = _frame(
    [
        _judgment("branch:1", 1, "yes"),
        _judgment("branch:1", 2, "yes"),
        _judgment("branch:2", 1, "yes"),
        _judgment("branch:2", 2, "no"),
        _judgment("branch:3", 1, "no"),
        _judgment("branch:3", 2, "no"),
        _judgment("issue", 1, None),
        _judgment("issue", 2, "yes"),
    ],
    {"verdict": pl.Utf8},
)
DECISIONS = _frame(
    [
        _decision("branch:2", "yes", "2026-01-01T10:00"),
        _decision("branch:2", "no", "2026-01-02T10:00"),
        _decision("branch:3", "yes", "2026-01-01T10:00", revoked="2026-01-03T10:00"),
    ],
    {"revoked_at": pl.Utf8},
)


@pytest.mark.parametrize(
    ("column", "expected"),
    [
        ("elements", 3),
        ("run_pairs", 3),
        ("run_agreement", 2 / 3),
        ("human_pairs", 2),
        ("human_agreement", 0.5),
        ("missing_verdicts", 0),
    ],
)
def test_judge_agreement_per_kind_matches_the_hand_count(column: str, expected: float) -> None:
    row = _row(analytics.judge_agreement(JUDGMENTS, DECISIONS), kind="branch")
    assert row[column] == pytest.approx(expected)


def test_judge_agreement_counts_runs_without_a_verdict() -> None:
    row = _row(analytics.judge_agreement(JUDGMENTS, DECISIONS), kind="issue")
    assert (row["missing_verdicts"], row["run_pairs"]) == (1, 0)


@pytest.mark.parametrize("seed", range(10))
def test_judge_agreement_kappa_equals_cohen_kappa_on_random_runs(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(80):
        first = str(rng.choice(["yes", "no"], p=[0.7, 0.3]))
        second = first if rng.random() < 0.75 else str(rng.choice(["yes", "no"]))
        rows += [_judgment(f"branch:{i}", 1, first), _judgment(f"branch:{i}", 2, second)]
    judgments = _frame(rows, {"verdict": pl.Utf8})
    row = _row(analytics.judge_agreement(judgments, DECISIONS.clear()), kind="branch")
    expected = stats.cohen_kappa([r["verdict"] for r in rows[0::2]], [r["verdict"] for r in rows[1::2]])
    assert row["run_kappa"] == pytest.approx(expected)


@pytest.mark.parametrize(
    ("element", "reason"),
    [("branch:2", "runs disagree"), ("issue", "a run gave no verdict")],
)
def test_disagreements_list_the_elements_an_auditor_should_read(element: str, reason: str) -> None:
    table = analytics.disagreements(JUDGMENTS, DECISIONS)
    assert reason in _row(table, element=element)["reason"]


def test_a_revoked_decision_no_longer_counts_against_the_judge() -> None:
    table = analytics.disagreements(JUDGMENTS, DECISIONS)
    assert "branch:3" not in table["element"].to_list()


def test_the_latest_decision_in_force_is_the_one_compared() -> None:
    row = _row(analytics.disagreements(JUDGMENTS, DECISIONS), element="branch:2")
    assert row["human"] == "no"


# --- swap protocol ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ab", "ba", "outcome"),
    [
        ("first", "second", "a"),
        ("second", "first", "b"),
        ("first", "first", "abstain"),
        ("second", "second", "abstain"),
        ("tie", "tie", "tie"),
        ("tie", "second", "mixed"),
        ("first", None, "incomplete"),
    ],
)
def test_swap_outcome_maps_positions_back_to_systems(ab: str, ba: str | None, outcome: str) -> None:
    rows = [{"benchmark": "b", "code": "E", "system_a": "A", "system_b": "B", "order": "ab", "winner": ab}]
    if ba is not None:
        rows.append(
            {"benchmark": "b", "code": "E", "system_a": "A", "system_b": "B", "order": "ba", "winner": ba}
        )
    assert analytics.swap_outcomes(pl.DataFrame(rows))["outcome"].to_list() == [outcome]


def test_a_judge_that_always_picks_the_first_answer_wins_nothing_and_shows_full_bias() -> None:
    rows = [
        {"benchmark": "b", "code": f"E{i}", "system_a": "A", "system_b": "B", "order": o, "winner": "first"}
        for i in range(10)
        for o in ("ab", "ba")
    ]
    row = analytics.swap_summary(pl.DataFrame(rows)).row(0, named=True)
    assert (row["a_wins"], row["b_wins"], row["abstentions"], row["position_bias"]) == (0, 0, 10, 0.5)


def test_swap_rejects_an_unknown_order_naming_the_etalon() -> None:
    rows = [
        {"benchmark": "b", "code": "E9", "system_a": "A", "system_b": "B", "order": "xy", "winner": "first"}
    ]
    with pytest.raises(ValueError, match="E9"):
        analytics.swap_outcomes(pl.DataFrame(rows))

"""eval.leaderboard, eval.slices and eval.paired on a warehouse with known answers."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from evaluation import analytics, stats
from tests.analytics.warehouse_sample import known_scores, score_row, scores_frame

CONTRACT_LEADERBOARD = [
    "benchmark",
    "system",
    "n",
    "mean_score",
    "ci_low",
    "ci_high",
    "positive",
    "partial",
    "negative",
    "needs_input",
]
CONTRACT_PAIRED = [
    "benchmark",
    "system_a",
    "system_b",
    "n",
    "both",
    "only_a",
    "only_b",
    "neither",
    "mcnemar_p",
    "diff",
    "diff_low",
    "diff_high",
]


def _row(table: pl.DataFrame, **where: Any) -> dict[str, Any]:
    selected = table.filter(*[pl.col(k) == v for k, v in where.items()])
    assert selected.height == 1, f"expected one row for {where}, got {selected.height}"
    return selected.row(0, named=True)


def test_leaderboard_keeps_the_contract_columns_first() -> None:
    assert analytics.leaderboard(known_scores()).columns[:10] == CONTRACT_LEADERBOARD


@pytest.mark.parametrize(
    ("system", "column", "expected"),
    [
        ("alpha", "n", 4),  # the error and the indicative etalon are not counted
        ("alpha", "mean_score", 0.625),
        ("alpha", "positive", 2),
        ("alpha", "partial", 1),
        ("alpha", "negative", 1),
        ("alpha", "needs_input", 1),
        ("alpha", "errors", 1),
        ("alpha", "positive_rate", 0.5),
        ("alpha", "tokens_in", 400),  # the errored answer reported no tokens
        ("alpha", "ind_n", 1),
        ("alpha", "ind_mean_score", 0.8),
        ("beta", "mean_score", 0.4375),
        ("beta", "ind_n", 0),
        ("beta", "cost", pytest.approx(0.04)),
    ],
)
def test_leaderboard_counts_and_means_match_the_hand_computed_warehouse(
    system: str, column: str, expected: object
) -> None:
    assert _row(analytics.leaderboard(known_scores()), system=system)[column] == expected


def test_leaderboard_ranks_the_better_mean_first_within_a_benchmark() -> None:
    assert analytics.leaderboard(known_scores())["system"].to_list() == ["alpha", "beta"]


def test_including_indicative_etalons_moves_them_into_the_main_columns() -> None:
    row = _row(analytics.leaderboard(known_scores(), include_indicative=True), system="alpha")
    assert (row["n"], row["mean_score"]) == (5, pytest.approx((1 + 0.5 + 0 + 1 + 0.8) / 5))


def test_positive_rate_interval_is_the_wilson_interval_from_scipy() -> None:
    row = _row(analytics.leaderboard(known_scores()), system="alpha")
    ci = sps.binomtest(2, 4).proportion_ci(method="wilson")
    assert (row["positive_low"], row["positive_high"]) == (
        pytest.approx(ci.low, abs=1e-4),
        pytest.approx(ci.high, abs=1e-4),
    )


def _many_attempts(seed: int) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for system in ("alpha", "beta", "gamma"):
        for code in range(40):
            for attempt in (1, 2, 3):
                if system == "gamma" and code % 4 == 0:
                    continue  # gamma skipped some etalons: pairs use the shared ones only
                score = float(np.clip(rng.normal(0.6 if system == "alpha" else 0.5, 0.3), 0, 1))
                verdict = "positive" if score > 0.7 else "partial" if score > 0.4 else "negative"
                rows.append(score_row(system, f"E-{code:02d}", score, verdict, attempt=attempt))
    return scores_frame(rows)


@pytest.mark.parametrize("system", ["alpha", "beta", "gamma"])
def test_a_leaderboard_interval_is_the_clustered_bootstrap_of_that_cell_alone(system: str) -> None:
    scores = _many_attempts(seed=4)
    row = _row(analytics.leaderboard(scores, resamples=1500, seed=3), system=system)
    cell = scores.filter(pl.col("system") == system)
    mean, low, high = stats.paired_bootstrap(
        cell["score"].to_list(), [0.0] * cell.height, groups=cell["code"].to_list(), resamples=1500, seed=3
    )
    assert (row["mean_score"], row["ci_low"], row["ci_high"]) == pytest.approx((mean, low, high), abs=1e-12)


def test_a_single_etalon_cell_has_an_interval_of_zero_width() -> None:
    scores = scores_frame([score_row("solo", "N-01", 0.5, "partial", attempt=a) for a in (1, 2)])
    row = _row(analytics.leaderboard(scores), system="solo")
    assert row["ci_low"] == row["ci_high"] == 0.5


@pytest.mark.parametrize(
    ("slice_name", "value", "n", "mean"),
    [
        ("branch", "inheritance", 2, 0.75),
        ("branch", "labour", 2, 0.5),
        ("difficulty", "3", 2, 0.5),
        ("jurisdiction", "ru", 4, 0.625),
    ],
)
def test_slices_give_the_leaderboard_statistics_per_dimension_value(
    slice_name: str, value: str, n: int, mean: float
) -> None:
    row = _row(analytics.slices(known_scores()), system="alpha", slice=slice_name, value=value)
    assert (row["n"], row["mean_score"]) == (n, pytest.approx(mean))


def test_paired_keeps_the_contract_columns_in_order() -> None:
    assert analytics.paired(known_scores()).columns[:12] == CONTRACT_PAIRED


@pytest.mark.parametrize(
    ("column", "expected"),
    [
        ("n", 4),
        ("both", 1),
        ("only_a", 1),
        ("only_b", 0),
        ("neither", 2),
        ("diff", 0.1875),
        ("mean_a", 0.625),
    ],
)
def test_paired_counts_the_shared_signed_etalons_by_positive_verdict(column: str, expected: float) -> None:
    row = _row(analytics.paired(known_scores()), system_a="alpha", system_b="beta")
    assert row[column] == pytest.approx(expected)


@pytest.mark.parametrize(("a", "b"), [("alpha", "beta"), ("alpha", "gamma"), ("beta", "gamma")])
def test_paired_interval_and_mcnemar_match_independent_computations(a: str, b: str) -> None:
    scores = _many_attempts(seed=9)
    row = _row(analytics.paired(scores, resamples=1000, seed=2), system_a=a, system_b=b)
    wide = scores.pivot("system", index=["code", "attempt"], values="score").select("code", a, b).drop_nulls()
    mean, low, high = stats.paired_bootstrap(
        wide[a].to_list(), wide[b].to_list(), groups=wide["code"].to_list(), resamples=1000, seed=2
    )
    assert row["n"] == wide.height
    assert (row["diff"], row["diff_low"], row["diff_high"]) == pytest.approx((mean, low, high), abs=1e-12)
    expected_p = (
        sps.binomtest(row["only_a"], row["only_a"] + row["only_b"]).pvalue
        if row["only_a"] + row["only_b"]
        else 1.0
    )
    assert row["mcnemar_p"] == pytest.approx(expected_p)


def test_both_orientations_lists_each_pair_from_either_side_with_the_sign_flipped() -> None:
    table = analytics.both_orientations(analytics.paired(known_scores()))
    row = _row(table, system_a="beta", system_b="alpha")
    assert (row["only_b"], row["diff"]) == (1, pytest.approx(-0.1875))


def test_missing_score_columns_are_named_in_the_error() -> None:
    with pytest.raises(ValueError, match=r"scores: missing column\(s\) verdict"):
        analytics.leaderboard(known_scores().drop("verdict"))

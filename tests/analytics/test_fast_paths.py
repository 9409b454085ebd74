"""The batched analytics give, cell by cell, the numbers of the plain per-cell statistics, on the irregular
warehouses where their shortcuts (per-system products, gap corrections, shared weight chunks) could slip."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
import pytest

from evaluation import analytics, stats
from evaluation.analytics.cells import dense_ids
from tests.analytics.warehouse_sample import score_row, scores_frame

SYSTEMS = ("alpha", "beta", "gamma", "delta")


def _row(table: pl.DataFrame, **where: Any) -> dict[str, Any]:
    selected = table.filter(*[pl.col(k) == v for k, v in where.items()])
    assert selected.height == 1, f"expected one row for {where}, got {selected.height}"
    return selected.row(0, named=True)


def _gappy(seed: int) -> pl.DataFrame:
    """alpha answers everything; beta and gamma miss single attempts (sometimes the same one); delta skips
    whole etalons, so its pairs resample fewer clusters."""
    rng = np.random.default_rng(seed)
    rows = []
    for code in range(36):
        for attempt in (1, 2, 3):
            for system in SYSTEMS:
                if system == "beta" and (
                    (code % 5 == 0 and attempt == 2) or (code % 7 == 0 and attempt == 3)
                ):
                    continue
                if system == "gamma" and code % 6 == 0 and attempt == 2:
                    continue
                if system == "delta" and code % 4 == 1:
                    continue
                score = float(np.clip(rng.normal(0.55, 0.25), 0, 1))
                verdict = "positive" if score > 0.7 else "partial" if score > 0.4 else "negative"
                rows.append(score_row(system, f"E-{code:02d}", score, verdict, attempt=attempt))
    return scores_frame(rows)


PAIRS = [(a, b) for a in SYSTEMS for b in SYSTEMS if a < b]  # the table names each pair in text order


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_paired_interval_equals_the_bootstrap_of_that_pair_alone_when_answers_are_missing(
    a: str, b: str
) -> None:
    scores = _gappy(seed=5)
    row = _row(analytics.paired(scores, resamples=700, seed=4), system_a=a, system_b=b)
    wide = scores.pivot("system", index=["code", "attempt"], values="score").select("code", a, b).drop_nulls()
    mean, low, high = stats.paired_bootstrap(
        wide[a].to_list(), wide[b].to_list(), groups=wide["code"].to_list(), resamples=700, seed=4
    )
    assert (row["n"], row["etalons"]) == (wide.height, wide["code"].n_unique())
    assert (row["diff"], row["diff_low"], row["diff_high"]) == pytest.approx((mean, low, high), abs=1e-12)


@pytest.mark.parametrize("system", SYSTEMS)
def test_leaderboard_interval_equals_the_clustered_bootstrap_of_that_cell_when_answers_are_missing(
    system: str,
) -> None:
    scores = _gappy(seed=6)
    row = _row(analytics.leaderboard(scores, resamples=700, seed=1), system=system)
    cell = scores.filter(pl.col("system") == system)
    mean, low, high = stats.paired_bootstrap(
        cell["score"].to_list(), [0.0] * cell.height, groups=cell["code"].to_list(), resamples=700, seed=1
    )
    assert (row["mean_score"], row["ci_low"], row["ci_high"]) == pytest.approx((mean, low, high), abs=1e-12)


@pytest.mark.parametrize(
    ("dimension", "value"), [("branch", "labour"), ("difficulty", "2"), ("branch", None)]
)
def test_a_slice_has_the_statistics_of_the_leaderboard_of_its_rows(dimension: str, value: str | None) -> None:
    rng = np.random.default_rng(2)
    rows = [
        score_row(
            system,
            f"E-{code:02d}",
            float(rng.random()),
            "partial",
            attempt=attempt,
            branch=[None, "labour", "inheritance"][code % 3],
            difficulty=code % 4,
        )
        for system in ("alpha", "beta")
        for code in range(30)
        for attempt in (1, 2)
    ]
    scores = scores_frame(rows)
    sliced = analytics.slices(scores, resamples=400, seed=3).filter(
        (pl.col("slice") == dimension) & pl.col("value").eq_missing(value)
    )
    chosen = scores.filter(pl.col(dimension).cast(pl.Utf8).eq_missing(value))
    expected = analytics.leaderboard(chosen, resamples=400, seed=3)
    columns = ["system", "n", "mean_score", "ci_low", "ci_high", "etalons", "positive_low", "tokens_in"]
    assert (
        sliced.select(columns).sort("system").to_dicts() == expected.select(columns).sort("system").to_dicts()
    )


def test_an_etalon_that_lost_its_indicative_flag_is_one_cluster_when_indicative_ones_are_included() -> None:
    rows = [
        score_row("alpha", "E-01", 1.0, "positive", version="v1", indicative=True),
        score_row("alpha", "E-01", 0.0, "negative", version="v2"),
        score_row("alpha", "E-02", 0.5, "partial"),
        score_row("alpha", "E-03", 0.25, "negative"),
    ]
    row = _row(analytics.leaderboard(scores_frame(rows), include_indicative=True, resamples=300, seed=2))
    _, low, high = stats.paired_bootstrap(
        [1.0, 0.0, 0.5, 0.25], [0.0] * 4, groups=["E-01", "E-01", "E-02", "E-03"], resamples=300, seed=2
    )
    assert (row["n"], row["etalons"], row["ci_low"], row["ci_high"]) == (4, 3, low, high)


def test_leaderboard_intervals_cover_the_true_mean_about_95_percent_of_the_time() -> None:
    rng = np.random.default_rng(17)
    rows = []
    for system in range(60):  # 60 systems of the same true skill: 60 independent intervals
        for code in range(80):
            level = rng.normal(0.6, 0.15)  # the etalon's difficulty: attempts at it are correlated
            for attempt in (1, 2, 3):
                score = level + rng.normal(0, 0.1)
                rows.append(score_row(f"s{system:02d}", f"E-{code:02d}", score, "partial", attempt=attempt))
    table = analytics.leaderboard(scores_frame(rows), resamples=1000, seed=0)
    covered = table.filter((pl.col("ci_low") <= 0.6) & (pl.col("ci_high") >= 0.6)).height
    assert 51 <= covered <= 60  # binomial(60, 0.95): below 51 has probability under 1%


def test_leaderboard_is_identical_for_the_same_seed_and_its_interval_moves_with_another() -> None:
    scores = _gappy(seed=8)
    first = analytics.leaderboard(scores, resamples=300, seed=11)
    assert first.equals(analytics.leaderboard(scores, resamples=300, seed=11))
    assert not first["ci_low"].equals(analytics.leaderboard(scores, resamples=300, seed=12)["ci_low"])


@pytest.mark.parametrize("chunk", [1, 7, 500])
def test_weight_chunks_of_any_size_draw_the_same_resamples(
    monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    rng = np.random.default_rng(3)
    sums, sizes = rng.normal(0, 1, (40, 12)), rng.choice([2.0, 3.0], size=(40, 12))
    whole = stats.cluster_bootstrap_means(sums, sizes, resamples=300, seed=9)
    monkeypatch.setattr(stats, "_CHUNK_CELLS", chunk)
    chunked = stats.cluster_bootstrap_means(sums, sizes, resamples=300, seed=9)
    assert np.allclose(chunked, whole, rtol=0, atol=1e-12)  # same draws; products may round differently


def test_dense_ids_number_values_in_text_order_with_nulls_last() -> None:
    ids, values = dense_ids(pl.Series(["b", None, "a", "b", "c"]))
    assert (ids.tolist(), values.to_list()) == ([1, 3, 0, 1, 2], ["a", "b", "c"])

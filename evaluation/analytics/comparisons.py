"""eval.paired: two systems compared on the same etalons, never as two independent means.

Two systems answer the same questions, so their errors are correlated; the four counts (both right, only A,
only B, neither), the exact McNemar test on the discordant pairs and a paired bootstrap of the score
difference keep that structure (docs/methodologies.md, "Statistics"). Counts for all pairs of a benchmark come from
matrix products over a (row x system) layout instead of a self-join, which would grow with the square of the
number of systems; the bootstrap of every pair comes from per-system products (evaluation.analytics.paired_bootstrap).
"""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl

from evaluation.analytics.cells import dense_ids
from evaluation.analytics.common import DEFAULT_RESAMPLES, DEFAULT_SEED, IntArray, prepare_scores
from evaluation.analytics.paired_bootstrap import Layout, pair_intervals
from evaluation.stats import FloatArray, mcnemar_exact

PAIRED_SCHEMA: dict[str, pl.DataType] = {
    "benchmark": pl.Utf8(),
    "system_a": pl.Utf8(),
    "system_b": pl.Utf8(),
    "n": pl.Int64(),
    "both": pl.Int64(),
    "only_a": pl.Int64(),
    "only_b": pl.Int64(),
    "neither": pl.Int64(),
    "mcnemar_p": pl.Float64(),
    "diff": pl.Float64(),
    "diff_low": pl.Float64(),
    "diff_high": pl.Float64(),
    "mean_a": pl.Float64(),
    "mean_b": pl.Float64(),
    "etalons": pl.Int64(),
}


def _paired_rows(scores: pl.DataFrame, include_indicative: bool) -> pl.DataFrame:
    """Scored rows, one per (benchmark, system, code, attempt): if an etalon changed version, the latest
    wins."""
    keep = pl.col("score").is_not_null() & (pl.col("status") != "error")
    if not include_indicative:
        keep = keep & ~pl.col("indicative")
    rows = (
        prepare_scores(scores)
        .lazy()
        .filter(keep)
        .select(
            "benchmark",
            "system",
            "code",
            "attempt",
            "version",
            "score",
            (pl.col("verdict") == "positive").fill_null(False).alias("positive"),
        )
        .collect()
    )
    if rows["version"].n_unique() > 1:  # rare, and the dedup costs more than all the rest
        rows = rows.sort("version").unique(["benchmark", "system", "code", "attempt"], keep="last")
    return rows.drop("version")


def _local(ids: IntArray) -> tuple[IntArray, IntArray]:
    """Ids renumbered 0..k-1 among those present (order kept), and which global id each new one was."""
    present = np.bincount(ids) > 0
    return (np.cumsum(present) - 1)[ids], np.flatnonzero(present)


def _benchmark_layout(
    systems: IntArray, codes: IntArray, attempts: IntArray, score: FloatArray, positive: FloatArray
) -> tuple[Layout, IntArray]:
    """One benchmark's rows as (etalon x attempt x system) arrays, etalons in code order; and which global
    system each layout column is."""
    s, system_ids = _local(systems)
    g, _ = _local(codes)
    t, _ = _local(attempts)
    etalons, slots, k = int(g.max()) + 1, int(t.max()) + 1, len(system_ids)
    present = np.zeros((etalons, slots, k))
    values = np.zeros((etalons, slots, k))
    right = np.zeros((etalons, slots, k))
    present[g, t, s] = 1.0
    values[g, t, s] = score
    right[g, t, s] = positive
    return Layout(present, values, right), system_ids


def paired(
    scores: pl.DataFrame,
    include_indicative: bool = False,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> pl.DataFrame:
    """Every unordered pair of systems (system_a < system_b) on their shared (benchmark, code, attempt) rows.

    `both`/`only_a`/`only_b`/`neither` count the positive verdict; `diff` is mean score A - B with a paired
    bootstrap interval resampling whole etalons (identical to `stats.paired_bootstrap(a, b,
    groups=codes)`)."""
    rows = _paired_rows(scores, include_indicative)
    if rows.height == 0:
        return pl.DataFrame(schema=PAIRED_SCHEMA)
    benchmark, benchmark_names = dense_ids(rows["benchmark"])
    system, system_names = dense_ids(rows["system"])
    code, _ = dense_ids(rows["code"])
    attempt, _ = dense_ids(rows["attempt"])
    score = rows["score"].to_numpy()
    positive = rows["positive"].to_numpy().astype(np.float64)
    benchmark_list = [*benchmark_names.to_list(), None]  # a null key has the id after the last value
    system_list = [*system_names.to_list(), None]
    order = np.argsort(benchmark, kind="stable")
    bounds = np.flatnonzero(np.r_[True, np.diff(benchmark[order]) != 0, True])
    layouts: list[Layout] = []
    columns: dict[str, list[object]] = {"benchmark": [], "system_a": [], "system_b": []}
    for start, end in itertools.pairwise(bounds):
        part = order[start:end]
        layout, system_ids = _benchmark_layout(
            system[part], code[part], attempt[part], score[part], positive[part]
        )
        layouts.append(layout)
        a, b = layout.pairs
        columns["benchmark"].extend([benchmark_list[int(benchmark[part[0]])]] * len(a))
        columns["system_a"].extend(system_list[i] for i in system_ids[a])
        columns["system_b"].extend(system_list[i] for i in system_ids[b])
    counts = {
        name: np.concatenate([getattr(layout, name) for layout in layouts])
        for name in ("n", "both", "only_a", "only_b", "sum_a", "sum_b", "etalons")
    }
    if len(counts["n"]) == 0:
        return pl.DataFrame(schema=PAIRED_SCHEMA)
    low, high = pair_intervals(layouts, resamples, seed)
    n = counts["n"]
    p_values: dict[tuple[int, int], float] = {}
    discordant = list(zip(counts["only_a"].tolist(), counts["only_b"].tolist(), strict=True))
    for key in set(discordant):
        p_values[key] = mcnemar_exact(*key)
    table = pl.DataFrame(
        {
            **columns,
            "n": n,
            "both": counts["both"],
            "only_a": counts["only_a"],
            "only_b": counts["only_b"],
            "neither": n - counts["both"] - counts["only_a"] - counts["only_b"],
            "mcnemar_p": [p_values[key] for key in discordant],
            "diff": (counts["sum_a"] - counts["sum_b"]) / n,
            "diff_low": low,
            "diff_high": high,
            "mean_a": counts["sum_a"] / n,
            "mean_b": counts["sum_b"] / n,
            "etalons": counts["etalons"],
        },
        schema_overrides=PAIRED_SCHEMA,
        strict=False,
    )
    return table.select(list(PAIRED_SCHEMA)).sort("benchmark", "system_a", "system_b")


def both_orientations(table: pl.DataFrame) -> pl.DataFrame:
    """The paired table with each pair also as (B, A), so that a query can filter on system_a alone."""
    swapped = table.with_columns(
        pl.col("system_b").alias("system_a"),
        pl.col("system_a").alias("system_b"),
        pl.col("only_b").alias("only_a"),
        pl.col("only_a").alias("only_b"),
        (-pl.col("diff")).alias("diff"),
        (-pl.col("diff_high")).alias("diff_low"),
        (-pl.col("diff_low")).alias("diff_high"),
        pl.col("mean_b").alias("mean_a"),
        pl.col("mean_a").alias("mean_b"),
    )
    return pl.concat([table, swapped.select(table.columns)]).sort("benchmark", "system_a", "system_b")

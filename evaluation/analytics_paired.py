"""eval.paired: two systems compared on the same etalons, never as two independent means.

Two systems answer the same questions, so their errors are correlated; the four counts (both right, only A,
only B, neither), the exact McNemar test on the discordant pairs and a paired bootstrap of the score
difference keep that structure (seeds/002, worked example A). Counts for all pairs of a benchmark come from
matrix products over a (row x system) layout instead of a self-join, which would grow with the square of the
number of systems.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from evaluation.analytics_common import DEFAULT_RESAMPLES, DEFAULT_SEED, prepare_scores
from evaluation.stats import FloatArray, cluster_bootstrap_means, mcnemar_exact

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
    rows = prepare_scores(scores).filter(pl.col("score").is_not_null() & (pl.col("status") != "error"))
    if not include_indicative:
        rows = rows.filter(~pl.col("indicative"))
    if rows["version"].n_unique() > 1:  # rare, and the dedup costs more than all the rest
        rows = rows.sort("version").unique(["benchmark", "system", "code", "attempt"], keep="last")
    return rows.select(
        "benchmark",
        "system",
        "code",
        "attempt",
        "score",
        (pl.col("verdict") == "positive").fill_null(False).alias("positive"),
    )


Cells = list[tuple[FloatArray, FloatArray]]


def _benchmark_pairs(benchmark: str, rows: pl.DataFrame) -> tuple[dict[str, list[object]], Cells]:
    """The paired counts of every pair in one benchmark, and per pair its clusters (etalons in code order):
    the summed score differences and the number of shared rows of each."""
    systems = sorted(rows["system"].unique().to_list())
    rows = rows.with_columns(
        pl.col("system").replace_strict(systems, list(range(len(systems)))).alias("_s"),
        pl.col("code").rank("dense").cast(pl.Int64).sub(1).alias("_g"),
        pl.col("attempt").rank("dense").cast(pl.Int64).sub(1).alias("_t"),
    )
    attempts = int(rows["_t"].max()) + 1  # type: ignore[arg-type]
    rows = rows.with_columns((pl.col("_g") * attempts + pl.col("_t")).alias("_r"))
    height = (int(rows["_g"].max()) + 1) * attempts  # type: ignore[arg-type]
    k = len(systems)
    present = np.zeros((height, k))
    score = np.zeros((height, k))
    positive = np.zeros((height, k))
    r, s = rows["_r"].to_numpy(), rows["_s"].to_numpy()
    present[r, s] = 1.0
    score[r, s] = rows["score"].to_numpy()
    positive[r, s] = rows["positive"].to_numpy().astype(np.float64)
    n = present.T @ present
    both = positive.T @ positive
    only_a = positive.T @ present - both
    only_b = present.T @ positive - both
    sum_a = score.T @ present  # [a, b]: A's scores on the rows both answered
    sum_b = present.T @ score
    # Rows are laid out etalon by etalon (attempts consecutive), so per-etalon sums over the rows two systems
    # share are one batched product: [etalon, a, b] = sum over attempts.
    codes = height // attempts
    by_etalon_present = present.reshape(codes, attempts, k)
    # [g, i, j]: system j's scores on the rows systems i and j share.
    score_shared = by_etalon_present.transpose(0, 2, 1) @ score.reshape(codes, attempts, k)
    shared = by_etalon_present.transpose(0, 2, 1) @ by_etalon_present
    diff = score_shared.transpose(0, 2, 1) - score_shared  # [g, a, b]: A's minus B's on the shared rows
    table: dict[str, list[object]] = {c: [] for c in PAIRED_SCHEMA}
    cells: Cells = []
    for a in range(k):
        for b in range(a + 1, k):
            pairs = int(n[a, b])
            if pairs == 0:
                continue
            used = shared[:, a, b] > 0
            cells.append((diff[used, a, b], shared[used, a, b]))
            counts = [int(both[a, b]), int(only_a[a, b]), int(only_b[a, b])]
            values: list[object] = [
                benchmark,
                systems[a],
                systems[b],
                pairs,
                *counts,
                pairs - sum(counts),
                mcnemar_exact(counts[1], counts[2]),
                (sum_a[a, b] - sum_b[a, b]) / pairs,
                None,
                None,
                sum_a[a, b] / pairs,
                sum_b[a, b] / pairs,
                int(used.sum()),
            ]
            for column, value in zip(PAIRED_SCHEMA, values, strict=True):
                table[column].append(value)
    return table, cells


def _intervals(cells: Cells, resamples: int, seed: int) -> tuple[FloatArray, FloatArray]:
    """Percentile intervals of every cell, one matrix product per distinct number of clusters."""
    low = np.empty(len(cells))
    high = np.empty(len(cells))
    by_size: dict[int, list[int]] = {}
    for index, (sums, _) in enumerate(cells):
        by_size.setdefault(len(sums), []).append(index)
    for clusters, indices in by_size.items():
        sums = np.stack([cells[i][0] for i in indices], axis=1).reshape(clusters, len(indices))
        sizes = np.stack([cells[i][1] for i in indices], axis=1).reshape(clusters, len(indices))
        replicates = cluster_bootstrap_means(sums, sizes, resamples, seed)
        low[indices], high[indices] = np.quantile(replicates, [0.025, 0.975], axis=0)
    return low, high


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
    table: dict[str, list[object]] = {c: [] for c in PAIRED_SCHEMA}
    cells: Cells = []
    for (benchmark,), group in rows.group_by(["benchmark"], maintain_order=True):
        part, part_cells = _benchmark_pairs(str(benchmark), group)
        for column in PAIRED_SCHEMA:
            table[column].extend(part[column])
        cells.extend(part_cells)
    if not cells:
        return pl.DataFrame(schema=PAIRED_SCHEMA)
    low, high = _intervals(cells, resamples, seed)
    table["diff_low"], table["diff_high"] = low.tolist(), high.tolist()
    return pl.DataFrame(table, schema=PAIRED_SCHEMA).sort("benchmark", "system_a", "system_b")


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

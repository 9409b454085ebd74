"""Shared machinery of the analytics tables: input checks and the batched clustered bootstrap.

The warehouse tables hold up to millions of score rows; running one bootstrap per leaderboard cell in a Python
loop would take minutes. Cells with the same number of clusters share one weight matrix, so all their
replicates come out of a single matrix product, with the very numbers `stats.paired_bootstrap` gives for that
cell alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import polars as pl

from evaluation.stats import cluster_bootstrap_means

DEFAULT_RESAMPLES = 2000
DEFAULT_SEED = 0

SCORE_COLUMNS = (
    "system",
    "benchmark",
    "code",
    "version",
    "attempt",
    "methodology",
    "score",
    "verdict",
    "status",
    "indicative",
)
OPTIONAL_SCORE_COLUMNS: dict[str, pl.DataType] = {
    "jurisdiction": pl.Utf8(),
    "branch": pl.Utf8(),
    "difficulty": pl.Int64(),
    "type": pl.Utf8(),
    "tokens_in": pl.Int64(),
    "tokens_out": pl.Int64(),
    "cost": pl.Float64(),
    "confidence": pl.Float64(),
}


def require_columns(frame: pl.DataFrame, name: str, columns: Iterable[str]) -> None:
    """Fail with the table and the missing columns named, before any computation starts."""
    missing = [column for column in columns if column not in frame.columns]
    if missing:
        raise ValueError(f"{name}: missing column(s) {', '.join(missing)}; got {', '.join(frame.columns)}")


def prepare_scores(scores: pl.DataFrame) -> pl.DataFrame:
    """The scores table with every optional column present (null when the caller has none)."""
    require_columns(scores, "scores", SCORE_COLUMNS)
    extra = [
        pl.lit(None, dtype=dtype).alias(column)
        for column, dtype in OPTIONAL_SCORE_COLUMNS.items()
        if column not in scores.columns
    ]
    frame = scores.with_columns(extra) if extra else scores
    return frame.with_columns(
        pl.col("score").cast(pl.Float64),
        pl.col("indicative").cast(pl.Boolean).fill_null(False),
        pl.col("attempt").cast(pl.Int64),
    )


def cluster_intervals(
    clusters: pl.DataFrame,
    keys: Sequence[str],
    cluster: str,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> pl.DataFrame:
    """95% percentile bootstrap interval of a row mean, per cell, resampling whole clusters.

    `clusters` has one row per (cell keys, cluster) with `_sum` (sum of the values of the cluster's rows) and
    `_size` (their number). Clusters are ordered by their key as text within a cell, as `paired_bootstrap`
    orders its groups, so both give the same interval for the same seed."""
    out_schema: dict[str, pl.DataType] = {k: clusters.schema[k] for k in keys}
    out_schema.update({"ci_low": pl.Float64(), "ci_high": pl.Float64()})
    if clusters.height == 0:
        return pl.DataFrame(schema=out_schema)
    frame = (
        clusters.filter(pl.col("_size") > 0)
        .with_columns(pl.col(cluster).cast(pl.Utf8).alias("_order"))
        .sort([*keys, "_order"], nulls_last=True)
    )
    cells = frame.group_by(keys, maintain_order=True).agg(pl.len().alias("_clusters"))
    frame = frame.join(cells, on=list(keys), how="left", nulls_equal=True, maintain_order="left")
    pieces: list[pl.DataFrame] = []
    for (count,), group in frame.group_by(["_clusters"], maintain_order=True):
        g = int(count)
        group = group.sort([*keys, "_order"], nulls_last=True)
        sums = group["_sum"].to_numpy().astype(np.float64).reshape(-1, g).T
        sizes = group["_size"].to_numpy().astype(np.float64).reshape(-1, g).T
        replicates = cluster_bootstrap_means(sums, sizes, resamples, seed)
        low, high = np.quantile(replicates, [0.025, 0.975], axis=0)
        first_rows = group.select(keys).gather(np.arange(0, group.height, g))
        pieces.append(first_rows.with_columns(pl.Series("ci_low", low), pl.Series("ci_high", high)))
    if not pieces:  # every cluster empty (e.g. every answer an error): no interval, not a crash
        return pl.DataFrame(schema=out_schema)
    return pl.concat(pieces, how="vertical")

"""Shared machinery of the analytics tables: input checks and the batched clustered bootstrap.

The warehouse tables hold up to millions of score rows; running one bootstrap per leaderboard cell in a Python
loop would take minutes. Cells with the same number of clusters share one weight matrix, so all their
replicates come out of a single matrix product, with the very numbers `stats.paired_bootstrap` gives for that
cell alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt
import polars as pl

from evaluation.stats import FloatArray, cluster_bootstrap_means, percentile_interval

IntArray = npt.NDArray[np.int64]

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


def cell_starts(frame: pl.DataFrame, keys: Sequence[str]) -> IntArray:
    """Index of the first row of every cell of a frame sorted by `keys` (nulls are a value like any other)."""
    if frame.height == 0:
        return np.zeros(0, dtype=np.int64)
    if not keys:
        return np.zeros(1, dtype=np.int64)
    changed = pl.any_horizontal([pl.col(k).ne_missing(pl.col(k).shift(1)) for k in keys])
    flags = frame.select(changed.fill_null(True)).to_series().to_numpy().copy()
    flags[0] = True
    return np.flatnonzero(flags)


def grouped_intervals(
    starts: IntArray, sums: FloatArray, sizes: FloatArray, resamples: int, seed: int
) -> tuple[FloatArray, FloatArray]:
    """95% percentile bootstrap interval of the row mean of every cell, resampling whole clusters.

    Rows are clusters, laid out cell after cell (a cell's clusters in their resampling order); `starts` is
    where each cell begins. Cells with the same number of clusters share one weight matrix, so all their
    replicates come out of one matrix product."""
    counts = np.diff(np.append(starts, len(sums)))
    per_row = np.repeat(counts, counts)
    low = np.empty(len(counts))
    high = np.empty(len(counts))
    for g in np.unique(counts):
        cells = np.flatnonzero(counts == g)
        rows = per_row == g
        replicates = cluster_bootstrap_means(
            sums[rows].reshape(-1, g).T, sizes[rows].reshape(-1, g).T, resamples, seed
        )
        low[cells], high[cells] = percentile_interval(replicates)
    return low, high


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
    keys = list(keys)
    out_schema: dict[str, pl.DataType] = {k: clusters.schema[k] for k in keys}
    out_schema.update({"ci_low": pl.Float64(), "ci_high": pl.Float64()})
    frame = (
        clusters.lazy()
        .filter(pl.col("_size") > 0)
        .sort([*keys, pl.col(cluster).cast(pl.Utf8)], nulls_last=True)
        .collect()
    )
    if frame.height == 0:  # every cluster empty (e.g. every answer an error): no interval, not a crash
        return pl.DataFrame(schema=out_schema)
    starts = cell_starts(frame, keys)
    low, high = grouped_intervals(
        starts,
        frame["_sum"].cast(pl.Float64).to_numpy(),
        frame["_size"].cast(pl.Float64).to_numpy(),
        resamples,
        seed,
    )
    return frame.select(keys)[starts].with_columns(pl.Series("ci_low", low), pl.Series("ci_high", high))

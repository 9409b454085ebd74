"""Leaderboard statistics per cell from per-etalon rows, in numpy: the step the leaderboard and slices share.

Sorting and regrouping the (benchmark, system, slice, value, code) table by its text keys in polars cost more
than all the statistics together (a second for the slices of a million answers). Here every key becomes a
dense integer once, on the already aggregated per-etalon rows, and clusters, cells and their sums come out of
one integer sort and `np.add.reduceat`; cells sharing a number of clusters share one bootstrap product.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import polars as pl

from evaluation.analytics.common import IntArray, grouped_intervals
from evaluation.stats import wilson_interval

COUNTED = ("n", "_sum", "positive", "partial", "negative", "needs_input", "errors")
REPORTED = ("tokens_in", "tokens_out", "cost")
STAT_COLUMNS = (
    "n",
    "mean_score",
    "ci_low",
    "ci_high",
    "positive",
    "partial",
    "negative",
    "needs_input",
    "errors",
    "etalons",
    "positive_rate",
    "positive_low",
    "positive_high",
    "tokens_in",
    "tokens_out",
    "cost",
)
STAT_SCHEMA: dict[str, pl.DataType] = {
    column: pl.Float64()
    if column in ("mean_score", "ci_low", "ci_high", "cost") or "positive_" in column
    else pl.Int64()
    for column in STAT_COLUMNS
}
# Summed per cluster and per cell: the counts, the reported sums and how many answers reported each.
SUMMED = (*COUNTED, *REPORTED, *[f"_{c}_count" for c in REPORTED])
_DENSE_LIMIT = 2**31


def dense_ids(series: pl.Series) -> tuple[IntArray, pl.Series]:
    """Ids of a column's values in their sort order (text order for text), and the sorted distinct values;
    a null gets the id after the last value.

    Hashing the distinct values and sorting only those is what makes this cheap on a large column."""
    values = series.unique().drop_nulls().sort()
    ids = series.replace_strict(
        values, pl.int_range(len(values), eager=True), default=len(values), return_dtype=pl.Int64
    )
    return ids.to_numpy(), values


def combined_ids(parts: Sequence[IntArray], rows: int) -> IntArray:
    """One id per distinct combination of several id columns (any consistent labelling), without overflow."""
    combined = np.zeros(rows, dtype=np.int64)
    size = 1
    for ids in parts:
        count = int(ids.max()) + 1 if rows else 1
        combined = combined * count + ids
        size *= count
        if size > _DENSE_LIMIT:
            _, inverse = np.unique(combined, return_inverse=True)
            combined = inverse.astype(np.int64).reshape(-1)
            size = int(combined.max()) + 1 if rows else 1
    return combined


def _wilson(positive: IntArray, n: IntArray) -> tuple[list[float | None], list[float | None]]:
    lows: list[float | None] = []
    highs: list[float | None] = []
    cache: dict[tuple[int, int], tuple[float, float]] = {}
    for key in zip(positive.tolist(), n.tolist(), strict=True):
        if not key[1]:
            lows.append(None)
            highs.append(None)
            continue
        if key not in cache:
            cache[key] = wilson_interval(*key)
        lows.append(cache[key][0])
        highs.append(cache[key][1])
    return lows, highs


def cell_statistics(
    cell: IntArray,
    code: IntArray,
    values: dict[str, npt.NDArray[np.float64]],
    resamples: int,
    seed: int,
) -> tuple[IntArray, pl.DataFrame]:
    """The leaderboard statistics of every cell, from per-etalon rows (one or more per (cell, code)).

    `values` holds the SUMMED columns per row (nulls as zero). Returns, per cell in the order of its id, the
    index of one of its rows (to read its keys back) and a frame of STAT_COLUMNS. n counts the scored answers;
    the interval resamples whole etalons in code order; tokens and cost are null, not zero, where no answer
    reported them (an unknown cost is not a free run)."""
    if len(cell) == 0:
        return np.zeros(0, dtype=np.int64), pl.DataFrame(schema=STAT_SCHEMA)
    key = cell * (int(code.max()) + 1) + code
    order = np.argsort(key)
    ordered_key = key[order]
    starts = np.flatnonzero(np.r_[True, ordered_key[1:] != ordered_key[:-1]])
    ordered_cell = cell[order]
    new_cell = np.r_[True, ordered_cell[1:] != ordered_cell[:-1]]
    rank = np.cumsum(new_cell) - 1  # dense cell number of every sorted row
    cells = int(rank[-1]) + 1
    dense = np.empty_like(rank)
    dense[order] = rank
    totals = {c: np.bincount(dense, weights=values[c], minlength=cells) for c in SUMMED}
    # The bootstrap needs the clusters in code order within each cell; only n and _sum are needed per cluster.
    size = values["n"][order]
    total = values["_sum"][order]
    if len(starts) < len(key):  # a (cell, code) over several rows, e.g. its flag changed with a version
        size = np.add.reduceat(size, starts)
        total = np.add.reduceat(total, starts)
    cluster_cell = rank[starts]
    used = size > 0
    low = np.full(cells, np.nan)
    high = np.full(cells, np.nan)
    if used.any():
        used_cell = cluster_cell[used]
        first = np.flatnonzero(np.r_[True, used_cell[1:] != used_cell[:-1]])
        low[used_cell[first]], high[used_cell[first]] = grouped_intervals(
            first, total[used], size[used], resamples, seed
        )
    frame = pl.DataFrame(
        {
            **{c: totals[c] for c in SUMMED},
            "ci_low": low,
            "ci_high": high,
            "etalons": np.bincount(cluster_cell[used], minlength=cells),
        }
    )
    scored = pl.col("n") > 0
    frame = frame.with_columns(
        pl.when(scored).then(pl.col("_sum") / pl.col("n")).alias("mean_score"),
        pl.when(scored).then(pl.col("positive") / pl.col("n")).alias("positive_rate"),
        pl.col("ci_low", "ci_high").fill_nan(None),
        *[pl.when(pl.col(f"_{c}_count") > 0).then(pl.col(c)).alias(c) for c in REPORTED],
    )
    lows, highs = _wilson(frame["positive"].cast(pl.Int64).to_numpy(), frame["n"].cast(pl.Int64).to_numpy())
    frame = frame.with_columns(
        pl.Series("positive_low", lows, dtype=pl.Float64), pl.Series("positive_high", highs, dtype=pl.Float64)
    )
    frame = frame.select(list(STAT_COLUMNS)).cast(STAT_SCHEMA)  # type: ignore[arg-type]
    return order[np.flatnonzero(new_cell)], frame

"""eval.leaderboard and eval.slices: every mean with its interval, every rate with its Wilson interval.

Signed etalons make the leaderboard; indicative (unsigned) ones are reported in a separate column set so that
a number nobody vouched for never moves the ranking silently. The million-row score table is read once, into
one row per (cell, etalon); everything after that works on etalons (evaluation.analytics.cells).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import polars as pl

from evaluation.analytics.cells import (
    REPORTED,
    STAT_COLUMNS,
    STAT_SCHEMA,
    SUMMED,
    cell_statistics,
    combined_ids,
    dense_ids,
)
from evaluation.analytics.common import DEFAULT_RESAMPLES, DEFAULT_SEED, IntArray, prepare_scores
from evaluation.stats import FloatArray

SLICE_DIMENSIONS = ("branch", "difficulty", "type", "jurisdiction")
__all__ = ["SLICE_DIMENSIONS", "STAT_COLUMNS", "leaderboard", "per_etalon", "slices"]


def per_etalon(rows: pl.DataFrame, keys: Sequence[str]) -> pl.DataFrame:
    """One row per (keys, code) with the counts and sums the summary needs: the single pass over the (possibly
    million-row) score table. Every count is a plain sum of a 0/1 column, which polars aggregates far faster
    than one filtered expression per count."""
    scored = pl.col("score").is_not_null() & (pl.col("status") != "error")
    verdict = pl.col("verdict")
    return (
        rows.lazy()
        .select(
            *keys,
            "code",
            scored.cast(pl.Int64).alias("n"),
            pl.when(scored).then(pl.col("score")).otherwise(0.0).alias("_sum"),
            *[(scored & (verdict == v)).cast(pl.Int64).alias(v) for v in ("positive", "partial", "negative")],
            (pl.col("status") == "needs_input").cast(pl.Int64).alias("needs_input"),
            (pl.col("status") == "error").cast(pl.Int64).alias("errors"),
            *REPORTED,
            *[pl.col(c).is_not_null().cast(pl.Int64).alias(f"_{c}_count") for c in REPORTED],
        )
        .group_by([*keys, "code"], maintain_order=True)  # a fixed row order: float totals summed in it
        .agg(pl.all().sum())
        .collect()
    )


def _values(etalons: pl.DataFrame) -> dict[str, FloatArray]:
    return {c: etalons[c].cast(pl.Float64).fill_null(0.0).to_numpy() for c in SUMMED}


def _table(
    keys: pl.DataFrame,
    rows: IntArray | None,
    cell: IntArray,
    code: IntArray,
    values: dict[str, FloatArray],
    resamples: int,
    seed: int,
) -> pl.DataFrame:
    """The statistics of the cells of the chosen per-etalon rows (None: all), each with its keys from `keys`."""
    if rows is not None:
        cell, code, values = cell[rows], code[rows], {c: v[rows] for c, v in values.items()}
    first, table = cell_statistics(cell, code, values, resamples, seed)
    return keys[first if rows is None else rows[first]].hstack(table).sort(keys.columns, nulls_last=True)


def leaderboard(
    scores: pl.DataFrame,
    include_indicative: bool = False,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> pl.DataFrame:
    """One row per (benchmark, system), the key columns of docs/views.md first, indicative etalons under `ind_*`."""
    keys = ["benchmark", "system"]
    etalons = per_etalon(prepare_scores(scores), [*keys, "indicative"])
    cell = combined_ids([dense_ids(etalons[k])[0] for k in keys], etalons.height)
    code, _ = dense_ids(etalons["code"].cast(pl.Utf8))
    values = _values(etalons)
    indicative = etalons["indicative"].to_numpy().astype(bool)
    signed = None if include_indicative else np.flatnonzero(~indicative)
    key_frame = etalons.select(keys)
    main = _table(key_frame, signed, cell, code, values, resamples, seed)
    unsigned = _table(key_frame, np.flatnonzero(indicative), cell, code, values, resamples, seed)
    unsigned = unsigned.rename({column: f"ind_{column}" for column in STAT_COLUMNS})
    table = main.join(unsigned, on=keys, how="full", coalesce=True, nulls_equal=True)
    zero_filled = ["n", "etalons", "positive", "partial", "negative", "needs_input", "errors"]
    table = table.with_columns(
        [pl.col(c).fill_null(0) for c in zero_filled] + [pl.col(f"ind_{c}").fill_null(0) for c in zero_filled]
    )
    return table.sort(["benchmark", "mean_score", "system"], descending=[False, True, False], nulls_last=True)


def slices(
    scores: pl.DataFrame,
    dimensions: Sequence[str] = SLICE_DIMENSIONS,
    include_indicative: bool = False,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> pl.DataFrame:
    """The leaderboard statistics per (benchmark, system, slice, value): slice is the dimension's name
    (branch, difficulty, type, jurisdiction), value its value as text.

    The per-etalon rows are computed once for all dimensions; each dimension then only relabels them into its
    cells, and all cells of all dimensions are bootstrapped together."""
    rows = prepare_scores(scores)
    if not include_indicative:
        rows = rows.filter(~pl.col("indicative"))
    dims = list(dimensions)
    key_schema = {"benchmark": pl.Utf8(), "system": pl.Utf8(), "slice": pl.Utf8(), "value": pl.Utf8()}
    if not dims:
        return pl.DataFrame(schema={**key_schema, **STAT_SCHEMA})
    etalons = per_etalon(rows, ["benchmark", "system", *dims])
    height = etalons.height
    base = [dense_ids(etalons["benchmark"])[0], dense_ids(etalons["system"])[0]]
    cells: list[IntArray] = []
    offset = 0
    for d in dims:
        ids = combined_ids([*base, dense_ids(etalons[d].cast(pl.Utf8))[0]], height)
        cells.append(ids + offset)
        offset += int(ids.max()) + 1 if height else 0
    code, _ = dense_ids(etalons["code"].cast(pl.Utf8))
    long_keys = pl.concat(
        [
            etalons.select(
                pl.col("benchmark").cast(pl.Utf8),
                pl.col("system").cast(pl.Utf8),
                pl.lit(d, dtype=pl.Utf8).alias("slice"),
                pl.col(d).cast(pl.Utf8).alias("value"),
            )
            for d in dims
        ],
        how="vertical",
    )
    values = {c: np.tile(v, len(dims)) for c, v in _values(etalons).items()}
    return _table(long_keys, None, np.concatenate(cells), np.tile(code, len(dims)), values, resamples, seed)


def half_width(table: pl.DataFrame) -> float:
    """The widest half-interval in a summary, for a report's sentence on how precise the ranking is."""
    widths = ((table["ci_high"] - table["ci_low"]) / 2).drop_nulls().to_list()
    return max(widths) if widths else math.nan

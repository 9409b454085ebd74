"""eval.leaderboard and eval.slices: every mean with its interval, every rate with its Wilson interval.

Signed etalons make the leaderboard; indicative (unsigned) ones are reported in a separate column set so that a
number nobody vouched for never moves the ranking silently.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import polars as pl

from evaluation.analytics_common import DEFAULT_RESAMPLES, DEFAULT_SEED, cluster_intervals, prepare_scores
from evaluation.stats import wilson_interval

SLICE_DIMENSIONS = ("branch", "difficulty", "type", "jurisdiction")

STAT_COLUMNS = (
    "n", "etalons", "mean_score", "ci_low", "ci_high", "positive", "partial", "negative", "needs_input", "errors",
    "positive_rate", "positive_low", "positive_high", "tokens_in", "tokens_out", "cost",
)


def _wilson_columns(frame: pl.DataFrame) -> pl.DataFrame:
    lows: list[float | None] = []
    highs: list[float | None] = []
    cache: dict[tuple[int, int], tuple[float, float]] = {}
    for positive, n in zip(frame["positive"].to_list(), frame["n"].to_list(), strict=True):
        if not n:
            lows.append(None)
            highs.append(None)
            continue
        key = (int(positive), int(n))
        if key not in cache:
            cache[key] = wilson_interval(*key)
        lows.append(cache[key][0])
        highs.append(cache[key][1])
    return frame.with_columns(
        pl.Series("positive_low", lows, dtype=pl.Float64), pl.Series("positive_high", highs, dtype=pl.Float64)
    )


def _sum_or_null(column: str, dtype: pl.DataType) -> pl.Expr:
    """A total, or null when no row reported the quantity: an unknown cost is not a zero cost."""
    return pl.when(pl.col(column).count() > 0).then(pl.col(column).sum()).cast(dtype).alias(column)


def summarise(
    rows: pl.DataFrame, keys: Sequence[str], resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED
) -> pl.DataFrame:
    """The leaderboard statistics of `rows` per `keys` (rows already prepared by `prepare_scores`).

    n counts the scored answers (errors and unscored rows excluded); verdict counts and the positive rate are
    over those; the interval resamples whole etalons (codes), because attempts at one etalon are not independent.
    """
    keys = list(keys)
    scored = pl.col("score").is_not_null() & (pl.col("status") != "error")
    counts = rows.group_by(keys).agg(
        scored.sum().cast(pl.Int64).alias("n"),
        pl.col("code").filter(scored).n_unique().cast(pl.Int64).alias("etalons"),
        pl.col("score").filter(scored).mean().alias("mean_score"),
        *[
            (scored & (pl.col("verdict") == v)).sum().cast(pl.Int64).alias(v)
            for v in ("positive", "partial", "negative")
        ],
        (pl.col("status") == "needs_input").sum().cast(pl.Int64).alias("needs_input"),
        (pl.col("status") == "error").sum().cast(pl.Int64).alias("errors"),
        *[_sum_or_null(c, pl.Int64()) for c in ("tokens_in", "tokens_out")],
        _sum_or_null("cost", pl.Float64()),
    )
    counts = counts.with_columns(
        pl.when(pl.col("n") > 0).then(pl.col("positive") / pl.col("n")).otherwise(None).alias("positive_rate")
    )
    clusters = (
        rows.filter(scored)
        .group_by([*keys, "code"])
        .agg(pl.col("score").sum().alias("_sum"), pl.len().cast(pl.Float64).alias("_size"))
    )
    intervals = cluster_intervals(clusters, keys, "code", resamples, seed)
    result = counts.join(intervals, on=keys, how="left", nulls_equal=True)
    result = _wilson_columns(result)
    return result.select([*keys, *STAT_COLUMNS]).sort(keys, nulls_last=True)


def leaderboard(
    scores: pl.DataFrame,
    include_indicative: bool = False,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> pl.DataFrame:
    """One row per (benchmark, system), CONTRACT section 3 columns first, indicative etalons under `ind_*`."""
    rows = prepare_scores(scores)
    keys = ["benchmark", "system"]
    main_rows = rows if include_indicative else rows.filter(~pl.col("indicative"))
    main = summarise(main_rows, keys, resamples, seed)
    indicative = summarise(rows.filter(pl.col("indicative")), keys, resamples, seed)
    indicative = indicative.rename({column: f"ind_{column}" for column in STAT_COLUMNS})
    table = main.join(indicative, on=keys, how="full", coalesce=True)
    zero_filled = [c for c in ("n", "etalons", "positive", "partial", "negative", "needs_input", "errors")]
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
    (branch, difficulty, type, jurisdiction), value its value as text."""
    rows = prepare_scores(scores)
    if not include_indicative:
        rows = rows.filter(~pl.col("indicative"))
    long = pl.concat(
        [
            rows.with_columns(pl.lit(d).alias("slice"), pl.col(d).cast(pl.Utf8).alias("value"))
            for d in dimensions
        ],
        how="vertical",
    )
    return summarise(long, ["benchmark", "system", "slice", "value"], resamples, seed)


def half_width(table: pl.DataFrame) -> float:
    """The widest half-interval in a summary, for a report's sentence on how precise the ranking is."""
    widths = ((table["ci_high"] - table["ci_low"]) / 2).drop_nulls().to_list()
    return max(widths) if widths else math.nan

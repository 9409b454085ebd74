"""eval.leaderboard and eval.slices: every mean with its interval, every rate with its Wilson interval.

Signed etalons make the leaderboard; indicative (unsigned) ones are reported in a separate column set so that
a number nobody vouched for never moves the ranking silently.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import polars as pl

from evaluation.analytics_common import DEFAULT_RESAMPLES, DEFAULT_SEED, cluster_intervals, prepare_scores
from evaluation.stats import wilson_interval

SLICE_DIMENSIONS = ("branch", "difficulty", "type", "jurisdiction")

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


_COUNTED = ("n", "_sum", "positive", "partial", "negative", "needs_input", "errors")
_REPORTED = ("tokens_in", "tokens_out", "cost")


def per_etalon(rows: pl.DataFrame, keys: Sequence[str]) -> pl.DataFrame:
    """One row per (keys, code) with the counts and sums the summary needs: the single pass over the (possibly
    million-row) score table; every later step works on etalons, not answers."""
    scored = pl.col("score").is_not_null() & (pl.col("status") != "error")
    return rows.group_by([*keys, "code"]).agg(
        scored.sum().cast(pl.Int64).alias("n"),
        pl.col("score").filter(scored).sum().alias("_sum"),
        *[
            (scored & (pl.col("verdict") == v)).sum().cast(pl.Int64).alias(v)
            for v in ("positive", "partial", "negative")
        ],
        (pl.col("status") == "needs_input").sum().cast(pl.Int64).alias("needs_input"),
        (pl.col("status") == "error").sum().cast(pl.Int64).alias("errors"),
        *[pl.col(c).sum().alias(c) for c in _REPORTED],
        *[pl.col(c).count().alias(f"_{c}_count") for c in _REPORTED],
    )


def roll_up(
    etalons: pl.DataFrame, keys: Sequence[str], resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED
) -> pl.DataFrame:
    """The leaderboard statistics per `keys` from `per_etalon` rows.

    n counts the scored answers (errors and unscored rows excluded); verdict counts and the positive rate are
    over those; the interval resamples whole etalons (codes), because attempts at one etalon are not
    independent. Tokens and cost are null, not zero, where no answer reported them: an unknown cost is not a
    free run.
    """
    keys = list(keys)
    etalons = etalons.group_by([*keys, "code"]).agg(pl.all().sum())
    counts = etalons.group_by(keys).agg(
        *[pl.col(c).sum() for c in _COUNTED],
        (pl.col("n") > 0).sum().cast(pl.Int64).alias("etalons"),
        *[
            pl.when(pl.col(f"_{c}_count").sum() > 0).then(pl.col(c).sum()).otherwise(None).alias(c)
            for c in _REPORTED
        ],
    )
    counts = counts.with_columns(
        pl.when(pl.col("n") > 0).then(pl.col("_sum") / pl.col("n")).otherwise(None).alias("mean_score"),
        pl.when(pl.col("n") > 0)
        .then(pl.col("positive") / pl.col("n"))
        .otherwise(None)
        .alias("positive_rate"),
        pl.col("tokens_in").cast(pl.Int64),
        pl.col("tokens_out").cast(pl.Int64),
        pl.col("cost").cast(pl.Float64),
    )
    clusters = etalons.select(*keys, "code", "_sum", pl.col("n").cast(pl.Float64).alias("_size"))
    intervals = cluster_intervals(clusters, keys, "code", resamples, seed)
    result = counts.join(intervals, on=keys, how="left", nulls_equal=True)
    result = _wilson_columns(result)
    return result.select([*keys, *STAT_COLUMNS]).sort(keys, nulls_last=True)


def summarise(
    rows: pl.DataFrame, keys: Sequence[str], resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED
) -> pl.DataFrame:
    """The leaderboard statistics of prepared score rows per `keys`."""
    return roll_up(per_etalon(rows, keys), keys, resamples, seed)


def leaderboard(
    scores: pl.DataFrame,
    include_indicative: bool = False,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> pl.DataFrame:
    """One row per (benchmark, system), CONTRACT section 3 columns first, indicative etalons under `ind_*`."""
    keys = ["benchmark", "system"]
    etalons = per_etalon(prepare_scores(scores), [*keys, "indicative"])
    signed = etalons if include_indicative else etalons.filter(~pl.col("indicative"))
    main = roll_up(signed.drop("indicative"), keys, resamples, seed)
    indicative = roll_up(etalons.filter(pl.col("indicative")).drop("indicative"), keys, resamples, seed)
    indicative = indicative.rename({column: f"ind_{column}" for column in STAT_COLUMNS})
    table = main.join(indicative, on=keys, how="full", coalesce=True)
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
    (branch, difficulty, type, jurisdiction), value its value as text."""
    rows = prepare_scores(scores)
    if not include_indicative:
        rows = rows.filter(~pl.col("indicative"))
    dims = list(dimensions)
    etalons = per_etalon(rows, ["benchmark", "system", *dims])
    long = pl.concat(
        [
            etalons.with_columns(pl.lit(d).alias("slice"), pl.col(d).cast(pl.Utf8).alias("value")).drop(dims)
            for d in dims
        ],
        how="vertical",
    )
    return roll_up(long, ["benchmark", "system", "slice", "value"], resamples, seed)


def half_width(table: pl.DataFrame) -> float:
    """The widest half-interval in a summary, for a report's sentence on how precise the ranking is."""
    widths = ((table["ci_high"] - table["ci_low"]) / 2).drop_nulls().to_list()
    return max(widths) if widths else math.nan

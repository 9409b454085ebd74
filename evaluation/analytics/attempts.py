"""eval.pass_at_k and eval.calibration: what several attempts and a stated confidence tell about a system.

pass@k (can it find a right answer in k tries?) and pass^k (does it answer right every time?) are computed per
etalon and averaged over etalons, never pooled (docs/methodologies.md, "Statistics"). Calibration asks whether
a system's own confidence can decide when to hand a question to a lawyer: Brier score, coverage and risk.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from evaluation.analytics.common import prepare_scores
from evaluation.stats import brier_score, pass_at_k, pass_hat_k

DEFAULT_KS = (1, 2, 3, 5, 10)
DEFAULT_THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9)

PASS_SCHEMA: dict[str, pl.DataType] = {
    "benchmark": pl.Utf8(),
    "system": pl.Utf8(),
    "k": pl.Int64(),
    "tasks": pl.Int64(),
    "tasks_too_few": pl.Int64(),
    "pass_at_k": pl.Float64(),
    "pass_hat_k": pl.Float64(),
}
CALIBRATION_SCHEMA: dict[str, pl.DataType] = {
    "benchmark": pl.Utf8(),
    "system": pl.Utf8(),
    "n": pl.Int64(),
    "brier": pl.Float64(),
    "threshold": pl.Float64(),
    "accepted": pl.Int64(),
    "coverage": pl.Float64(),
    "risk": pl.Float64(),
}


def pass_at_k_table(
    scores: pl.DataFrame, ks: Sequence[int] = DEFAULT_KS, include_indicative: bool = False
) -> pl.DataFrame:
    """Per (benchmark, system, k): mean pass@k and pass^k over the etalons with at least k scored attempts.

    Success is a positive verdict; errored attempts are left out like everywhere else (they have no score).
    Only (benchmark, system) cells where some etalon has more than one attempt appear, and only the k that at
    least one etalon reaches; `tasks_too_few` counts the etalons skipped for having fewer than k attempts."""
    if any(k < 1 for k in ks):
        raise ValueError(f"ks must be positive integers, got {list(ks)}")
    rows = prepare_scores(scores).filter(pl.col("score").is_not_null() & (pl.col("status") != "error"))
    if not include_indicative:
        rows = rows.filter(~pl.col("indicative"))
    tasks = rows.group_by("benchmark", "system", "code", "version").agg(
        pl.len().cast(pl.Int64).alias("n"), (pl.col("verdict") == "positive").sum().cast(pl.Int64).alias("c")
    )
    multi = (
        tasks.group_by("benchmark", "system").agg(pl.col("n").max().alias("_max")).filter(pl.col("_max") > 1)
    )
    tasks = tasks.join(multi.select("benchmark", "system"), on=["benchmark", "system"])
    if tasks.height == 0:
        return pl.DataFrame(schema=PASS_SCHEMA)
    per_k = tasks.join(pl.DataFrame({"k": list(ks)}, schema={"k": pl.Int64}), how="cross")
    eligible = per_k.filter(pl.col("n") >= pl.col("k"))
    distinct = eligible.select("n", "c", "k").unique()
    values = distinct.with_columns(
        pl.Series("_at", [pass_at_k(n, c, k) for n, c, k in distinct.iter_rows()], dtype=pl.Float64),
        pl.Series("_hat", [pass_hat_k(n, c, k) for n, c, k in distinct.iter_rows()], dtype=pl.Float64),
    )
    means = (
        eligible.join(values, on=["n", "c", "k"])
        .group_by("benchmark", "system", "k")
        .agg(
            pl.len().cast(pl.Int64).alias("tasks"),
            pl.col("_at").mean().alias("pass_at_k"),
            pl.col("_hat").mean().alias("pass_hat_k"),
        )
    )
    skipped = per_k.group_by("benchmark", "system", "k").agg(
        (pl.col("n") < pl.col("k")).sum().cast(pl.Int64).alias("tasks_too_few")
    )
    table = skipped.join(means, on=["benchmark", "system", "k"], how="inner")  # a k no etalon reaches: no row
    return table.select(list(PASS_SCHEMA)).sort("benchmark", "system", "k")


def calibration(
    scores: pl.DataFrame, thresholds: Sequence[float] = DEFAULT_THRESHOLDS, include_indicative: bool = False
) -> pl.DataFrame:
    """Per (benchmark, system, threshold) for systems that reported a confidence: Brier score over the answers
    (outcome = positive verdict), and the coverage and risk of accepting only answers at or above the
    threshold. Risk is null on an empty selection: undefined, not zero."""
    rows = prepare_scores(scores).filter(
        pl.col("confidence").is_not_null() & pl.col("verdict").is_not_null() & (pl.col("status") != "error")
    )
    if not include_indicative:
        rows = rows.filter(~pl.col("indicative"))
    bad = rows.filter((pl.col("confidence") < 0) | (pl.col("confidence") > 1))
    if bad.height:
        first = bad.row(0, named=True)
        raise ValueError(
            f"scores: field confidence must be a probability in [0, 1]; got {first['confidence']} for system "
            f"{first['system']}, etalon {first['code']} (and {bad.height - 1} more)"
        )
    out: dict[str, list[object]] = {c: [] for c in CALIBRATION_SCHEMA}
    for (benchmark, system), group in rows.group_by(["benchmark", "system"], maintain_order=True):
        q = group["confidence"].to_numpy()
        y = (group["verdict"] == "positive").to_numpy().astype(np.float64)
        brier = brier_score(q.tolist(), y.tolist())
        for threshold in thresholds:
            accepted = q >= threshold
            count = int(accepted.sum())
            risk = float((1 - y[accepted]).mean()) if count else None
            for column, value in zip(
                CALIBRATION_SCHEMA,
                [benchmark, system, len(q), brier, float(threshold), count, count / len(q), risk],
                strict=True,
            ):
                out[column].append(value)
    return pl.DataFrame(out, schema=CALIBRATION_SCHEMA).sort("benchmark", "system", "threshold")

"""The audit's tables: the sample, its review items, the corrected leaderboard and the judge's error per kind.

Pure functions over polars frames of what the scores stage stored per answer (`audit_cells`, `audit_targets`):
the analytics stage calls them per benchmark, and the fast path of an audit label calls them again, so both give
the same rows. The statistics are in evaluation.ppi.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from evaluation.audit.sample import AuditSettings
from evaluation.ppi import Estimate, PPIResult, ppi_half_width, ppi_mean, ppi_sample_size, weighted_rate

MIN_AUDITED = 10   # fewer audited answers than this in a row: its corrected figure is flagged as meaning little
VERDICTS = ("positive", "partial", "negative")


def _schema(table: str) -> dict[str, pl.DataType]:
    """The polars schema of a lake table, from its typed record (warehouse.tables): one definition of columns."""
    from warehouse.tables import TABLES

    frame = pl.from_arrow(TABLES[table].empty_table())
    assert isinstance(frame, pl.DataFrame)
    return dict(frame.schema)


AUDIT_WHY = ("audit sample: a random check of what the judge settled on its own; decide it from the answer "
             "and the sources (the judge's conclusion is shown once you have)")

SAMPLE_SCHEMA = _schema("audit_sample")


def sample(cells: pl.DataFrame, settings: AuditSettings | None) -> pl.DataFrame:
    """One row per current scored answer (errors left out) with its place in the draw.

    `cells`: audit_cells rows joined with their scores (`score`, `status`) and `indicative`. The draw is
    evaluation.audit.sample.draw's, computed on columns (a test keeps the two equal)."""
    frame = cells.filter((pl.col("status") != "error") & pl.col("judge_score").is_not_null()) \
        if cells.height else cells
    if frame.is_empty():
        return pl.DataFrame(schema=SAMPLE_SCHEMA)
    frame = frame.with_row_index("_row")
    if settings is None:
        placed = frame.with_columns(pl.lit(None, dtype=pl.Float64).alias("inclusion"))
    else:
        kinds = (frame.select("_row", "system", "audit_hash",
                              pl.col("kinds").str.json_decode(pl.List(pl.Utf8)).alias("kind"))
                 .explode("kind").filter(pl.col("kind").is_not_null()))
        k = settings.min_per_stratum
        by = ["system", "kind"]
        if k <= 0:
            thresholds = kinds.with_columns(pl.lit(0.0).alias("_t"))
        else:   # a stratum of at most K answers is audited whole; else its (K+1)-th smallest number
            strata = kinds.group_by(by).agg(
                pl.when(pl.len() <= k).then(pl.lit(1.0))
                .otherwise(pl.col("audit_hash").bottom_k(k + 1).max()).alias("_t"))
            thresholds = kinds.join(strata, on=by, how="left")
        per_row = thresholds.group_by("_row").agg(pl.col("_t").max())
        placed = frame.join(per_row, on="_row", how="left").with_columns(
            pl.when(pl.col("_t").is_null()).then(None)
            .otherwise(pl.max_horizontal(pl.lit(settings.rate), pl.col("_t")).clip(upper_bound=1.0))
            .alias("inclusion"))
    out = placed.with_columns(
        (pl.col("inclusion").is_not_null() & (pl.col("audit_hash") < pl.col("inclusion"))).fill_null(False)
        .alias("sampled"))
    out = out.with_columns((pl.col("sampled") & (pl.col("covered") >= pl.col("targets"))).alias("complete"))
    return out.select(list(SAMPLE_SCHEMA)).cast(pl.Schema(SAMPLE_SCHEMA)).sort(
        "system", "code", "version", "attempt")


ITEM_SCHEMA = _schema("audit_items")


def items(drawn: pl.DataFrame, targets: pl.DataFrame) -> pl.DataFrame:
    """Every target of every drawn answer: the audit's review items (`covered`: a lawyer's value is in)."""
    picked = drawn.filter(pl.col("sampled")).select("system", "code", "version", "attempt")
    if picked.is_empty() or targets.is_empty():
        return pl.DataFrame(schema=ITEM_SCHEMA)
    rows = targets.join(picked, on=["system", "code", "version", "attempt"], how="inner")
    out = rows.select(
        pl.concat_str([pl.col("system"), pl.col("code"), pl.col("version"), pl.col("attempt").cast(pl.Utf8),
                       pl.col("target")], separator=":").alias("id"),
        "benchmark", "system", "code", "version", pl.col("attempt").cast(pl.Int64), "target", "kind",
        pl.lit(AUDIT_WHY).alias("why"), "options", pl.lit("audit").alias("situation"),
        pl.col("human").is_not_null().alias("covered"))
    return out.cast(pl.Schema(ITEM_SCHEMA)).sort("system", "code", "attempt", "target")


def _clip(value: float | None, low: float, high: float) -> float | None:
    return None if value is None else min(high, max(low, value))


def _figures(result: PPIResult, which: str, scale: float) -> dict[str, float | None]:
    estimate: Estimate = getattr(result, which)
    return {"value": estimate.value, "low": _clip(estimate.low, 0.0, scale), "high": _clip(estimate.high, 0.0, scale)}


def _one(rows: pl.DataFrame, settings: AuditSettings | None) -> dict[str, Any]:
    """The corrected figures of one leaderboard row (a benchmark, methodology, system and signature state)."""
    known = (rows["targets"] == 0).to_numpy()
    complete = rows["complete"].to_numpy().astype(bool)
    labeled = known | complete
    inclusion = rows["inclusion"].fill_null(1.0).to_numpy()
    weights = np.where(known, 1.0, 1.0 / np.maximum(inclusion, 1e-12))
    clusters = rows["code"].rank("dense").cast(pl.Int64).to_numpy()
    strata = known.astype(np.int64)

    def estimate(f: Any, y: pl.Series) -> PPIResult:
        labels = np.where(labeled, y.cast(pl.Float64).fill_null(np.nan).to_numpy(), np.nan)
        return ppi_mean(np.asarray(f, dtype=np.float64), labels, weights=weights, clusters=clusters, strata=strata)

    score = estimate(rows["judge_score"].to_numpy(), rows["human_score"])
    out: dict[str, Any] = {
        "n": rows.height, "etalons": rows["code"].n_unique(), "judged": int((~known).sum()),
        "sampled": int(rows["sampled"].sum()), "audited": int((complete & ~known).sum()),
        "lam": score.lam,
    }
    judge, corrected = _figures(score, "judge", 100.0), _figures(score, "corrected", 100.0)
    out.update(mean_score_judge=judge["value"], ci_low_judge=judge["low"], ci_high_judge=judge["high"],
               mean_score_corrected=corrected["value"], ci_low_corrected=corrected["low"],
               ci_high_corrected=corrected["high"])
    for verdict in VERDICTS:
        f = (rows["judge_verdict"] == verdict).fill_null(False).cast(pl.Float64).to_numpy()
        rate = estimate(f, rows["human_verdict"] == verdict)
        j, c = _figures(rate, "judge", 1.0), _figures(rate, "corrected", 1.0)
        out.update({f"{verdict}_rate_judge": j["value"], f"{verdict}_low_judge": j["low"],
                    f"{verdict}_high_judge": j["high"], f"{verdict}_rate_corrected": c["value"],
                    f"{verdict}_low_corrected": c["low"], f"{verdict}_high_corrected": c["high"]})
    out["too_few_audit"] = out["judged"] > 0 and out["audited"] < MIN_AUDITED
    half = score.corrected.half_width
    out["half_width"] = half
    out["half_width_if_doubled"] = ppi_half_width(score, 2 * out["audited"]) if out["audited"] else None
    target = settings.target_half_width if settings is not None else None
    out["target_half_width"] = target
    more = None
    if target is not None and score.residual_variance is not None and score.floor_variance is not None:
        needed = ppi_sample_size(score.residual_variance, target, floor_variance=score.floor_variance,
                                 population=score.population)
        more = None if needed is None else max(0, needed - out["audited"])
    out["more_audited_for_target"] = more
    return out


CORRECTED_KEYS = ("benchmark", "methodology", "system", "indicative")


def corrected_schema() -> dict[str, pl.DataType]:
    return _schema("leaderboard_corrected")


def corrected(drawn: pl.DataFrame, settings: AuditSettings | None) -> pl.DataFrame:
    """eval.leaderboard_corrected: per benchmark, methodology, system and signature state, the judge-only and
    the corrected mean score and verdict rates, with the audit's size and the planner's figures."""
    schema = corrected_schema()
    if drawn.is_empty():
        return pl.DataFrame(schema=schema)
    rows = []
    for key, part in drawn.sort("system", "code", "version", "attempt").group_by(
            list(CORRECTED_KEYS), maintain_order=True):
        values = _one(part, settings)
        rows.append({**dict(zip(CORRECTED_KEYS, key, strict=True)), **values})
    frame = pl.DataFrame(rows, schema=schema) if rows else pl.DataFrame(schema=schema)
    return frame.sort("benchmark", "methodology", "indicative", "mean_score_judge", "system",
                      descending=[False, False, False, True, False], nulls_last=True)


ERROR_SCHEMA = _schema("judge_error")


def _rank(options: str, value: str | None) -> int:
    listed: Sequence[str] = json.loads(options or "[]")
    return listed.index(value) if value in listed else -1


def _ranks(frame: pl.DataFrame, column: str) -> Any:
    """The position of each row's value among its options (best first), computed once per distinct pair."""
    pairs = frame.select("options", column).unique()
    table = pairs.with_columns(pl.Series("_rank", [_rank(o, v) for o, v in pairs.iter_rows()], dtype=pl.Int64))
    return frame.select("options", column).join(table, on=["options", column], how="left",
                                                maintain_order="left")["_rank"].to_numpy()


def judge_error(benchmark: str, drawn: pl.DataFrame, targets: pl.DataFrame) -> pl.DataFrame:
    """eval.judge_error: per element kind, how often the judge's automatic conclusion differs from the lawyer's
    value, over the audited targets, each weighted by the inverse of its answer's inclusion probability.

    `judge_yes_human_no`: the judge gave the first (better, or "yes") of the element's options above the
    lawyer's; `judge_no_human_yes` below. For yes/no elements that is literally yes against no."""
    if targets.is_empty():
        return pl.DataFrame(schema=ERROR_SCHEMA)
    keys = ["system", "code", "version", "attempt"]
    placed = targets.join(drawn.select(*keys, "inclusion", "sampled"), on=keys, how="inner")
    rows = []
    for (kind,), part in placed.sort("kind", *keys, "target").group_by(["kind"], maintain_order=True):
        picked = part.filter(pl.col("sampled"))
        audited = picked.filter(pl.col("human").is_not_null())
        row: dict[str, Any] = {"benchmark": benchmark, "kind": kind, "elements": part.height,
                               "sampled": picked.height, "audited": audited.height,
                               "too_few_audit": audited.height < MIN_AUDITED}
        if audited.height:
            weights = (1.0 / audited["inclusion"].to_numpy())
            a, h = _ranks(audited, "automatic"), _ranks(audited, "human")
            rate, low, high = weighted_rate((a != h).astype(np.float64), weights)
            row.update(error_rate=rate, error_low=low, error_high=high,
                       judge_yes_human_no=weighted_rate((a < h).astype(np.float64), weights)[0],
                       judge_no_human_yes=weighted_rate((a > h).astype(np.float64), weights)[0])
        rows.append(row)
    frame = pl.DataFrame(rows, schema=ERROR_SCHEMA, infer_schema_length=None) if rows else \
        pl.DataFrame(schema=ERROR_SCHEMA)
    return frame.sort("kind")

"""eval.judge_agreement and the swap protocol: auditing the model that does the judging.

A judge is a model with its own preferences (docs/methodologies.md, "The judge"). Two independent runs that disagree, or a
judge that a human overrules, are measured per element kind (the element id before ':', e.g. "branch" for
"branch:2"), as a raw rate and as Cohen's kappa, which discounts the agreement label frequencies give by
chance.
"""

from __future__ import annotations

import polars as pl

from evaluation.analytics.common import require_columns

ANSWER_KEY = ("system", "code", "version", "attempt")
JUDGMENT_COLUMNS = (*ANSWER_KEY, "element", "run", "verdict")
DECISION_COLUMNS = (*ANSWER_KEY, "target", "decision", "decided_at", "revoked_at")
AGREEMENT_SCHEMA: dict[str, pl.DataType] = {
    "kind": pl.Utf8(),
    "elements": pl.Int64(),
    "missing_verdicts": pl.Int64(),
    "run_pairs": pl.Int64(),
    "run_agreement": pl.Float64(),
    "run_kappa": pl.Float64(),
    "human_pairs": pl.Int64(),
    "human_agreement": pl.Float64(),
    "human_kappa": pl.Float64(),
}


def effective_decisions(decisions: pl.DataFrame) -> pl.DataFrame:
    """The human decision in force per target: the latest one not revoked."""
    require_columns(decisions, "decisions", DECISION_COLUMNS)
    if "kind" in decisions.columns:  # a disagreement disputes a conclusion; it is no value to compare with
        decisions = decisions.filter(pl.col("kind").is_null() | (pl.col("kind") != "disagreement"))
    return (
        decisions.filter(pl.col("revoked_at").is_null())
        .sort("decided_at")
        .unique([*ANSWER_KEY, "target"], keep="last")
        .select(
            *ANSWER_KEY, pl.col("target").alias("element"), pl.col("decision").cast(pl.Utf8).alias("human")
        )
    )


def _run_pairs(judgments: pl.DataFrame) -> pl.DataFrame:
    """One row per judged element with the verdicts of its first two runs (by run number)."""
    require_columns(judgments, "judgments", JUDGMENT_COLUMNS)
    ranked = (
        judgments.with_columns(pl.col("verdict").cast(pl.Utf8))
        .sort("run")
        .with_columns(pl.col("run").rank("ordinal").over([*ANSWER_KEY, "element"]).alias("_i"))
    )
    first = ranked.filter(pl.col("_i") == 1).select(
        *ANSWER_KEY, "element", pl.col("verdict").alias("verdict_1")
    )
    second = ranked.filter(pl.col("_i") == 2).select(
        *ANSWER_KEY, "element", pl.col("verdict").alias("verdict_2")
    )
    return first.join(second, on=[*ANSWER_KEY, "element"], how="left").with_columns(
        pl.col("element").str.split(":").list.first().alias("kind")
    )


def _kappa_by_kind(pairs: pl.DataFrame, left: str, right: str, prefix: str) -> pl.DataFrame:
    """Agreement rate and Cohen's kappa per kind, from the confusion counts (not a Python loop per row)."""
    total = pairs.group_by("kind").agg(
        pl.len().alias("_total"), (pl.col(left) == pl.col(right)).sum().alias("_same")
    )
    marg_l = pairs.group_by("kind", pl.col(left).alias("_label")).agg(pl.len().alias("_l"))
    marg_r = pairs.group_by("kind", pl.col(right).alias("_label")).agg(pl.len().alias("_r"))
    chance = (
        marg_l.join(marg_r, on=["kind", "_label"])
        .join(total, on="kind")
        .group_by("kind")
        .agg((pl.col("_l") * pl.col("_r") / (pl.col("_total") ** 2)).sum().alias("_pe"))
    )
    result = total.join(chance, on="kind", how="left").with_columns(pl.col("_pe").fill_null(0.0))
    observed = pl.col("_same") / pl.col("_total")
    return result.select(
        "kind",
        pl.col("_total").cast(pl.Int64).alias(f"{prefix}_pairs"),
        observed.alias(f"{prefix}_agreement"),
        pl.when(pl.col("_pe") < 1.0 - 1e-12)
        .then((observed - pl.col("_pe")) / (1.0 - pl.col("_pe")))
        .otherwise(None)
        .alias(f"{prefix}_kappa"),
    )


def judge_agreement(judgments: pl.DataFrame, decisions: pl.DataFrame) -> pl.DataFrame:
    """Per element kind: run-vs-run agreement and kappa (elements whose two runs both gave a verdict), and
    judge-vs-human agreement and kappa (every run verdict against the decision in force on that element).
    `missing_verdicts` counts runs that gave none (parse or model errors)."""
    runs = _run_pairs(judgments)
    counts = runs.group_by("kind").agg(pl.len().cast(pl.Int64).alias("elements"))
    missing = (
        judgments.with_columns(pl.col("element").str.split(":").list.first().alias("kind"))
        .group_by("kind")
        .agg(pl.col("verdict").is_null().sum().cast(pl.Int64).alias("missing_verdicts"))
    )
    run_stats = _kappa_by_kind(runs.drop_nulls(["verdict_1", "verdict_2"]), "verdict_1", "verdict_2", "run")
    human_pairs = (
        judgments.filter(pl.col("verdict").is_not_null())
        .with_columns(
            pl.col("verdict").cast(pl.Utf8), pl.col("element").str.split(":").list.first().alias("kind")
        )
        .join(effective_decisions(decisions), on=[*ANSWER_KEY, "element"])
    )
    human_stats = _kappa_by_kind(human_pairs, "verdict", "human", "human")
    table = (
        counts.join(missing, on="kind", how="left")
        .join(run_stats, on="kind", how="left")
        .join(human_stats, on="kind", how="left")
        .with_columns(pl.col("run_pairs").fill_null(0), pl.col("human_pairs").fill_null(0))
    )
    return table.select(list(AGREEMENT_SCHEMA)).cast(pl.Schema(AGREEMENT_SCHEMA)).sort("kind")


def disagreements(judgments: pl.DataFrame, decisions: pl.DataFrame, kind: str | None = None) -> pl.DataFrame:
    """The judged elements an auditor should look at: runs that disagree, a run without a verdict, or a judge
    verdict that the human decision in force contradicts. `reason` says which (several joined by '; ')."""
    runs = _run_pairs(judgments).join(effective_decisions(decisions), on=[*ANSWER_KEY, "element"], how="left")
    if kind is not None:
        runs = runs.filter(pl.col("kind") == kind)
    v1, v2, human = pl.col("verdict_1"), pl.col("verdict_2"), pl.col("human")
    reasons = (
        pl.concat_list(
            pl.when(v1.is_not_null() & v2.is_not_null() & (v1 != v2)).then(pl.lit("runs disagree")),
            pl.when(v1.is_null() | v2.is_null()).then(pl.lit("a run gave no verdict")),
            pl.when(
                human.is_not_null()
                & ((v1.is_not_null() & (v1 != human)) | (v2.is_not_null() & (v2 != human)))
            ).then(pl.lit("judge differs from human")),
        )
        .list.drop_nulls()
        .list.join("; ")
    )
    return (
        runs.with_columns(reasons.alias("reason"))
        .filter(pl.col("reason") != "")
        .select("kind", *ANSWER_KEY, "element", "verdict_1", "verdict_2", "human", "reason")
        .sort("kind", *ANSWER_KEY, "element")
    )

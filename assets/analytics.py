"""The analysts' tables over all scores, and the report people look at."""

from collections.abc import Iterator
from typing import Any

import polars as pl
from dagster import AssetExecutionContext, AssetSpec, MaterializeResult, MetadataValue, asset, multi_asset

from pipelines.automation import on_change
from pipelines.resources import EtalonWarehouse
from warehouse.catalog import memory_catalog, query
from warehouse.lake import Lake

TABLES = ("leaderboard", "leaderboard_indicative", "slices", "paired", "judge_agreement", "judge_disagreements",
          "pass_at_k", "calibration")


def read_tables(lake: Lake) -> dict[str, pl.DataFrame]:
    """Current scores (through the same views analysts query), judgments and decisions."""
    con = memory_catalog(lake)
    try:
        scores = query(con, "SELECT * FROM eval.scores WHERE is_current")
        judgments = query(con, "SELECT * FROM eval.judgments")
        decisions = query(con, "SELECT * FROM eval.decisions")
    finally:
        con.close()
    return {"scores": scores, "judgments": judgments, "decisions": decisions}


def compute(tables: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    from evaluation import analytics

    scores = tables["scores"]
    return {
        "leaderboard": analytics.leaderboard(scores),
        "leaderboard_indicative": analytics.leaderboard(scores, include_indicative=True),
        "slices": analytics.slices(scores),
        "paired": analytics.paired(scores),
        "judge_agreement": analytics.judge_agreement(tables["judgments"], tables["decisions"]),
        "judge_disagreements": analytics.disagreements(tables["judgments"], tables["decisions"]),
        "pass_at_k": analytics.pass_at_k(scores),
        "calibration": analytics.calibration(scores),
    }


@multi_asset(
    specs=[AssetSpec(name, group_name="analytics", deps=["scores", "signatures"],
                     automation_condition=on_change(ignore_missing=["signatures"]))
           for name in TABLES],
    can_subset=True,
    description="Leaderboard with intervals, slices, paired comparisons, judge agreement, pass@k, calibration.",
)
def analytics_tables(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[MaterializeResult[None]]:
    lake = warehouse.lake()
    results = compute(read_tables(lake))
    for name in context.selected_output_names:
        frame = results[name]
        lake.write(name, (), frame.to_arrow())
        yield MaterializeResult(asset_key=name, metadata={
            "rows": frame.height, "preview": MetadataValue.md(_markdown(frame.head(20)))})


def _markdown(frame: pl.DataFrame) -> str:
    if frame.is_empty():
        return "(empty)"
    cols = frame.columns[:12]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.select(cols).iter_rows():
        lines.append("| " + " | ".join(_cell(v) for v in row) + " |")
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3g}"
    return "" if value is None else str(value)


@asset(deps=list(TABLES), group_name="analytics", automation_condition=on_change(),
       description="A static HTML report ($ETALON_HOME/report/index.html) with the leaderboard and its plots.")
def report(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> MaterializeResult[None]:
    from evaluation.report import build_report

    path = build_report(warehouse.paths(), warehouse.lake())
    return MaterializeResult(metadata={"path": str(path)})

"""The evaluation cells (etalon x system): answers, citations, judgments, scores.

One run can serve many cells (single-run backfill policy), so a full evaluation is a handful of runs rather
than thousands; each cell still records its own data version, so automation follows cell by cell.
"""

from collections.abc import Callable, Iterator

from dagster import (
    AllPartitionMapping,
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetDep,
    AssetExecutionContext,
    BackfillPolicy,
    MultiToSingleDimensionPartitionMapping,
    Output,
    asset,
    asset_check,
)

from assets._emit import NOTHING, emit
from evaluation.cells import RunContext, answer_cell, cite_cell, judge_cell
from evaluation.client import ModelClient
from evaluation.scoring_cell import score_cell
from evaluation.systems import SystemsFile, load_systems
from pipelines.automation import on_change
from pipelines.partitions import CELLS, split_cell
from pipelines.resources import EtalonWarehouse

_BY_ETALON = MultiToSingleDimensionPartitionMapping(partition_dimension_name="etalon")
_BY_SYSTEM = MultiToSingleDimensionPartitionMapping(partition_dimension_name="system")
_SINGLE_RUN = BackfillPolicy.single_run()


def run_context(warehouse: EtalonWarehouse) -> RunContext:
    home = warehouse.paths()
    systems = load_systems(home.systems_file) if home.systems_file.exists() else SystemsFile()
    return RunContext(lake=warehouse.lake(), home=home, systems=systems,
                      client=ModelClient(cache_root=home.calls_cache))


def _over_cells(context: AssetExecutionContext, warehouse: EtalonWarehouse,
                stage: Callable[[RunContext, str, str], str]) -> Iterator[Output[None]]:
    ctx = run_context(warehouse)
    versions = {}
    for key in context.partition_keys:
        code, system = split_cell(key)
        versions[key] = stage(ctx, code, system)
    stats = ctx.client.stats.as_dict()
    yield from emit(context, versions, {"cells": len(versions), **{f"calls_{k}": v for k, v in stats.items()}})


@asset(dagster_type=NOTHING, partitions_def=CELLS, backfill_policy=_SINGLE_RUN, group_name="evaluation",
       deps=[AssetDep("etalons", partition_mapping=_BY_ETALON),
             AssetDep("system_configs", partition_mapping=_BY_SYSTEM)],
       automation_condition=on_change(),
       description="One stored answer per (question version, system, attempt); only the case is sent.")
def answers(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    yield from _over_cells(context, warehouse, answer_cell)


@asset(dagster_type=NOTHING, partitions_def=CELLS, backfill_policy=_SINGLE_RUN, group_name="evaluation",
       deps=["answers", AssetDep("corpus", partition_mapping=AllPartitionMapping())],
       automation_condition=on_change(),
       description="Citations extracted from each answer and resolved against the corpus.")
def citations(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    yield from _over_cells(context, warehouse, cite_cell)


@asset(dagster_type=NOTHING, partitions_def=CELLS, backfill_policy=_SINGLE_RUN, group_name="evaluation",
       deps=["citations", AssetDep("etalon_sources", partition_mapping=_BY_ETALON), "judge_config"],
       automation_condition=on_change(wait_for_checks=False),
       description="Two independent judge runs per element, yes/no with a checked literal quote.")
def judgments(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    yield from _over_cells(context, warehouse, judge_cell)


@asset(dagster_type=NOTHING, partitions_def=CELLS, backfill_policy=_SINGLE_RUN, group_name="evaluation",
       deps=["judgments", "reviews"],
       automation_condition=on_change(ignore_missing=["reviews", "judge_config"], code_version=True),
       code_version="scoring-1",
       description="Score, verdict and status of every answer under its etalon's methodology.")
def scores(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    yield from _over_cells(context, warehouse, score_cell)


@asset_check(asset=answers, description="No stored answer contains a benchmark's canary (a private-set leak).")
def no_canary_in_answers(context: AssetCheckExecutionContext, warehouse: EtalonWarehouse) -> AssetCheckResult:
    from etalons.canary import find_leaks

    lake = warehouse.lake()
    canaries = {r["id"]: r["canary"] for r in lake.read_all("benchmarks").to_pylist() if r.get("canary")}
    rows = lake.read_all("answers").select(["system", "code", "text"]).to_pylist()
    leaks = find_leaks(((r["system"], r["code"], r["text"] or "") for r in rows), canaries)
    systems = sorted({leak.system for leak in leaks})
    return AssetCheckResult(passed=not leaks, metadata={
        "leaks": len(leaks), "systems": ", ".join(systems) or "none",
        "cells": ", ".join(f"{leak.system}/{leak.code}" for leak in leaks[:20]) or "none"})

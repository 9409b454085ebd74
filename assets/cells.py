"""The cells, one partition per benchmark shard and system: answers, citations, judgments, scores.

A cell (etalon version x system x attempt) is a row; a run reconciles whole partitions, recomputing only the
rows whose inputs changed, so one run serves any number of cells.
"""


from collections.abc import Iterator

from dagster import (
    AllPartitionMapping,
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetDep,
    AssetExecutionContext,
    AssetKey,
    BackfillPolicy,
    MultiToSingleDimensionPartitionMapping,
    Output,
    asset,
    asset_check,
)

from assets._run import NOTHING, run_stage
from evaluation.engine.stages import answers as answers_stage
from evaluation.engine.stages import citations as citations_stage
from evaluation.engine.stages import judgments as judgments_stage
from evaluation.engine.stages import scores as scores_stage
from pipelines.partitions import CELLS
from pipelines.resources import EtalonWarehouse

_BY_SHARD = MultiToSingleDimensionPartitionMapping(partition_dimension_name="shard")
_BY_SYSTEM = MultiToSingleDimensionPartitionMapping(partition_dimension_name="system")
_SINGLE_RUN = BackfillPolicy.single_run()


@asset(dagster_type=NOTHING, partitions_def=CELLS, backfill_policy=_SINGLE_RUN, group_name="cells", code_version=answers_stage.VERSION,
       deps=[AssetDep("etalons", partition_mapping=_BY_SHARD),
             AssetDep("system_configs", partition_mapping=_BY_SYSTEM)],
       description="One stored answer per (etalon version, system, attempt); only the case is sent.")
def answers(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    yield from run_stage(context, warehouse, "answers", [AssetKey("answers")])


@asset(dagster_type=NOTHING, partitions_def=CELLS, backfill_policy=_SINGLE_RUN, group_name="cells", code_version=citations_stage.VERSION,
       deps=["answers", AssetDep("corpus", partition_mapping=AllPartitionMapping())],
       description="Citations of every answer resolved against the corpus; invented ones are not_found.")
def citations(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    yield from run_stage(context, warehouse, "citations", [AssetKey("citations")])


@asset(dagster_type=NOTHING, partitions_def=CELLS, backfill_policy=_SINGLE_RUN, group_name="cells", code_version=judgments_stage.VERSION,
       deps=["citations", AssetDep("etalon_sources", partition_mapping=_BY_SHARD), "judge_config"],
       description="Candidates, and two independent judge runs per element with a checked literal quote.")
def judgments(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    yield from run_stage(context, warehouse, "judgments", [AssetKey("judgments")])


@asset(dagster_type=NOTHING, partitions_def=CELLS, backfill_policy=_SINGLE_RUN, group_name="cells", code_version=scores_stage.VERSION,
       deps=["judgments", "reviews", AssetDep("benchmark_settings", partition_mapping=_BY_SHARD)],
       description="Score, verdict and status of every answer under its etalon's methodology, with human decisions.")
def scores(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    yield from run_stage(context, warehouse, "scores", [AssetKey("scores")])


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

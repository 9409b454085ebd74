"""Etalons, one partition per benchmark shard: their versions, and their sources resolved against the corpus."""


from collections.abc import Iterator

from dagster import (
    AllPartitionMapping,
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetDep,
    AssetExecutionContext,
    AssetKey,
    BackfillPolicy,
    Output,
    asset,
    asset_check,
)

from assets._run import NOTHING, run_stage
from evaluation.engine.keys import Shard
from evaluation.engine.stages.etalons import VERSION as ETALONS_VERSION
from evaluation.engine.stages.sources import VERSION as SOURCES_VERSION
from pipelines.partitions import SHARDS
from pipelines.resources import EtalonWarehouse


@asset(dagster_type=NOTHING, partitions_def=SHARDS, backfill_policy=BackfillPolicy.single_run(), deps=["etalon_files"],
       group_name="etalons", code_version=ETALONS_VERSION,
       description="Every version of every etalon of the shard; removing a file archives its etalon.")
def etalons(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    yield from run_stage(context, warehouse, "etalons", [AssetKey("etalons")])


@asset(dagster_type=NOTHING, partitions_def=SHARDS, backfill_policy=BackfillPolicy.single_run(),
       deps=["etalons", AssetDep("corpus", partition_mapping=AllPartitionMapping())],
       group_name="etalons", code_version=SOURCES_VERSION,
       description="The sources of every current etalon resolved against the corpus (bench.sources).")
def etalon_sources(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    yield from run_stage(context, warehouse, "sources", [AssetKey("etalon_sources")])


@asset_check(asset=etalon_sources, partitions_def=SHARDS, blocking=False,
             description="Every source an etalon cites exists in the corpus: an etalon citing a missing source "
                         "cannot be signed (its cells are still evaluated, indicatively).")
def sources_in_corpus(context: AssetCheckExecutionContext, warehouse: EtalonWarehouse) -> AssetCheckResult:
    lake = warehouse.lake()
    bad = []
    for key in context.partition_keys:
        bad += [r for r in lake.read("etalon_sources", *Shard.parse(key).lake_key()).to_pylist()
                if r["status"] not in ("found", "unverifiable")]
    listing = "\n".join(f"- {r['code']} `{r['citation']}`: {r['status']} ({r['reason']})" for r in bad[:100])
    return AssetCheckResult(passed=not bad, metadata={"unresolved": len(bad), "sources": listing or "none"})

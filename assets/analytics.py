"""Per benchmark: verified signatures, the analysts' tables; and the report people read."""


from collections.abc import Iterator

from dagster import (
    AllPartitionMapping,
    AssetDep,
    AssetExecutionContext,
    AssetKey,
    AssetSpec,
    BackfillPolicy,
    Output,
    asset,
    multi_asset,
)

from assets._run import NOTHING, run_stage
from evaluation.engine.stages import analytics as analytics_stage
from evaluation.engine.stages import report as report_stage
from evaluation.engine.stages import signatures as signatures_stage
from evaluation.engine.stages.analytics import TABLES
from pipelines.partitions import BENCHMARKS
from pipelines.resources import EtalonWarehouse

_ALL = AllPartitionMapping()


@asset(dagster_type=NOTHING, partitions_def=BENCHMARKS, backfill_policy=BackfillPolicy.single_run(), group_name="analytics",
       code_version=signatures_stage.VERSION,
       deps=["signature_events", AssetDep("corpus", partition_mapping=_ALL)],
       description="Verified signatures (a forged or altered one is refused) and the signed etalons whose cited "
                   "units changed in the corpus since signing (bench.corpus_changes).")
def signatures(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    yield from run_stage(context, warehouse, "signatures", [AssetKey("signatures")])


@multi_asset(
    specs=[AssetSpec(name, group_name="analytics", partitions_def=BENCHMARKS, code_version=analytics_stage.VERSION,
                     deps=[AssetDep("scores", partition_mapping=_ALL), AssetDep("judgments", partition_mapping=_ALL),
                           "signatures"])
           for name in TABLES],
    partitions_def=BENCHMARKS,
    backfill_policy=BackfillPolicy.single_run(),
    can_subset=False,
    description="Leaderboard with intervals, slices, paired comparisons, judge agreement, pass@k, calibration.",
)
def analytics_tables(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    yield from run_stage(context, warehouse, "analytics", [AssetKey(name) for name in TABLES])


@asset(dagster_type=NOTHING, deps=[AssetDep(name, partition_mapping=_ALL) for name in TABLES], group_name="analytics",
       code_version=report_stage.VERSION,
       description="The report ($ETALON_HOME/report/): leaderboards, a page per system and per etalon.")
def report(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    yield from run_stage(context, warehouse, "report", [AssetKey("report")])

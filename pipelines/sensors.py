"""Under `dagster dev`: keep the warehouse current through the daemon, as `etalon update` does in one go.

The reconcile sensor records the inputs' versions, records the journal of human acts, plans the first stage
group that is not current and requests one run for it (the next tick plans the next group). A partition that is
missing or out of date for any reason — never materialised, a killed run, an input edited while nothing watched —
is planned, because the plan comes from the inputs and the engine's records, not from a cursor of events.
"""

from __future__ import annotations

from collections.abc import Iterator

from dagster import (
    DagsterRunStatus,
    DefaultSensorStatus,
    RunRequest,
    RunsFilter,
    SensorEvaluationContext,
    SkipReason,
    sensor,
)

from evaluation.engine.plan import plan_group
from evaluation.engine.run import InputsMissing, prelude
from evaluation.engine.stages import GROUPS
from evaluation.engine.world import World
from pipelines.dagster_internals import DEFER_TAG
from pipelines.partitions import GROUP_PARTITIONS
from pipelines.plans import PLAN_TAG, STAGE_ASSETS, write_plan
from warehouse.home import resolve_home

SENSOR_TAG = "etalon/sensor"


@sensor(minimum_interval_seconds=30, default_status=DefaultSensorStatus.RUNNING,
        description="Plans what differs from the inputs (etalon files, systems, corpus sources, decisions) and "
                    "requests one run for the first stage group that is not current.")
def reconcile_sensor(context: SensorEvaluationContext) -> Iterator[RunRequest | SkipReason]:
    from pipelines.journal import flush
    from pipelines.observe import observe

    running = context.instance.get_runs(filters=RunsFilter(
        tags={SENSOR_TAG: "reconcile"},
        statuses=[DagsterRunStatus.QUEUED, DagsterRunStatus.STARTING, DagsterRunStatus.STARTED]), limit=1)
    if running:
        yield SkipReason("a reconcile run is in progress")
        return
    home = resolve_home()
    flush(context.instance, home)
    world = World.open(home)
    try:
        prelude(world)
    except InputsMissing as exc:
        yield SkipReason(str(exc))
        return
    observe(context.instance, world)
    for group, stages in GROUPS:
        plan = plan_group(World.open(home), group)
        if not plan:
            continue
        tags = {DEFER_TAG: "true", SENSOR_TAG: "reconcile",
                PLAN_TAG: write_plan(home, {"group": group, "partitions": plan.partitions, "verify": {}})}
        definition = GROUP_PARTITIONS.get(group)
        if definition is not None:
            every = definition.get_partition_keys(dynamic_partitions_store=context.instance)
            tags.update({"dagster/asset_partition_range_start": every[0],
                         "dagster/asset_partition_range_end": every[-1]})
        keys = [name for stage in stages for name in STAGE_ASSETS[stage.name]]
        yield RunRequest(asset_selection=[_key(k) for k in keys], tags=tags)
        return
    yield SkipReason("everything is up to date")


def _key(name: str):  # type: ignore[no-untyped-def]
    from dagster import AssetKey

    return AssetKey(name)

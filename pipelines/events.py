"""Recording what the engine materialised, partition by partition, so that Dagster's UI tells the truth.

Every materialisation carries the partition's data version (the engine's output digest), the asset's code
version and its provenance: for each parent, the data version it had and a pointer into the event log taken
before the partition was computed. Dagster calls a partition current when no parent got a different data version
after that pointer — which is exactly when the engine's own inputs are unchanged. A step's events go to the
storage as one batch; acts outside a run (a review decision) are recorded as runless events from the journal.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dagster import (
    AssetExecutionContext,
    AssetKey,
    AssetMaterialization,
    AssetObservation,
    DagsterInstance,
    MetadataValue,
    Output,
)

from pipelines.dagster_internals import (
    CODE_VERSION_TAG,
    DATA_VERSION_IS_USER_PROVIDED_TAG,
    DATA_VERSION_TAG,
    NULL_EVENT_POINTER,
    DagsterEvent,
    DagsterEventBatchMetadata,
    generate_event_batch_id,
    get_input_data_version_tag,
    get_input_event_pointer_tag,
)

PARTITIONED = "partitioned"   # the stored input version of a partitioned parent: Dagster compares pointers there


@dataclass(frozen=True)
class Record:
    """One partition to record: its data version and what a data engineer reads at a glance."""

    partition: str | None
    data_version: str
    metadata: Mapping[str, Any]


def pointer(instance: DagsterInstance) -> int | None:
    """The newest event's storage id: what a computation saw of its parents is what was recorded up to here."""
    value = instance.event_log_storage.get_maximum_record_id()
    return int(value) if value is not None else None


def parent_tags(instance: DagsterInstance, parents: Iterable[tuple[AssetKey, bool, bool]],
                at: int | None) -> dict[str, str]:
    """The parents' part of the provenance Dagster reads back (beside the code and data version) for a
    materialisation: for each parent the version it had and a pointer into the event log. It is the same for
    every partition a step records, so a step reads the parents' latest versions once, not once a partition.

    `parents`: (key, partitioned, external) of each parent asset."""
    tags: dict[str, str] = {}
    for key, partitioned, external in parents:
        if partitioned:
            version = PARTITIONED
        else:
            record = instance.get_latest_data_version_record(key, external)
            version = _version_of(record) or "INITIAL"
        tags[get_input_data_version_tag(key)] = version
        tags[get_input_event_pointer_tag(key)] = str(at) if at else NULL_EVENT_POINTER
    return tags


def _version_of(record: Any) -> str | None:
    if record is None:
        return None
    tags = record.event_log_entry.tags or {}
    value = tags.get(DATA_VERSION_TAG)
    return str(value) if value is not None else None


def meta(values: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, str) and "\n" in value:
            out[key] = MetadataValue.md(value)
        elif isinstance(value, (str, int, float, bool)) or value is None:
            out[key] = value if value is not None else "-"
        else:
            out[key] = MetadataValue.json(value) if isinstance(value, (list, dict)) else str(value)
    return out


def in_step(context: AssetExecutionContext, key: AssetKey, records: Sequence[Record], at: int | None,
            summary: Mapping[str, Any]) -> Iterator[Output[None]]:
    """Record each partition the step computed, as one batch, then the step's Nothing output.

    The runner starts runs with Dagster's `defer_asset_events` tag, so Dagster writes no event of its own for
    the asset: the only materialisations are these, one per partition that was computed."""
    graph = context.assets_def
    parents = _parents(context, key)
    code_version = graph.code_versions_by_key.get(key) or context.run.run_id
    inherited = parent_tags(context.instance, parents, at) if records else {}
    events = []
    for record in records:
        tags = {CODE_VERSION_TAG: code_version, DATA_VERSION_TAG: record.data_version,
                DATA_VERSION_IS_USER_PROVIDED_TAG: "true", **inherited}
        events.append(AssetMaterialization(asset_key=key, partition=record.partition, tags=tags,
                                           metadata=meta(record.metadata)))
    if events:
        step, batch = context.get_step_execution_context(), generate_event_batch_id()  # type: ignore[no-untyped-call]
        for i, event in enumerate(events):
            DagsterEvent.asset_materialization(step, event, DagsterEventBatchMetadata(batch, i == len(events) - 1))
    yield Output(None, output_name=context.op_def.output_def_named(_output_name(context, key)).name,
                 metadata=meta(summary))


def _output_name(context: AssetExecutionContext, key: AssetKey) -> str:
    return str(context.assets_def.get_output_name_for_asset_key(key))


def _parents(context: AssetExecutionContext, key: AssetKey) -> list[tuple[AssetKey, bool, bool]]:
    graph = context.job_def.asset_layer.asset_graph
    node = graph.get(key)
    return [(p, graph.get(p).is_partitioned, graph.get(p).is_external) for p in sorted(node.parent_keys, key=str)]


def runless(instance: DagsterInstance, graph: Any, key: AssetKey, records: Sequence[Record]) -> None:
    """Record materialisations made outside a run (the journal of human acts)."""
    node = graph.get(key)
    parents = [(p, graph.get(p).is_partitioned, graph.get(p).is_external) for p in sorted(node.parent_keys, key=str)]
    code_version = node.code_version or "unversioned"
    at = pointer(instance)
    inherited = parent_tags(instance, parents, at) if records else {}
    for record in records:
        tags = {CODE_VERSION_TAG: code_version, DATA_VERSION_TAG: record.data_version,
                DATA_VERSION_IS_USER_PROVIDED_TAG: "true", **inherited}
        instance.report_runless_asset_event(AssetMaterialization(asset_key=key, partition=record.partition, tags=tags,
                                                                 metadata=meta(record.metadata)))


def observe(instance: DagsterInstance, key: AssetKey, versions: Mapping[str | None, str]) -> None:
    """New data versions of an input (an external asset): what its dependents are compared against."""
    for partition, version in versions.items():
        instance.report_runless_asset_event(AssetObservation(asset_key=key, partition=partition,
                                                             tags={DATA_VERSION_TAG: version}))

"""Recording what an asset wrote: one data version per partition, one event per partition.

Dagster gives a whole run one data version; Etalon needs one per partition so that automation re-runs only
the cells whose content changed. Etalon's runner therefore starts its runs with Dagster's
`dagster/defer_asset_events` tag (Dagster writes no planned or output events of its own) and each asset
records every partition it wrote here, once, with that partition's version: one stored event per partition
instead of three, which is most of the orchestration's cost per cell.

Runs started elsewhere (the UI, the automation daemon under `dagster dev`) carry no such tag: Dagster records
the output itself, and a run over several partitions adds each partition's version after it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from dagster import AssetExecutionContext, AssetMaterialization, DataVersion, MetadataValue, Nothing, Output
from dagster._core.events import DagsterEvent, DagsterEventBatchMetadata, generate_event_batch_id

from pipelines.automation import DATA_VERSION_TAG, DEFER_TAG

# Assets persist through the lake themselves: their Dagster output is Nothing, so no IO manager is involved
# (which also lets one run cover many partitions).
NOTHING: Any = Nothing
_USER_PROVIDED_TAG = "dagster/data_version_is_user_provided"
_CODE_VERSION_TAG = "dagster/code_version"


def emit(
    context: AssetExecutionContext, versions: Mapping[str, str], metadata: Mapping[str, Any] | None = None
) -> Iterator[Output[None]]:
    meta = {k: _meta(v) for k, v in (metadata or {}).items()}
    keys = _partition_keys(context)
    if context.run.tags.get(DEFER_TAG) == "true":
        yield from _own_events(context, keys, versions, meta)
        return
    if len(keys) <= 1:
        version = next(iter(versions.values()), None)
        yield Output(None, metadata=meta, data_version=DataVersion(version) if version else None)
        return
    yield Output(None, metadata=meta)
    for key in keys:
        if key in versions:
            context.log_event(AssetMaterialization(asset_key=context.asset_key, partition=key,
                                                   tags={DATA_VERSION_TAG: versions[key]}))


def _own_events(context: AssetExecutionContext, keys: list[str], versions: Mapping[str, str],
                meta: Mapping[str, Any]) -> Iterator[Output[None]]:
    """One event per partition, handed to the storage as one batch (one transaction on Etalon's storage).

    Dagster batches the events it writes for a step's output, but a step's own events only through its
    internal event API (pinned with dagster 1.13.27), which is what this uses. The run's summary rides on the
    output and on the first partition's event."""
    code_version = context.assets_def.code_versions_by_key.get(context.asset_key)
    base = {_CODE_VERSION_TAG: code_version} if code_version else {}
    targets: list[str | None] = [k for k in keys if k in versions] if keys else [None]
    events = []
    for i, key in enumerate(targets):
        version = versions.get(key) if key is not None else next(iter(versions.values()), None)
        tags = {**base, DATA_VERSION_TAG: version, _USER_PROVIDED_TAG: "true"} if version else dict(base)
        events.append(AssetMaterialization(asset_key=context.asset_key, partition=key, tags=tags,
                                           metadata=dict(meta) if i == 0 else None))
    step, batch = context.get_step_execution_context(), generate_event_batch_id()  # type: ignore[no-untyped-call]
    for i, event in enumerate(events):
        DagsterEvent.asset_materialization(step, event, DagsterEventBatchMetadata(batch, i == len(events) - 1))
    yield Output(None, metadata=dict(meta))


def _partition_keys(context: AssetExecutionContext) -> list[str]:
    try:
        return list(context.partition_keys)
    except Exception:  # unpartitioned asset
        return []


def _meta(value: Any) -> Any:
    if isinstance(value, str) and "\n" in value:
        return MetadataValue.md(value)
    return value

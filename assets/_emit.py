"""Recording what an asset wrote: one data version per partition, also in runs that cover many partitions.

Dagster gives a whole run one data version; Etalon needs one per partition so that automation re-runs only
the cells whose content changed. A run over several partitions therefore reports each partition's version as
its own materialization after the step's output.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from dagster import AssetExecutionContext, AssetMaterialization, DataVersion, MetadataValue, Nothing, Output

from pipelines.automation import DATA_VERSION_TAG

# Assets persist through the lake themselves: their Dagster output is Nothing, so no IO manager is involved
# (which also lets one run cover many partitions).
NOTHING: Any = Nothing


def emit(
    context: AssetExecutionContext, versions: Mapping[str, str], metadata: Mapping[str, Any] | None = None
) -> Iterator[Output[None]]:
    meta = {k: _meta(v) for k, v in (metadata or {}).items()}
    keys = list(context.partition_keys) if context.has_partition_key or _has_range(context) else []
    if len(keys) <= 1:
        version = next(iter(versions.values()), None)
        yield Output(None, metadata=meta, data_version=DataVersion(version) if version else None)
        return
    yield Output(None, metadata=meta)
    for key in keys:
        if key in versions:
            context.log_event(AssetMaterialization(asset_key=context.asset_key, partition=key,
                                                   tags={DATA_VERSION_TAG: versions[key]}))


def _has_range(context: AssetExecutionContext) -> bool:
    try:
        return bool(context.partition_keys)
    except Exception:  # unpartitioned asset
        return False


def _meta(value: Any) -> Any:
    if isinstance(value, str) and "\n" in value:
        return MetadataValue.md(value)
    return value

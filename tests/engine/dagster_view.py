"""What Dagster's UI would show of a warehouse: which partitions it holds materialisations for, which it calls
out of date. Read from the instance the warehouse's runs wrote, with the resolver the UI itself uses."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dagster import AssetKey, DagsterInstance


@contextmanager
def instance_of(home: Path) -> Iterator[DagsterInstance]:
    saved = os.environ.get("DAGSTER_HOME")
    os.environ["DAGSTER_HOME"] = str(home / "dagster")
    try:
        with DagsterInstance.get() as instance:
            yield instance
    finally:
        if saved is None:
            os.environ.pop("DAGSTER_HOME", None)
        else:
            os.environ["DAGSTER_HOME"] = saved


def materialised_partitions(home: Path, asset: str) -> set[str | None]:
    with instance_of(home) as instance:
        records = instance.fetch_materializations(AssetKey(asset), limit=10000).records
        return {r.asset_materialization.partition for r in records if r.asset_materialization is not None}


def not_current(home: Path) -> dict[str, list[tuple[str | None, list[str]]]]:
    """{asset: [(partition, why)]} for every partition the UI would not show as current (missing or unsynced)."""
    from dagster._core.definitions.data_version import CachingStaleStatusResolver
    from dagster._core.loader import LoadingContextForTest

    from pipelines.definitions import defs

    out: dict[str, list[tuple[str | None, list[str]]]] = {}
    graph = defs.resolve_asset_graph()
    with instance_of(home) as instance:
        resolver = CachingStaleStatusResolver(instance, graph, LoadingContextForTest(instance))
        for key in sorted(graph.materializable_asset_keys, key=str):
            node = graph.get(key)
            parts = (node.partitions_def.get_partition_keys(dynamic_partitions_store=instance)
                     if node.partitions_def else [None])
            for partition in parts:
                status = resolver.get_status(key, partition)
                if status.value != "FRESH":
                    why = [c.reason for c in resolver.get_stale_causes(key, partition)] or [status.value.lower()]
                    out.setdefault(key.to_user_string(), []).append((partition, why))
    return out

"""Telling Dagster what exists and what changed: partitions, and the inputs' data versions.

The engine decides what is current from its own digests; Dagster is told the same facts, so its UI agrees. New
sources, shards, systems and benchmarks become dynamic partitions; an input whose version changed since the last
report gets an observation with its new data version. The last versions reported are kept in the instance, and
a lost cursor only means reporting them all once more.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from dagster import AssetKey, DagsterInstance

from evaluation.engine.inputs import versions
from evaluation.engine.plan import benchmarks, partitions, shards
from evaluation.engine.world import World
from pipelines.events import observe as record_observation
from pipelines.partitions import BENCHMARKS, SHARDS, SOURCES, SYSTEMS
from pipelines.told import inputs_digest, remember_inputs

CURSOR_KEY = "etalon/input-versions"


def add_partitions(instance: DagsterInstance, world: World) -> dict[str, list[str]]:
    """Register every partition key the inputs define now; returns what was new, per partitions definition."""
    wanted = {
        str(SOURCES.name): partitions(world, "corpus"),
        str(SHARDS.name): [s.key for s in shards(world)],
        str(SYSTEMS.name): [s.id for s in world.systems.systems],
        str(BENCHMARKS.name): benchmarks(world),
    }
    added: dict[str, list[str]] = {}
    for name, keys in wanted.items():
        known = set(instance.get_dynamic_partitions(name))
        new = [k for k in keys if k not in known]
        if new:
            instance.add_dynamic_partitions(name, new)
            added[name] = new
    return added


def observe(instance: DagsterInstance, world: World) -> dict[str, int]:
    """Report the inputs whose versions changed; returns how many partitions changed, per input asset."""
    add_partitions(instance, world)
    now = versions(world)
    raw = instance.run_storage.get_cursor_values({CURSOR_KEY}).get(CURSOR_KEY)
    before: Mapping[str, Mapping[str, str]] = json.loads(raw) if raw else {}
    changed: dict[str, int] = {}
    for asset, parts in now.items():
        seen = before.get(asset, {})
        fresh = {p: v for p, v in parts.items() if seen.get(p or "") != v}
        if fresh:
            record_observation(instance, AssetKey(asset), fresh)
            changed[asset] = len(fresh)
    cursor = json.dumps({a: {p or "": v for p, v in parts.items()} for a, parts in now.items()}, sort_keys=True)
    instance.run_storage.set_cursor_values({CURSOR_KEY: cursor})
    remember_inputs(world.home, inputs_digest(now))
    return changed

"""What an update must do: per stage group, the partitions whose inputs differ from what was last computed.

Planning reads only the index and the inputs' fingerprints (etalon files, systems, benchmark settings, human
events, corpus sources), never a cell's rows, so "nothing to do" costs a fraction of a second even for a big
warehouse. A partition the index does not vouch for — never computed, computed by an older Etalon, its ledger
replaced by a killed run — is always planned: the engine never says "up to date" on a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from evaluation.engine.keys import Part, Shard
from evaluation.engine.stages import GROUPS
from evaluation.engine.stages.report import PARTITION as REPORT
from evaluation.engine.state import valid
from evaluation.engine.world import World


@dataclass
class GroupPlan:
    group: str
    partitions: list[str] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.partitions)


def shards(world: World) -> list[Shard]:
    return sorted(set(world.file_shards()) | set(world.stored_shards()))


def benchmarks(world: World) -> list[str]:
    return sorted({s.benchmark for s in shards(world)})


def partitions(world: World, group: str) -> list[str]:
    """Every partition of a group as the inputs define them now."""
    if group == "corpus":
        from evaluation.engine.stages.corpus import configured

        return sorted(configured(world))
    if group == "etalons":
        return [s.key for s in shards(world)]
    if group == "cells":
        return [p.key for p in world.parts(shards(world))]
    if group == "analytics":
        return benchmarks(world)
    return [REPORT]


def stale(world: World, stage: Any, partition: str) -> str | None:
    """Why a stage partition must be recomputed, or None when the index vouches for it."""
    now = stage.partition_digest(world, partition)
    if hasattr(stage, "fresh"):
        return None if stage.fresh(world, partition, now) else "inputs changed or never computed"
    entry = valid(world.index.get(stage.name, partition), world.lake, stage.name, stage.lake_key(partition))
    if entry is None:
        return "never computed (or its ledger changed since)"
    if now is None:
        return "an upstream stage is not current"
    if entry.input_digest != now:
        return "inputs changed"
    if entry.retry:
        return f"{entry.errors} failed call(s) to retry"
    return None


def plan_group(world: World, group: str, only: Sequence[str] | None = None) -> GroupPlan:
    stages = dict(GROUPS)[group]
    plan = GroupPlan(group)
    for partition in partitions(world, group):
        if only is not None and partition not in only:
            continue
        for stage in stages:
            why = stale(world, stage, partition)
            if why is not None:
                plan.partitions.append(partition)
                plan.reasons[partition] = f"{stage.name}: {why}"
                break
    return plan


def part_of(partition: str) -> Part:
    return Part.parse(partition)

"""Running an engine stage inside a Dagster step: which partitions, and recording what was computed.

A run started by Etalon (`etalon update`, the reconcile sensor) carries a plan: the partitions to reconcile and
those to record as verified (current, re-checked because a parent changed). A run started by hand in the UI
reconciles the partitions it was asked for. Either way the engine recomputes only the rows whose inputs
changed, and each partition it looked at gets one materialisation with its data version.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from dagster import AssetExecutionContext, AssetKey, Nothing, Output

from evaluation.engine.stages import STAGES
from evaluation.engine.stages.base import Result
from evaluation.engine.world import World
from pipelines.events import Record, in_step, pointer
from pipelines.plans import PLAN_TAG, WORLD_TAG
from pipelines.resources import EtalonWarehouse

_WORLDS: dict[str, World] = {}
_LENT: dict[str, World] = {}
# The assets persist through the lake themselves: their Dagster output is Nothing, so no IO manager is involved.
NOTHING: Any = Nothing


def lend(world: World) -> str:
    """Hand an in-process run the starting command's World (the run's tag carries the returned token). A run
    in another process (`dagster dev`) finds no such token and opens its own."""
    token = f"{os.getpid()}:{id(world)}"
    _LENT[token] = world
    return token


def give_back(token: str) -> None:
    _LENT.pop(token, None)


def world_for(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> World:
    """One World per run: the steps of a run share what they read (the corpus view, stored etalons)."""
    lent = _LENT.get(context.run.tags.get(WORLD_TAG, ""))
    if lent is not None:
        return lent
    run_id = context.run.run_id
    if run_id not in _WORLDS:
        _WORLDS.clear()
        _WORLDS[run_id] = World.open(warehouse.paths())
    return _WORLDS[run_id]


def plan_of(context: AssetExecutionContext) -> dict[str, Any] | None:
    path = context.run.tags.get(PLAN_TAG)
    if not path:
        return None
    try:
        data: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data


def _partitions(context: AssetExecutionContext) -> list[str]:
    try:
        return list(context.partition_keys)
    except Exception:  # an unpartitioned asset
        return []


def run_stage(context: AssetExecutionContext, warehouse: EtalonWarehouse, stage_name: str,
              keys: Sequence[AssetKey]) -> Iterator[Output[None]]:
    world = world_for(context, warehouse)
    stage = STAGES[stage_name]
    plan = plan_of(context)
    chosen = plan["partitions"] if plan is not None else (_partitions(context) or ["all"])
    verify = plan.get("verify", {}).get(stage_name, []) if plan is not None else []
    force = (plan or {}).get("force", {}).get(stage_name)
    at = pointer(context.instance)
    results = run_group_stage(world, stage_name, chosen, force)
    records = [_record(r) for r in results]
    for partition in verify:
        entry = world.index.get(stage.name, partition)
        if entry is not None and partition not in chosen:
            records.append(Record(partition, entry.output_digest, {"verified": "unchanged", **_flat(entry.meta)}))
    summary = {"partitions": len(results), "rows_recomputed": sum(len(r.recomputed) for r in results),
               "verified": len(verify), "errors": sum(r.entry.errors for r in results)}
    for key in keys:
        part_records = [Record(r.partition if r.partition != "all" else None, r.data_version, r.metadata)
                        for r in records]
        yield from in_step(context, key, part_records, at, summary)


def run_group_stage(world: World, stage_name: str, partitions: Sequence[str],
                    force: bool | list[str] | None = None) -> list[Result]:
    """Reconcile the stage over the partitions; `force`: every row (True) or the rows of these etalon codes."""
    from evaluation.engine.stages.base import reconcile

    stage = STAGES[stage_name]
    forced: bool | set[str] = force if isinstance(force, bool) else set(force or ())
    results = []
    for partition in partitions:
        if hasattr(stage, "reconcile_partition"):
            results.append(stage.reconcile_partition(world, partition, force=bool(forced)))
        else:
            results.append(reconcile(stage, world, partition, force=forced))
    world.index.flush()
    return results


def _record(result: Result) -> Record:
    entry = result.entry
    return Record(result.partition, entry.output_digest,
                  {"rows_recomputed": len(result.recomputed), "cells": entry.cells, "errors": entry.errors,
                   **_flat(entry.meta)})


def _flat(values: dict[str, Any] | Any) -> dict[str, Any]:
    return {k: v for k, v in dict(values).items() if isinstance(v, (str, int, float, bool)) or v is None}

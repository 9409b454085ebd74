"""`etalon update` and `etalon demo` through Dagster, without a daemon.

An update reconciles: it records the inputs' versions, then, stage group by stage group (corpus, etalons, cells,
analytics, report), plans what differs from what was last computed and runs exactly that in one Dagster run per
group. The plan is made from the current inputs and the engine's own records, whatever happened before (commands
in any order, a killed run, a lost cursor, a new or an old warehouse), so "up to date" is said only when it is
true. Under `dagster dev` the reconcile sensor does the same through the daemon.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dagster import AssetKey, DagsterInstance

from app.runlog import RunLog
from evaluation.engine.plan import plan_group
from evaluation.engine.run import InputsMissing, prelude
from evaluation.engine.stages import GROUPS
from evaluation.engine.world import World
from pipelines.dagster_internals import DEFER_TAG
from pipelines.instance import HOST_TAG, PID_TAG, instance_for, reap_dead_runs
from pipelines.partitions import GROUP_PARTITIONS
from pipelines.plans import PLAN_TAG, STAGE_ASSETS, WORLD_TAG, write_plan
from pipelines.told import clear_dead, run_under_way
from warehouse.home import Home

QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}

__all__ = ["RunLog", "evaluate", "instance_for", "update"]


def _defs() -> Any:
    from pipelines.definitions import defs

    return defs


def _keys(stages: Sequence[Any]) -> list[AssetKey]:
    return [AssetKey(name) for stage in stages for name in STAGE_ASSETS[stage.name]]


def run_group(instance: DagsterInstance, home: Home, group: str, partitions: Sequence[str],
              verify: dict[str, list[str]], log: RunLog, echo: Callable[[str], None],
              force: dict[str, bool | list[str]] | None = None, world: World | None = None) -> None:
    """One Dagster run over the group's assets: the plan says which partitions the assets reconcile. `world`:
    the update's own view of the warehouse, lent to the run's steps (they run in this process), so what the
    plan read (the corpus view, stored etalons, ledgers) is not read again, as in the plain-function path."""
    from assets._run import lend

    stages = dict(GROUPS)[group]
    keys = _keys(stages)
    plan = {"group": group, "partitions": list(partitions), "verify": verify, "force": force or {}}
    tags = {PID_TAG: str(os.getpid()), HOST_TAG: socket.gethostname(), DEFER_TAG: "true",
            PLAN_TAG: write_plan(home, plan)}
    if world is not None:
        tags[WORLD_TAG] = lend(world)
    definition = GROUP_PARTITIONS.get(group)
    if definition is not None:
        every = definition.get_partition_keys(dynamic_partitions_store=instance)
        if not every:
            return
        tags.update({"dagster/asset_partition_range_start": every[0], "dagster/asset_partition_range_end": every[-1]})
    shown = ", ".join(stage.name for stage in stages)
    echo(f"materialising {shown}: {len(partitions)} partition(s)"
         + (f", {sum(len(v) for v in verify.values())} checked unchanged" if any(verify.values()) else ""))
    job = _defs().resolve_implicit_global_asset_job_def()
    try:
        with run_under_way(home):
            result = job.execute_in_process(instance=instance, asset_selection=keys, tags=tags, run_config=QUIET,
                                            raise_on_error=False)
    finally:
        if world is not None:
            from assets._run import give_back

            give_back(tags[WORLD_TAG])
    log.runs += 1
    for event in result.all_events:
        if event.event_type_value == "STEP_OUTPUT" and event.step_key:
            meta = event.step_output_data.metadata
            stage = next((s.name for s in stages if event.step_key in STAGE_ASSETS[s.name]
                          or (event.step_key == "analytics_tables" and s.name == "analytics")), event.step_key)
            log.partitions[stage] += int(meta["partitions"].value) if "partitions" in meta else 0
            log.rows[stage] += int(meta["rows_recomputed"].value) if "rows_recomputed" in meta else 0
            log.verified += int(meta["verified"].value) if "verified" in meta else 0
            if stage in ("answers", "judgments") and "errors" in meta:
                log.call_errors[stage] += int(meta["errors"].value)
    if not result.success:
        failure = next((e for e in result.all_events if e.is_step_failure), None)
        data = failure.event_specific_data if failure is not None else None
        error = getattr(data, "error", None)
        message = error.message.strip() if error is not None and error.message else "failed"
        log.failures.append(f"{group}: {message.splitlines()[0]}")


def _verify(group: str, world: World, changed: set[str], planned: Sequence[str]) -> dict[str, list[str]]:
    """Partitions Dagster would show out of date because a parent it declares changed, though the engine's
    digests say their own inputs did not: recorded again as verified, so the UI agrees with the engine."""
    from evaluation.engine.plan import partitions

    every = [p for p in partitions(world, group) if p not in set(planned)]
    out: dict[str, list[str]] = {}
    if "corpus" in changed:
        if group == "etalons":
            out["sources"] = every
        if group == "cells":
            out["citations"] = every
        if group == "analytics":
            out["signatures"] = every
    if group == "analytics" and "scores" in changed:
        out["analytics"] = every
    return {k: v for k, v in out.items() if v}


def update(home: Home, echo: Callable[[str], None] = lambda _: None,
           groups: Sequence[str] | None = None, progress: Any = None,
           after: Mapping[str, Callable[[World], None]] | None = None) -> RunLog:
    """`progress` (app.progress.Progress, optional) is told each group as it is planned, run and done.
    `after`: acts to do once a group is current, before the next is planned (the demo signs its sample once
    the corpus is in); the inputs' versions are then reported to Dagster again."""
    from pipelines.journal import flush
    from pipelines.observe import observe
    from warehouse.catalog import build_catalog

    if progress is not None:
        progress.step("reading the inputs")
    instance = instance_for(home)
    flush(instance, home)
    reaped = reap_dead_runs(instance)
    clear_dead(home)
    if reaped:
        echo(f"{reaped} run(s) of a killed etalon process marked failed; their work is planned again")
    world = World.open(home)
    try:
        notes = prelude(world)
    except InputsMissing as exc:
        log = RunLog(problems=str(exc).splitlines())
        for problem in log.problems:
            echo(f"input problem: {problem}")
        return log
    for note in notes:
        echo(note)
    observe(instance, world)
    log = RunLog(problems=list(dict.fromkeys(world.problems)))
    for problem in log.problems:
        echo(f"input problem: {problem}")
    changed: set[str] = set()
    # One World for the whole update, lent to each run (as the plain-function path keeps one): the runs' writes
    # go through it, so it stays the current view and planning the next group reads nothing twice.
    for group, stages in GROUPS:
        if groups is not None and group not in groups:
            continue
        if progress is not None:
            progress.step(f"planning {group}")
        plan = plan_group(world, group)
        verify = _verify(group, world, changed, plan.partitions)
        if not plan and not verify:
            if progress is not None:
                progress.advance()
            _then(instance, world, group, after)
            continue
        if progress is not None:
            progress.step(f"{group}: {len(plan.partitions)} partition(s) to recompute")
        before = {(s.name, p): (world.index.get(s.name, p) or None) for s in stages for p in plan.partitions}
        run_group(instance, home, group, plan.partitions, verify, log, echo, world=world)
        for (stage, partition), old in before.items():
            new = world.index.get(stage, partition)
            if new is not None and (old is None or old.output_digest != new.output_digest):
                changed.add(stage)
        if group == "corpus":
            for partition in plan.partitions:
                entry = world.index.get("corpus", partition)
                log.corpus_errors += [str(e) for e in (entry.meta.get("errors") or [])] if entry else []
        if group == "etalons":
            observe(instance, world)   # shards and their versions as the etalons stage left them
        if progress is not None:
            progress.advance()
        _then(instance, world, group, after)
    for group, _ in GROUPS:
        if (groups is not None and group not in groups) or not log.runs:
            continue   # (nothing ran: every plan was empty a moment ago, and nothing since has changed)
        left = plan_group(world, group)
        log.left += [f"{p} ({left.reasons[p]})" for p in left.partitions
                     if not left.reasons[p].endswith("to retry")]
    build_catalog(home.catalog, world.lake)
    return log


def _then(instance: DagsterInstance, world: World, group: str,
          after: Mapping[str, Callable[[World], None]] | None) -> None:
    """The act to do once `group` is current; what it wrote is then seen by the plan and told to Dagster."""
    from pipelines.observe import observe

    if after is None or group not in after:
        return
    after[group](world)
    world.forget_events()
    observe(instance, world)


def evaluate(home: Home, codes: Sequence[str], systems: Sequence[str], stages: Sequence[str],
             echo: Callable[[str], None] = lambda _: None) -> RunLog:
    """Recompute chosen cells from a stage on, whatever is current, through Dagster; then the rest follows."""
    from evaluation.engine.plan import partitions

    update(home, echo, groups=("corpus", "etalons"))
    instance = instance_for(home)
    world = World.open(home)
    order = ["answers", "citations", "judgments", "scores"]
    chosen = order[order.index(stages[0]):] if stages else ["scores"]
    parts = []
    for key in partitions(world, "cells"):
        from evaluation.engine.keys import Part

        part = Part.parse(key)
        if systems and part.system not in systems:
            continue
        if codes and not any(r.code in codes for r, _ in world.current_etalons(part.shard)):
            continue
        parts.append(key)
    if not parts:
        from app.actions import Refused

        raise Refused("no cell matches: check the etalon codes and system ids (run `etalon update` first)")
    log = RunLog()
    force: bool | list[str] = list(codes) if codes else True
    run_group(instance, home, "cells", parts, {}, log, echo, force={s: force for s in chosen})
    rest = update(home, echo, groups=("cells", "analytics", "report"))
    for stage, n in log.rows.items():
        rest.rows[stage] = rest.rows.get(stage, 0) + n
        rest.partitions[stage] = rest.partitions.get(stage, 0) + log.partitions.get(stage, 0)
    rest.runs += log.runs
    for stage, n in log.call_errors.items():
        rest.call_errors[stage] += n
    rest.failures[:0] = log.failures
    return rest

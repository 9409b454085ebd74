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
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dagster import AssetKey, DagsterInstance

from evaluation.engine.plan import plan_group
from evaluation.engine.run import InputsMissing, prelude
from evaluation.engine.stages import GROUPS
from evaluation.engine.world import World
from pipelines.dagster_internals import DEFER_TAG
from pipelines.instance import HOST_TAG, PID_TAG, instance_for, reap_dead_runs
from pipelines.partitions import GROUP_PARTITIONS
from pipelines.plans import PLAN_TAG, STAGE_ASSETS, write_plan
from warehouse.home import Home

QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}

__all__ = ["RunLog", "evaluate", "instance_for", "update"]


@dataclass
class RunLog:
    """What an update did: partitions and rows per stage, failures, model-call errors, input problems."""

    partitions: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    rows: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    failures: list[str] = field(default_factory=list)
    call_errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    problems: list[str] = field(default_factory=list)
    corpus_errors: list[str] = field(default_factory=list)   # files of the sources read that did not ingest
    runs: int = 0
    verified: int = 0
    left: list[str] = field(default_factory=list)     # still to do after the update (should be nothing)

    @property
    def did_anything(self) -> bool:
        return self.runs > 0

    def shortfalls(self) -> list[str]:
        """What the update could not do, counted: an exit status of 1 and a summary on stderr."""
        errors = sum(self.call_errors.values())
        counts = [(len(self.problems), "input problem(s) (files that did not load; the rest went on)"),
                  (errors, "failed model call(s) (retried by the next update)"),
                  (len(self.corpus_errors), "corpus file(s) not ingested (corpus.ingest_errors)"),
                  (len(self.failures), "failed run(s)"), (len(self.left), "partition(s) still not current")]
        return [f"{n} {what}" for n, what in counts if n]

    def lines(self) -> list[str]:
        if not self.runs and not self.failures:
            return ["nothing to materialise: everything is up to date"]
        out = [f"{stage}: {n} partition(s), {self.rows.get(stage, 0)} row(s) recomputed"
               for stage, n in self.partitions.items() if n]
        out.append(f"({self.runs} run(s))")
        out += [f"{stage}: {n} model call(s) failed; stored as errors (status 'error'), never scored, "
                "retried by the next update" for stage, n in sorted(self.call_errors.items()) if n]
        out += [f"failed: {f}" for f in self.failures]
        out += [f"not yet current: {item}" for item in self.left]
        return out


def _defs() -> Any:
    from pipelines.definitions import defs

    return defs


def _keys(stages: Sequence[Any]) -> list[AssetKey]:
    return [AssetKey(name) for stage in stages for name in STAGE_ASSETS[stage.name]]


def run_group(instance: DagsterInstance, home: Home, group: str, partitions: Sequence[str],
              verify: dict[str, list[str]], log: RunLog, echo: Callable[[str], None],
              force: dict[str, bool | list[str]] | None = None) -> None:
    """One Dagster run over the group's assets: the plan says which partitions the assets reconcile."""
    stages = dict(GROUPS)[group]
    keys = _keys(stages)
    plan = {"group": group, "partitions": list(partitions), "verify": verify, "force": force or {}}
    tags = {PID_TAG: str(os.getpid()), HOST_TAG: socket.gethostname(), DEFER_TAG: "true",
            PLAN_TAG: write_plan(home, plan)}
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
    result = job.execute_in_process(instance=instance, asset_selection=keys, tags=tags, run_config=QUIET,
                                    raise_on_error=False)
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
           groups: Sequence[str] | None = None, progress: Any = None) -> RunLog:
    """`progress` (app.progress.Progress, optional) is told each group as it is planned, run and done."""
    from pipelines.journal import flush
    from pipelines.observe import observe
    from warehouse.catalog import build_catalog

    if progress is not None:
        progress.step("reading the inputs")
    instance = instance_for(home)
    flush(instance, home)
    reaped = reap_dead_runs(instance)
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
    for group, stages in GROUPS:
        if groups is not None and group not in groups:
            continue
        if progress is not None:
            progress.step(f"planning {group}")
        world = World.open(home)
        plan = plan_group(world, group)
        verify = _verify(group, world, changed, plan.partitions)
        if not plan and not verify:
            if progress is not None:
                progress.advance()
            continue
        if progress is not None:
            progress.step(f"{group}: {len(plan.partitions)} partition(s) to recompute")
        before = {(s.name, p): (world.index.get(s.name, p) or None) for s in stages for p in plan.partitions}
        run_group(instance, home, group, plan.partitions, verify, log, echo)
        after = World.open(home)
        for (stage, partition), old in before.items():
            new = after.index.get(stage, partition)
            if new is not None and (old is None or old.output_digest != new.output_digest):
                changed.add(stage)
        if group == "corpus":
            for partition in plan.partitions:
                entry = after.index.get("corpus", partition)
                log.corpus_errors += [str(e) for e in (entry.meta.get("errors") or [])] if entry else []
        if group == "etalons":
            observe(instance, after)   # shards and their versions as the etalons stage left them
        if progress is not None:
            progress.advance()
    final = World.open(home)
    for group, _ in GROUPS:
        if groups is not None and group not in groups:
            continue
        left = plan_group(final, group)
        log.left += [f"{p} ({left.reasons[p]})" for p in left.partitions
                     if not left.reasons[p].endswith("to retry")]
    build_catalog(home.catalog, final.lake)
    return log


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

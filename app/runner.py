"""Running the pipeline without a daemon: `etalon update` and `etalon demo`.

`update` does in one go what the sensors and the automation sensor do under `dagster dev`: observe the
inputs, then evaluate the same automation conditions tick after tick and execute what they request, until
nothing is requested. Every run goes through Dagster on the project's instance, so `dagster dev` shows them.
"""

from __future__ import annotations

import os
import socket
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dagster import (
    AssetKey,
    DagsterInstance,
    Definitions,
    DynamicPartitionsDefinition,
    MultiPartitionsDefinition,
    evaluate_automation_conditions,
)

from pipelines.automation import DEFER_TAG
from pipelines.observe import observe
from pipelines.partitions import CELLS, ETALONS, SOURCES
from warehouse.catalog import build_catalog
from warehouse.home import Home
from warehouse.lake import Lake

AUTOMATION_CURSOR = "etalon/automation"
PID_TAG, HOST_TAG = "etalon/pid", "etalon/host"
# Step errors are summarised by RunLog and kept in full in the Dagster instance (`dagster dev` shows them).
QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
MAX_TICKS = 12
# A new instance: Dagster's SQLite storage in its usual layout, writing a step's events in one transaction.
DEFAULT_INSTANCE_YAML = """storage:
  custom:
    module: pipelines.event_storage
    class: EtalonSqliteStorage
    config:
      base_dir: {env: DAGSTER_HOME}
telemetry:
  enabled: false
"""


@dataclass
class RunLog:
    """What was materialised, per asset, and what failed."""

    materialised: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    failures: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)   # a blocking check failed: downstream waits for a fix
    call_errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # model calls that failed
    runs: int = 0

    def lines(self) -> list[str]:
        if not self.materialised:
            return ["nothing to materialise: everything is up to date"]
        out = [f"{asset}: {n} partition(s)" for asset, n in sorted(self.materialised.items())]
        errors = [f"{asset}: {n} model call(s) failed; stored as errors (status 'error'), never scored, "
                  "retried by the next update" for asset, n in sorted(self.call_errors.items()) if n]
        return [*out, f"({self.runs} run(s))", *(f"check failed: {b}" for b in self.blocked),
                *errors, *(f"failed: {f}" for f in self.failures)]


def instance_for(home: Home) -> DagsterInstance:
    """The project's Dagster instance: $DAGSTER_HOME, else $ETALON_HOME/dagster (what `dagster dev` should use)."""
    dagster_home = os.environ.get("DAGSTER_HOME") or str(home.dagster_home)
    os.makedirs(dagster_home, exist_ok=True)
    config = os.path.join(dagster_home, "dagster.yaml")
    if not os.path.exists(config):
        with open(config, "w", encoding="utf-8") as handle:
            handle.write(DEFAULT_INSTANCE_YAML)
    os.environ["DAGSTER_HOME"] = dagster_home
    # A step's asset events go to the storage as one batch (pipelines/event_storage.py, dagster-postgres).
    os.environ.setdefault("DAGSTER_EVENT_BATCH_SIZE", "1000")
    instance = DagsterInstance.get()
    # Keep storage connections open across the many small writes of a run (PostgreSQL: about half the wall
    # time of a demo; SQLite: no effect).
    instance.optimize_for_webserver(statement_timeout=0, pool_recycle=3600, max_overflow=10)
    return instance


def _defs() -> Definitions:
    from pipelines.definitions import defs

    return defs


def _group(key: AssetKey) -> int:
    """Topological stage of an asset: sources, etalons, cells, then everything over all cells."""
    spec = _defs().resolve_assets_def(key).specs_by_key[key]
    part = spec.partitions_def
    if part is None:
        return 3
    if isinstance(part, MultiPartitionsDefinition):
        return 2
    if isinstance(part, DynamicPartitionsDefinition) and part.name == SOURCES.name:
        return 0
    if isinstance(part, DynamicPartitionsDefinition) and part.name == ETALONS.name:
        return 1
    return 2


def materialisable() -> list[AssetKey]:
    defs = _defs()
    graph = defs.resolve_asset_graph()
    return sorted((k for k in graph.materializable_asset_keys), key=lambda k: k.to_user_string())


def execute(instance: DagsterInstance, requests: dict[AssetKey, set[str | None]], log: RunLog,
            echo: Callable[[str], None] = lambda _: None, ranges: bool = False) -> None:
    """Execute requested asset partitions, stage by stage; cells in contiguous ranges, one run each.

    Sources and etalons run one partition per run (so each blocking check speaks for one etalon), unless
    `ranges` asks for ranges there too (a full refresh, where the per-run cost would dominate)."""
    job = _defs().resolve_implicit_global_asset_job_def()
    by_group: dict[int, dict[AssetKey, set[str | None]]] = defaultdict(dict)
    for key, parts in requests.items():
        by_group[_group(key)][key] = parts
    for group in sorted(by_group):
        batch = by_group[group]
        if group == 3:
            _run(job, instance, sorted(batch, key=str), None, log, echo)
        else:
            definition = {0: SOURCES, 1: ETALONS, 2: CELLS}[group]
            order = {k: i for i, k in enumerate(definition.get_partition_keys(dynamic_partitions_store=instance))}
            for keys, parts in _by_selection(batch).items():
                ordered = sorted((p for p in parts if p is not None), key=lambda p: order.get(p, -1))
                spans = _ranges(ordered, order) if ranges or group == 2 else ((p, p, 1) for p in ordered)
                for first, last, n in spans:
                    _run(job, instance, list(keys), (first, last), log, echo, count=n)


def _by_selection(batch: dict[AssetKey, set[str | None]]) -> dict[tuple[AssetKey, ...], set[str | None]]:
    per_partition: dict[str, list[AssetKey]] = defaultdict(list)
    for key, parts in batch.items():
        for part in parts:
            if part is not None:
                per_partition[str(part)].append(key)
    out: dict[tuple[AssetKey, ...], set[str | None]] = defaultdict(set)
    for part, keys in per_partition.items():
        out[tuple(sorted(keys, key=str))].add(part)
    return out


def _ranges(parts: Sequence[str], order: dict[str, int]) -> Iterable[tuple[str, str, int]]:
    """Maximal runs of consecutive keys in the partition order: each becomes one single-run backfill."""
    start = prev = None
    n = 0
    for part in parts:
        if start is not None and prev is not None and order.get(part) == order.get(prev, -2) + 1:
            prev, n = part, n + 1
            continue
        if start is not None and prev is not None:
            yield start, prev, n
        start, prev, n = part, part, 1
    if start is not None and prev is not None:
        yield start, prev, n


def _run(job, instance: DagsterInstance, keys: list[AssetKey], span: tuple[str, str] | None,  # type: ignore[no-untyped-def]
         log: RunLog, echo: Callable[[str], None], count: int = 1) -> None:
    tags = {PID_TAG: str(os.getpid()), HOST_TAG: socket.gethostname(), DEFER_TAG: "true"}
    if span is not None:
        tags.update({"dagster/asset_partition_range_start": span[0], "dagster/asset_partition_range_end": span[1]})
    names = ", ".join(k.to_user_string() for k in keys)
    where = f" [{span[0]}..{span[1]}]" if span and span[0] != span[1] else (f" [{span[0]}]" if span else "")
    echo(f"materialising {names}{where}")
    result = job.execute_in_process(instance=instance, asset_selection=keys, tags=tags, run_config=QUIET,
                                    raise_on_error=False)
    log.runs += 1
    for key in keys:
        log.materialised[key.to_user_string()] += count
    for event in result.all_events:  # each asset step's summary is its output's metadata (assets/_emit.py)
        if event.event_type_value == "STEP_OUTPUT" and event.step_key:
            meta = event.step_output_data.metadata
            if "calls_errors" in meta:
                log.call_errors[event.step_key] += int(meta["calls_errors"].value)
    blocked: list[Any] = [e for e in result.all_events if e.event_type_value == "ASSET_CHECK_EVALUATION"
                          and not getattr(e.event_specific_data, "passed", True)]
    for event in blocked:
        check = event.event_specific_data
        detail = check.metadata.get("sources")
        listing = str(detail.value).strip() if detail is not None else ""
        log.blocked.append(f"{check.asset_key.to_user_string()} {check.check_name}"
                           + (f":\n{listing}" if listing and listing != "none" else where))
    if not result.success and not blocked:
        failure = next((e for e in result.all_events if e.is_step_failure), None)
        message = failure.event_specific_data.error.message.strip() if failure and \
            failure.event_specific_data and getattr(failure.event_specific_data, "error", None) else "failed"
        log.failures.append(f"{names}{where}: {message.splitlines()[0] if message else 'failed'}")


def evaluate(instance: DagsterInstance) -> tuple[dict[AssetKey, set[str | None]], str]:
    """One evaluation of every automation condition from the stored cursor: the requests and the new cursor."""
    from dagster._core.definitions.asset_daemon_cursor import AssetDaemonCursor
    from dagster._serdes import deserialize_value, serialize_value

    raw = instance.run_storage.get_cursor_values({AUTOMATION_CURSOR}).get(AUTOMATION_CURSOR)
    cursor = deserialize_value(raw, AssetDaemonCursor) if raw else None
    result = evaluate_automation_conditions(defs=_defs(), instance=instance, cursor=cursor)
    requests = {k: set(result.get_requested_partitions(k)) for k in materialisable() if result.get_num_requested(k)}
    return requests, serialize_value(result.cursor)


def save_cursor(instance: DagsterInstance, cursor: str) -> None:
    instance.run_storage.set_cursor_values({AUTOMATION_CURSOR: cursor})


def tick(instance: DagsterInstance) -> dict[AssetKey, set[str | None]]:
    """One evaluation, its cursor saved at once: what a request is, without executing it."""
    requests, cursor = evaluate(instance)
    save_cursor(instance, cursor)
    return requests


def reap_dead_runs(instance: DagsterInstance) -> int:
    """Mark as failed the runs a killed `etalon` process left started: their cells are no longer in progress.

    Only runs this machine's Etalon processes launched (tagged with their pid) whose process is gone.
    """
    from dagster import DagsterRunStatus, RunsFilter

    alive = (DagsterRunStatus.STARTED, DagsterRunStatus.STARTING, DagsterRunStatus.NOT_STARTED,
             DagsterRunStatus.QUEUED)
    reaped = 0
    for run in instance.get_runs(filters=RunsFilter(statuses=list(alive), tags={HOST_TAG: socket.gethostname()})):
        pid = int(run.tags.get(PID_TAG, "0") or 0)
        if pid and not _process_alive(pid):
            instance.report_run_failed(run, message=f"the etalon process {pid} that ran it is gone (killed)")
            reaped += 1
    return reaped


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def has_cursor(instance: DagsterInstance) -> bool:
    return bool(instance.run_storage.get_cursor_values({AUTOMATION_CURSOR}).get(AUTOMATION_CURSOR))


def absorb(instance: DagsterInstance) -> None:
    """Advance automation past work done explicitly (the demo's full refresh) without repeating it."""
    tick(instance)


def settle(instance: DagsterInstance, log: RunLog, echo: Callable[[str], None] = lambda _: None) -> None:
    """Evaluate automation and execute its requests until nothing more is requested."""
    for _ in range(MAX_TICKS):
        requests, cursor = evaluate(instance)
        if requests:
            execute(instance, requests, log, echo)
        # Saved only once the requests ran: a killed update leaves the old cursor, and the next one
        # requests the same work again.
        save_cursor(instance, cursor)
        if not requests:
            break


def update(home: Home, echo: Callable[[str], None] = lambda _: None) -> RunLog:
    lake = Lake(home.lake)
    lake.ensure_schemas()
    instance = instance_for(home)
    reaped = reap_dead_runs(instance)
    if reaped:
        echo(f"{reaped} run(s) of a killed etalon process marked failed; their work is requested again")
    if not has_cursor(instance):
        # Automation's first evaluation only takes stock of what exists; taking it before the inputs are
        # observed makes everything observed now count as a change, so a new warehouse fills itself.
        tick(instance)
    obs = observe(instance, home, lake)
    for problem in obs.problems:
        echo(f"input problem: {problem}")
    log = RunLog()
    settle(instance, log, echo)
    build_catalog(home.catalog, lake)
    return log


def materialise_all(home: Home, instance: DagsterInstance, groups: Sequence[int], log: RunLog,
                    echo: Callable[[str], None] = lambda _: None) -> None:
    """Every partition of every asset in the given stages (the demo's full refresh)."""
    requests: dict[AssetKey, set[str | None]] = {}
    for key in materialisable():
        group = _group(key)
        if group not in groups:
            continue
        spec = _defs().resolve_assets_def(key).specs_by_key[key]
        if spec.partitions_def is None:
            requests[key] = {None}
        else:
            requests[key] = set(spec.partitions_def.get_partition_keys(dynamic_partitions_store=instance))
    execute(instance, {k: v for k, v in requests.items() if v}, log, echo, ranges=True)



def run_partition(instance: DagsterInstance, keys: list[AssetKey], partition: str) -> object:
    """One run of the given assets for one partition; returns Dagster's result (its events carry metadata)."""
    job = _defs().resolve_implicit_global_asset_job_def()
    return job.execute_in_process(instance=instance, asset_selection=keys, partition_key=partition,
                                  run_config=QUIET, raise_on_error=False)

"""The project's Dagster instance, and the runs a killed `etalon` process left behind."""

from __future__ import annotations

import os
import socket

from dagster import DagsterInstance, DagsterRunStatus, RunsFilter

from pipelines.told import identity
from warehouse.home import Home

PID_TAG, HOST_TAG = "etalon/pid", "etalon/host"
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


_INSTANCES: dict[str, tuple[list[int], DagsterInstance]] = {}


def instance_for(home: Home) -> DagsterInstance:
    """$DAGSTER_HOME, else $ETALON_HOME/dagster (what `dagster dev` should use).

    One instance per Dagster home and process (`etalon demo` runs two updates; each made its own, about a
    second of set-up), made again when the home's configuration file is not the one it was made from."""
    dagster_home = os.environ.get("DAGSTER_HOME") or str(home.dagster_home)
    os.makedirs(dagster_home, exist_ok=True)
    config = os.path.join(dagster_home, "dagster.yaml")
    if not os.path.exists(config):
        with open(config, "w", encoding="utf-8") as handle:
            handle.write(DEFAULT_INSTANCE_YAML)
    os.environ["DAGSTER_HOME"] = dagster_home
    # A step's asset events go to the storage as one batch (pipelines/event_storage.py, dagster-postgres).
    os.environ.setdefault("DAGSTER_EVENT_BATCH_SIZE", "1000")
    made = identity(dagster_home)
    cached = _INSTANCES.get(dagster_home)
    if cached is not None and made is not None and cached[0] == made:
        return cached[1]
    instance = DagsterInstance.get()
    # Keep storage connections open across the many small writes of a run (PostgreSQL; no effect on SQLite).
    instance.optimize_for_webserver(statement_timeout=0, pool_recycle=3600, max_overflow=10)
    after = identity(dagster_home)
    if after is not None:
        _INSTANCES[dagster_home] = (after, instance)
    return instance


def reap_dead_runs(instance: DagsterInstance) -> int:
    """Mark as failed the runs this machine's killed Etalon processes left started."""
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

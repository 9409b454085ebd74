"""Etalon on a shared Dagster instance: PostgreSQL storage and the multiprocess executor, against a real server.

Why: beyond one machine the webserver, the daemon, `etalon update` and every run and step worker share one
Dagster instance, and only a server database takes their concurrent writes. The demo runs here with exactly the
dagster.yaml that docs/deploy.md gives, then one run goes through the `dagster` CLI on the multiprocess
executor, and the test reads PostgreSQL itself to see that runs, materialisations, partitions and the runner's
cursors landed there (not in a SQLite file under DAGSTER_HOME).

Needs ETALON_PG_URL (a role allowed to create databases): `eval "$(bash ci/postgres.sh)"` starts a throwaway
server and prints it. Each session works in a database of its own, dropped afterwards.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

REPO = Path(__file__).resolve().parents[2]
PG_URL = os.environ.get("ETALON_PG_URL", "")

pytestmark = pytest.mark.skipif(
    not PG_URL, reason='ETALON_PG_URL is unset: `eval "$(bash ci/postgres.sh)"` starts a throwaway PostgreSQL')

# The storage block of docs/deploy.md. The explicit psycopg2 scheme matters: SQLAlchemy 2.1 maps a bare
# `postgresql://` to psycopg 3, which dagster-postgres does not install.
DAGSTER_YAML = """\
storage:
  postgres:
    postgres_db:
      scheme: postgresql+psycopg2
      hostname: {env: DAGSTER_PG_HOST}
      port: {env: DAGSTER_PG_PORT}
      username: {env: DAGSTER_PG_USERNAME}
      password: {env: DAGSTER_PG_PASSWORD}
      db_name: {env: DAGSTER_PG_DB}
telemetry:
  enabled: false
"""
MULTIPROCESS = {"execution": {"config": {"multiprocess": {"max_concurrent": 2}}}}


@dataclass(frozen=True)
class Deployment:
    """What the session ran, and a way to ask PostgreSQL about it."""

    dsn: dict[str, Any]
    dagster_home: Path
    demo_runs: int
    leaderboard: str
    cli_run_id: str

    def rows(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        return _query(self.dsn, sql, *args)


def _query(dsn: dict[str, Any], sql: str, *args: object) -> list[tuple[Any, ...]]:
    import psycopg2

    con = psycopg2.connect(**dsn)
    try:
        with con.cursor() as cur:
            cur.execute(sql, args)
            return list(cur.fetchall())
    finally:
        con.close()


def _dsn(url: str, database: str | None = None) -> dict[str, Any]:
    parts = urlsplit(url)
    return {"host": parts.hostname or "127.0.0.1", "port": parts.port or 5432,
            "user": unquote(parts.username or ""), "password": unquote(parts.password or ""),
            "dbname": database or parts.path.lstrip("/") or "postgres"}


def _admin(sql: str, database: str) -> None:
    import psycopg2
    from psycopg2 import sql as pgsql

    con = psycopg2.connect(**_dsn(PG_URL))
    con.autocommit = True
    try:
        with con.cursor() as cur:
            cur.execute(pgsql.SQL(sql).format(pgsql.Identifier(database)))
    finally:
        con.close()


def _analytics_keys() -> list[str]:
    from pipelines.definitions import defs

    graph = defs.resolve_asset_graph()
    return sorted(k.to_user_string() for k in graph.materializable_asset_keys
                  if graph.get(k).group_name == "analytics")


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    from app.demo import demo_home, leaderboard_text, run_demo

    database = f"etalon_test_{uuid.uuid4().hex[:12]}"
    _admin("CREATE DATABASE {}", database)
    root = tmp_path_factory.mktemp("postgres")
    dagster_home = root / "dagster_home"
    dagster_home.mkdir()
    (dagster_home / "dagster.yaml").write_text(DAGSTER_YAML, encoding="utf-8")
    dsn = _dsn(PG_URL, database)
    saved = dict(os.environ)
    os.environ.update({"DAGSTER_HOME": str(dagster_home), "ETALON_HOME": str(root / "home"),
                       "DAGSTER_PG_HOST": dsn["host"], "DAGSTER_PG_PORT": str(dsn["port"]),
                       "DAGSTER_PG_USERNAME": dsn["user"], "DAGSTER_PG_PASSWORD": dsn["password"],
                       "DAGSTER_PG_DB": database})
    try:
        log = run_demo(root / "home", lambda _: None)
        board = leaderboard_text(demo_home(root / "home"))
        # A second process, as a daemon-launched run would be: it finds the instance through DAGSTER_HOME alone.
        cli = subprocess.run(
            [str(Path(sys.executable).with_name("dagster")), "asset", "materialize", "-m", "pipelines.definitions",
             "--select", ",".join(_analytics_keys()), "--partition", "sample",   # analytics are per benchmark
             "--config-json", json.dumps(MULTIPROCESS)],
            cwd=REPO, env=dict(os.environ), capture_output=True, text=True, timeout=600, check=False)
        assert cli.returncode == 0, f"dagster asset materialize failed:\n{(cli.stdout + cli.stderr)[-3000:]}"
        (last_run,) = _query(dsn, "SELECT run_id FROM runs ORDER BY id DESC LIMIT 1")[0]
        yield Deployment(dsn, dagster_home, log.runs, board, last_run)
    finally:
        os.environ.clear()
        os.environ.update(saved)
        _admin("DROP DATABASE IF EXISTS {} WITH (FORCE)", database)


def test_the_demo_on_postgresql_storage_prints_a_leaderboard_of_every_sample_system(
        deployment: Deployment) -> None:
    from warehouse.home import SAMPLE_ANSWERS

    systems = {line.split()[2] for line in deployment.leaderboard.splitlines()[1:]}
    assert systems == {path.stem for path in SAMPLE_ANSWERS.glob("*.jsonl")}


def test_every_run_of_the_demo_and_the_cli_is_recorded_in_postgresql(deployment: Deployment) -> None:
    (count,) = deployment.rows("SELECT count(*) FROM runs")[0]
    assert count == deployment.demo_runs + 1


def test_every_materialisable_asset_has_its_materialisations_in_postgresql(deployment: Deployment) -> None:
    from pipelines.definitions import defs

    stored = {key for (key,) in deployment.rows(
        "SELECT DISTINCT asset_key FROM event_logs WHERE dagster_event_type = 'ASSET_MATERIALIZATION'")}
    assert {k.to_string() for k in defs.resolve_asset_graph().materializable_asset_keys} <= stored


def test_every_cell_of_the_sample_has_its_scores_materialised_in_postgresql(deployment: Deployment) -> None:
    shards = {p for (p,) in deployment.rows(
        "SELECT partition FROM dynamic_partitions WHERE partitions_def_name = 'shards'")}
    systems = {p for (p,) in deployment.rows(
        "SELECT partition FROM dynamic_partitions WHERE partitions_def_name = 'systems'")}
    scored = {p for (p,) in deployment.rows(
        "SELECT DISTINCT partition FROM event_logs WHERE dagster_event_type = 'ASSET_MATERIALIZATION' "
        "AND asset_key = %s", '["scores"]')}
    assert scored == {f"{shard}|{system}" for shard in shards for system in systems} and shards and systems


def test_the_runners_cursor_of_input_versions_is_kept_in_postgresql(deployment: Deployment) -> None:
    assert deployment.rows("SELECT value FROM kvs WHERE key = %s", "etalon/input-versions")


def test_the_multiprocess_run_succeeds(deployment: Deployment) -> None:
    assert deployment.rows("SELECT status FROM runs WHERE run_id = %s", deployment.cli_run_id) == [("SUCCESS",)]


def test_the_multiprocess_run_executes_each_step_in_a_process_of_its_own(deployment: Deployment) -> None:
    events = deployment.rows(
        "SELECT dagster_event_type, step_key, event FROM event_logs WHERE run_id = %s "
        "AND dagster_event_type IN ('PIPELINE_START', 'RUN_START', 'STEP_START')", deployment.cli_run_id)
    pids = {(kind, step): json.loads(body)["dagster_event"]["pid"] for kind, step, body in events}
    parent = {pid for (kind, _), pid in pids.items() if kind != "STEP_START"}
    steps = {step: pid for (kind, step), pid in pids.items() if kind == "STEP_START"}
    assert len(steps) >= 2
    assert len(set(steps.values())) == len(steps)
    assert parent.isdisjoint(steps.values())


def test_the_multiprocess_run_materialises_every_analytics_asset(deployment: Deployment) -> None:
    stored = {key for (key,) in deployment.rows(
        "SELECT DISTINCT asset_key FROM event_logs WHERE run_id = %s AND dagster_event_type = "
        "'ASSET_MATERIALIZATION'", deployment.cli_run_id)}
    assert stored == {json.dumps([key]) for key in _analytics_keys()}


def test_no_sqlite_storage_is_created_under_dagster_home(deployment: Deployment) -> None:
    assert sorted(deployment.dagster_home.rglob("*.db")) == []

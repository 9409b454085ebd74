"""A run over many partitions records each partition it computed once, with its data version and provenance, in
one batch on Etalon's storage (pipelines/events.py, pipelines/event_storage.py)."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from dagster import (
    AssetExecutionContext,
    AssetKey,
    DagsterInstance,
    Definitions,
    Nothing,
    Output,
    StaticPartitionsDefinition,
    asset,
)

from pipelines.dagster_internals import DEFER_TAG
from pipelines.events import Record, in_step, pointer
from pipelines.instance import DEFAULT_INSTANCE_YAML

PARTS = StaticPartitionsDefinition([f"p{i:02d}" for i in range(12)])
COMPUTED = [f"p{i:02d}" for i in range(0, 12, 3)]   # the partitions the engine recomputed in the run


@asset(dagster_type=Nothing, partitions_def=PARTS, code_version="v1")
def cells(context: AssetExecutionContext) -> Iterator[Output[None]]:
    at = pointer(context.instance)
    records = [Record(p, f"dv-{p}", {"cells": 3}) for p in COMPUTED]
    yield from in_step(context, AssetKey("cells"), records, at, {"partitions": len(records)})


@pytest.fixture()
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[DagsterInstance]:
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))
    monkeypatch.setenv("DAGSTER_EVENT_BATCH_SIZE", "1000")
    (tmp_path / "dagster.yaml").write_text(DEFAULT_INSTANCE_YAML, encoding="utf-8")
    with DagsterInstance.get() as inst:
        yield inst


def _run(instance: DagsterInstance) -> None:
    job = Definitions(assets=[cells]).resolve_implicit_global_asset_job_def()
    result = job.execute_in_process(instance=instance, tags={
        DEFER_TAG: "true", "dagster/asset_partition_range_start": "p00", "dagster/asset_partition_range_end": "p11"})
    assert result.success


def _materialisations(instance: DagsterInstance) -> dict[str | None, dict[str, str]]:
    records = instance.fetch_materializations(AssetKey("cells"), limit=1000, ascending=True).records
    return {r.asset_materialization.partition: dict(r.asset_materialization.tags or {})
            for r in records if r.asset_materialization is not None}


def test_only_the_partitions_the_engine_computed_are_recorded(instance: DagsterInstance) -> None:
    _run(instance)
    assert sorted(_materialisations(instance)) == COMPUTED


def test_each_partition_carries_its_own_data_version_and_code_version(instance: DagsterInstance) -> None:
    _run(instance)
    tags = _materialisations(instance)
    assert {p: (t["dagster/data_version"], t["dagster/code_version"]) for p, t in tags.items()} == {
        p: (f"dv-{p}", "v1") for p in COMPUTED}


def test_the_run_stores_no_planned_events(instance: DagsterInstance) -> None:
    _run(instance)
    assert instance.fetch_planned_materializations(AssetKey("cells"), limit=1000).records == []


def test_a_new_instance_uses_etalons_batching_storage_in_dagsters_usual_layout(instance: DagsterInstance,
                                                                                tmp_path: Path) -> None:
    _run(instance)
    assert type(instance.event_log_storage).__name__ == "BatchingSqliteEventLogStorage"
    assert (tmp_path / "history" / "runs" / "index.db").exists()


def _schema(path: Path) -> list[tuple[str, str]]:
    import sqlite3

    con = sqlite3.connect(path)
    try:
        return sorted(con.execute("SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchall())
    finally:
        con.close()


def test_a_run_database_gets_the_tables_and_revision_dagster_itself_would_give_it(instance: DagsterInstance,
                                                                                  tmp_path: Path) -> None:
    import inspect

    from dagster._core.storage.event_log.sqlite.sqlite_event_log import SqliteEventLogStorage
    from dagster._core.storage.sql import check_alembic_revision
    from sqlalchemy import create_engine

    from pipelines.dagster_internals import get_alembic_config

    _run(instance)
    run_id = instance.get_runs(limit=1)[0].run_id
    ours = tmp_path / "history" / "runs" / f"{run_id}.db"
    dagsters = SqliteEventLogStorage(str(tmp_path / "plain"))
    with dagsters.run_connection(run_id):
        pass
    assert _schema(ours) == _schema(Path(dagsters.path_for_shard(run_id)))
    with create_engine(f"sqlite:///{ours}").connect() as conn:   # Dagster reads our file as its own
        current, head = check_alembic_revision(get_alembic_config(inspect.getfile(SqliteEventLogStorage)), conn)
    assert current == head

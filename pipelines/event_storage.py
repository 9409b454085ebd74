"""Dagster's SQLite storage, with a step's asset events stored in one transaction instead of one each.

Dagster hands its storage a step's asset events as one batch (with `DAGSTER_EVENT_BATCH_SIZE` set), and its
PostgreSQL storage writes such a batch at once; the SQLite storage writes them one by one, each event a few
committed writes. An evaluation records one event per cell and asset, so on SQLite those commits were most of
the orchestration's cost. This storage keeps Dagster's files, tables and rows exactly (a warehouse made with
the default storage opens unchanged, and `dagster dev` reads it the same way) and only groups the writes.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import create_engine, event, inspect
from sqlalchemy.exc import DatabaseError

from pipelines.dagster_internals import (
    SQLITE_BUSY_TIMEOUT_SECONDS,
    ConfigurableClassData,
    DagsterEventType,
    DagsterSqliteStorage,
    EventLogEntry,
    SqlEventLogStorageMetadata,
    SqliteEventLogStorage,
    SqliteRunStorage,
    SqliteScheduleStorage,
    _event_logs_directory,
    _runs_directory,
    _schedule_directory,
    db_result,
    get_alembic_config,
)

_BATCHED = {DagsterEventType.ASSET_MATERIALIZATION, DagsterEventType.ASSET_OBSERVATION}


def _pragmas(connection: Any, _record: Any) -> None:
    """WAL with normal synchronisation: a commit no longer waits for the disk (a killed process loses nothing;
    a power cut may lose the last commits, never the database)."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


@functools.cache
def _migrations() -> Any:
    """Dagster's migration scripts, read once per process: Dagster reads all of them again (about 90 files) each
    time it opens a run's database, which was the largest fixed cost of a run."""
    import inspect as source

    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(get_alembic_config(source.getfile(SqliteEventLogStorage)))


class BatchingSqliteEventLogStorage(SqliteEventLogStorage):
    """Dagster opens a new SQLite engine (and file) for every stored event; this storage keeps one engine per
    shard for the life of the process, which is most of the cost of recording a run's events."""

    def _initdb(self, engine: Any, for_index_shard: bool = False) -> None:
        """Dagster's own set-up, without re-reading its migrations for every run's new database: a stamped
        database is left as it is (as Dagster leaves it), a new empty run database gets Dagster's tables and
        the head revision in one transaction; anything else (the index, an unstamped old file) goes to Dagster."""
        from alembic.runtime.migration import MigrationContext

        try:
            with engine.connect() as connection:
                if MigrationContext.configure(connection).get_current_revision() is not None:
                    return
                if not for_index_shard and not inspect(connection).get_table_names():
                    SqlEventLogStorageMetadata.create_all(connection)
                    MigrationContext.configure(connection).stamp(_migrations(), "head")
                    connection.commit()
                    return
        except (DatabaseError, sqlite3.DatabaseError):
            pass   # another process setting the same file up: Dagster's set-up retries
        super()._initdb(engine, for_index_shard)

    @contextmanager
    def _connect(self, shard: str) -> Iterator[Any]:
        with self._db_lock:
            engines: dict[str, Any] = self.__dict__.setdefault("_etalon_engines", {})
            engine = engines.get(shard)
            if engine is None:
                engine = create_engine(self.conn_string_for_shard(shard),
                                       connect_args={"timeout": SQLITE_BUSY_TIMEOUT_SECONDS,
                                                     "check_same_thread": False})
                event.listen(engine, "connect", _pragmas)
                if shard not in self._initialized_dbs:
                    self._initdb(engine)
                    self._initialized_dbs.add(shard)
                engines[shard] = engine
            with engine.connect() as conn, conn.begin():
                yield conn

    def has_table(self, table_name: str) -> bool:
        """Dagster asks before every dynamic-partition query whether that table exists, each time through a
        new engine; a table once there stays there, so a yes is remembered."""
        known: set[str] = self.__dict__.setdefault("_etalon_tables", set())
        if table_name not in known and super().has_table(table_name):
            known.add(table_name)
        return table_name in known

    def dispose(self) -> None:
        for engine in self.__dict__.pop("_etalon_engines", {}).values():
            engine.dispose()
        super().dispose()

    def store_event_batch(self, events: Sequence[EventLogEntry]) -> None:
        kinds = {e.dagster_event_type for e in events}
        runs = {e.run_id for e in events}
        if not events or not kinds <= _BATCHED or len(runs) != 1:
            super().store_event_batch(events)
            return
        statements = [self.prepare_insert_event(e) for e in events]
        with self.run_connection(events[0].run_id) as conn:
            for statement in statements:
                conn.execute(statement)
        with self.index_transaction() as conn:
            ids: list[int] = []
            for statement in statements:
                with db_result(conn, statement) as result:
                    ids.append(int(result.inserted_primary_key[0]))
            self._store_asset_event_tags(conn, events, ids)
            last: dict[Any, tuple[EventLogEntry, int]] = {}
            for event, event_id in zip(events, ids, strict=True):
                last[event.get_dagster_event().asset_key] = (event, event_id)
            for event, event_id in last.values():
                self._store_asset_event(conn, event, event_id)


class EtalonSqliteStorage(DagsterSqliteStorage):
    """The default SQLite storage (same `base_dir` layout) with the batching event log."""

    def __init__(self, base_dir: str, inst_data: ConfigurableClassData | None = None):
        # DagsterSqliteStorage.__init__, with the batching event log in place of Dagster's (made only once: the
        # parent would set up a default one first, a second pass over the index database).
        self.base_dir = base_dir
        self._run_storage = SqliteRunStorage.from_local(_runs_directory(base_dir))
        self._event_log_storage = BatchingSqliteEventLogStorage(_event_logs_directory(base_dir))
        self._schedule_storage = SqliteScheduleStorage.from_local(_schedule_directory(base_dir))
        self._inst_data = inst_data
        super(DagsterSqliteStorage, self).__init__()  # type: ignore[no-untyped-call]

    @classmethod
    def from_config_value(
        cls, inst_data: ConfigurableClassData, config_value: Any
    ) -> EtalonSqliteStorage:
        return cls.from_local(inst_data=inst_data, **config_value)

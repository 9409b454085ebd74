"""Dagster's SQLite storage, with a step's asset events stored in one transaction instead of one each.

Dagster hands its storage a step's asset events as one batch (with `DAGSTER_EVENT_BATCH_SIZE` set), and its
PostgreSQL storage writes such a batch at once; the SQLite storage writes them one by one, each event a few
committed writes. An evaluation records one event per cell and asset, so on SQLite those commits were most of
the orchestration's cost. This storage keeps Dagster's files, tables and rows exactly (a warehouse made with
the default storage opens unchanged, and `dagster dev` reads it the same way) and only groups the writes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import create_engine, event

from pipelines.dagster_internals import (
    SQLITE_BUSY_TIMEOUT_SECONDS,
    ConfigurableClassData,
    DagsterEventType,
    DagsterSqliteStorage,
    EventLogEntry,
    SqliteEventLogStorage,
    db_result,
)

_BATCHED = {DagsterEventType.ASSET_MATERIALIZATION, DagsterEventType.ASSET_OBSERVATION}


def _pragmas(connection: Any, _record: Any) -> None:
    """WAL with normal synchronisation: a commit no longer waits for the disk (a killed process loses nothing;
    a power cut may lose the last commits, never the database)."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class BatchingSqliteEventLogStorage(SqliteEventLogStorage):
    """Dagster opens a new SQLite engine (and file) for every stored event; this storage keeps one engine per
    shard for the life of the process, which is most of the cost of recording a run's events."""

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
        super().__init__(base_dir, inst_data)
        self._event_log_storage = BatchingSqliteEventLogStorage(os.path.join(base_dir, "history", "runs", ""))

    @classmethod
    def from_config_value(
        cls, inst_data: ConfigurableClassData, config_value: Any
    ) -> EtalonSqliteStorage:
        return cls.from_local(inst_data=inst_data, **config_value)

"""Every piece of Dagster that is not its public API, behind one module.

Etalon records one materialisation per partition with its own data version and provenance (so Dagster's UI
tells which partitions are current), writes a step's events as one batch, and keeps a cursor of the input
versions it reported. Dagster offers those only through internal modules, pinned with dagster 1.13.27
(pyproject.toml). `tests/pipeline/test_dagster_internals.py` checks each name below on the installed Dagster
and fails loudly, naming it, when an upgrade moves one.
"""

from __future__ import annotations

from dagster._core.definitions.data_version import (
    CODE_VERSION_TAG,
    DATA_VERSION_IS_USER_PROVIDED_TAG,
    DATA_VERSION_TAG,
    get_input_data_version_tag,
    get_input_event_pointer_tag,
)
from dagster._core.events import (
    DagsterEvent,
    DagsterEventBatchMetadata,
    DagsterEventType,
    generate_event_batch_id,
)
from dagster._core.events.log import EventLogEntry
from dagster._core.storage.event_log.schema import SqlEventLogStorageMetadata
from dagster._core.storage.event_log.sqlite.sqlite_event_log import SqliteEventLogStorage
from dagster._core.storage.runs.sqlite.sqlite_run_storage import SqliteRunStorage
from dagster._core.storage.schedules.sqlite.sqlite_schedule_storage import SqliteScheduleStorage
from dagster._core.storage.sql import get_alembic_config
from dagster._core.storage.sqlalchemy_compat import db_result
from dagster._core.storage.sqlite import SQLITE_BUSY_TIMEOUT_SECONDS
from dagster._core.storage.sqlite_storage import (
    DagsterSqliteStorage,
    _event_logs_directory,
    _runs_directory,
    _schedule_directory,
)
from dagster._serdes import ConfigurableClassData

DEFER_TAG = "dagster/defer_asset_events"
NULL_EVENT_POINTER = "NULL"

__all__ = [
    "CODE_VERSION_TAG",
    "DATA_VERSION_IS_USER_PROVIDED_TAG",
    "DATA_VERSION_TAG",
    "DEFER_TAG",
    "NULL_EVENT_POINTER",
    "SQLITE_BUSY_TIMEOUT_SECONDS",
    "ConfigurableClassData",
    "DagsterEvent",
    "DagsterEventBatchMetadata",
    "DagsterEventType",
    "DagsterSqliteStorage",
    "EventLogEntry",
    "SqlEventLogStorageMetadata",
    "SqliteEventLogStorage",
    "SqliteRunStorage",
    "SqliteScheduleStorage",
    "_event_logs_directory",
    "_runs_directory",
    "_schedule_directory",
    "db_result",
    "generate_event_batch_id",
    "get_alembic_config",
    "get_input_data_version_tag",
    "get_input_event_pointer_tag",
]

"""Every Dagster internal Etalon uses is there and means what it meant: an upgrade that moves one fails here,
naming it, instead of deep inside a run."""

from __future__ import annotations

import inspect

import pytest

from pipelines import dagster_internals as internals

TAGS = {"CODE_VERSION_TAG": "dagster/code_version", "DATA_VERSION_TAG": "dagster/data_version",
        "DATA_VERSION_IS_USER_PROVIDED_TAG": "dagster/data_version_is_user_provided"}


@pytest.mark.parametrize("name", internals.__all__)
def test_every_internal_is_importable(name: str) -> None:
    assert getattr(internals, name, None) is not None, f"dagster no longer offers {name}"


@pytest.mark.parametrize(("name", "value"), sorted(TAGS.items()))
def test_the_provenance_tags_keep_their_names(name: str, value: str) -> None:
    assert getattr(internals, name) == value


def test_input_provenance_tags_are_named_per_parent() -> None:
    from dagster import AssetKey

    assert internals.get_input_data_version_tag(AssetKey("a")) == "dagster/input_data_version/a"
    assert internals.get_input_event_pointer_tag(AssetKey("a")) == "dagster/input_event_pointer/a"


def test_a_steps_own_materialisation_event_takes_the_step_the_event_and_a_batch() -> None:
    params = list(inspect.signature(internals.DagsterEvent.asset_materialization).parameters)
    assert params[:3] == ["step_context", "materialization", "batch_metadata"]
    assert list(inspect.signature(internals.DagsterEventBatchMetadata).parameters)[:2] == ["id", "is_end"]


def test_the_sqlite_event_log_still_stores_batches_the_way_the_batching_storage_extends() -> None:
    for name in ("store_event_batch", "prepare_insert_event", "run_connection", "index_transaction",
                 "_store_asset_event_tags", "_store_asset_event", "_initdb", "has_table", "conn_string_for_shard"):
        assert hasattr(internals.SqliteEventLogStorage, name), f"SqliteEventLogStorage lost {name}"


def test_the_sqlite_storage_is_still_made_of_the_three_stores_the_etalon_storage_builds_itself() -> None:
    params = list(inspect.signature(internals.SqliteEventLogStorage._initdb).parameters)
    assert params == ["self", "engine", "for_index_shard"]
    for name in ("_runs_directory", "_event_logs_directory", "_schedule_directory"):
        assert getattr(internals, name)("/base").startswith("/base/"), name
    for cls in (internals.SqliteRunStorage, internals.SqliteScheduleStorage):
        assert hasattr(cls, "from_local"), f"{cls.__name__} lost from_local"

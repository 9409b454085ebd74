"""The lake behaves the same on a local folder, a file:// URL, a pyarrow filesystem and an object store."""

from __future__ import annotations

from typing import Any

import pyarrow.parquet as pq
import pytest

from tests.rows import row
from tests.warehouse.conftest import every_file
from warehouse.lake import Lake
from warehouse.schemas import SCHEMAS
from warehouse.tables import TABLES


def _answer(code: str, system: str, text: str = "old") -> dict[str, Any]:
    return row("answers", system=system, benchmark="b", code=code, version="v1", question_version="q1", attempt=1,
               text=text, status="ok")


def _texts(lake: Lake, *key: str) -> list[str]:
    return [r["text"] for r in lake.read("answers", *key).to_pylist()]


def test_a_written_partition_reads_back_its_rows(lake: Lake) -> None:
    lake.write("answers", ("C-01", "s1"), [_answer("C-01", "s1", "hello")])
    assert _texts(lake, "C-01", "s1") == ["hello"]


def test_a_partition_never_written_reads_as_an_empty_table_with_the_declared_columns(lake: Lake) -> None:
    table = lake.read("answers", "C-99", "s1")
    assert (table.num_rows, table.schema) == (0, SCHEMAS["answers"].schema)


def test_rewriting_a_partition_replaces_it_whole_and_leaves_no_temporary_file(lake: Lake) -> None:
    lake.write("answers", ("C-01", "s1"), [_answer("C-01", "s1", "old"), _answer("C-01", "s1", "old too")])
    lake.write("answers", ("C-01", "s1"), [_answer("C-01", "s1", "new")])
    assert (_texts(lake, "C-01", "s1"), every_file(lake)) == (["new"], ["answers/C-01/s1.parquet"])


def test_read_all_concatenates_every_partition_of_a_table(lake: Lake) -> None:
    for code, system in [("C-01", "s1"), ("C-01", "s2"), ("C-02", "s1")]:
        lake.write("answers", (code, system), [_answer(code, system)])
    rows = lake.read_all("answers").to_pylist()
    assert sorted((r["code"], r["system"]) for r in rows) == [("C-01", "s1"), ("C-01", "s2"), ("C-02", "s1")]


def test_read_all_of_a_table_never_written_is_empty_but_typed(lake: Lake) -> None:
    table = lake.read_all("scores")
    assert (table.num_rows, table.schema) == (0, SCHEMAS["scores"].schema)


@pytest.mark.parametrize("key", [("C-01", "s1"), ("art. 5/2", "sys one"), ("..", "ok")],
                         ids=["safe key", "key with slash and space", "dot-dot key"])
def test_keys_lists_each_written_partition_by_its_original_key(lake: Lake, key: tuple[str, str]) -> None:
    lake.write("answers", key, [_answer(*key)])
    assert lake.keys("answers") == [key]


def test_an_unpartitioned_table_is_one_partition_read_without_a_key(lake: Lake) -> None:
    lake.write("benchmarks", (), [row("benchmarks", id="b", name="Bench")])
    assert ([r["name"] for r in lake.read("benchmarks").to_pylist()], lake.keys("benchmarks")) == (["Bench"], [("all",)])


def test_each_appended_event_is_a_new_partition_and_none_is_overwritten(lake: Lake) -> None:
    first = lake.append_event("signatures", ("b", "C-01"), row("signatures", code="C-01", signed_by="ana"))
    second = lake.append_event("signatures", ("b", "C-01"), row("signatures", code="C-01", signed_by="ion"))
    signers = sorted(r["signed_by"] for r in lake.read_all("signatures").to_pylist())
    assert (first != second, signers) == (True, ["ana", "ion"])


def test_ensure_schemas_gives_every_table_a_typed_empty_file_that_is_not_a_partition(lake: Lake) -> None:
    lake.ensure_schemas()
    assert (lake.tables(), lake.keys("answers")) == (sorted(SCHEMAS), [])


def test_ensure_schemas_twice_leaves_exactly_one_schema_file_per_table(lake: Lake) -> None:
    lake.ensure_schemas()
    lake.ensure_schemas()
    # human events (signatures, decisions, ...) are JSON files, so their table's schema file is JSON too
    assert every_file(lake) == sorted(f"{t}/_schema.{'json' if TABLES[t].events else 'parquet'}" for t in SCHEMAS)


@pytest.mark.parametrize("written", [True, False], ids=["written", "never written"])
def test_exists_says_whether_a_partition_was_written(lake: Lake, written: bool) -> None:
    if written:
        lake.write("answers", ("C-01", "s1"), [_answer("C-01", "s1")])
    assert lake.exists("answers", "C-01", "s1") is written


@pytest.mark.parametrize("written", [True, False], ids=["written", "never written"])
def test_modified_ns_is_a_change_marker_that_is_zero_before_the_first_write(lake: Lake, written: bool) -> None:
    if written:
        lake.write("answers", ("C-01", "s1"), [_answer("C-01", "s1")])
    assert (lake.modified_ns("answers", "C-01", "s1") > 0) is written


def test_tables_lists_the_tables_with_data_and_skips_private_folders(lake: Lake) -> None:
    lake.write("scores", ("C-01", "s1"), [])
    lake.write("_calls", ("x",), [{"a": 1}])
    lake.write("answers", ("C-01", "s1"), [_answer("C-01", "s1")])
    assert lake.tables() == ["answers", "scores"]


def test_a_write_that_fails_midway_leaves_the_previous_partition_whole(lake: Lake,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    lake.write("answers", ("C-01", "s1"), [_answer("C-01", "s1", "old")])
    real = pq.write_table

    def write_then_fail(*args: Any, **kwargs: Any) -> None:
        real(*args, **kwargs)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pq, "write_table", write_then_fail)
    with pytest.raises(OSError, match="No space"):
        lake.write("answers", ("C-01", "s1"), [_answer("C-01", "s1", "new")])
    monkeypatch.undo()
    assert (_texts(lake, "C-01", "s1"), every_file(lake)) == (["old"], ["answers/C-01/s1.parquet"])

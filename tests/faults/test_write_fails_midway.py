"""A partition write that fails halfway (disk full) leaves the previous file whole and re-runs cleanly."""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from tests.rows import row
from warehouse.catalog import memory_catalog
from warehouse.lake import Lake

ROW = row("answers", system="s", benchmark="b", code="C-01", version="v1", question_version="q1", attempt=1,
          text="old", status="ok")


def _disk_full_after_some_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    real = pq.write_table

    def write_then_fail(table: Any, where: Any, **kwargs: Any) -> None:
        real(table, where, **kwargs)  # the bytes are out, as far as the writer got
        where.truncate(max(1, where.tell() // 2))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pq, "write_table", write_then_fail)  # the module object warehouse.lake calls


def _answer_rows(lake: Lake) -> list[tuple[Any, ...]]:
    con = memory_catalog(lake)
    try:
        return con.execute("SELECT code, attempt, text FROM eval.answers").fetchall()
    finally:
        con.close()


@pytest.mark.parametrize("earlier", [True, False], ids=["over an earlier file", "first write"])
def test_a_failed_write_leaves_no_partial_file_for_the_views(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               earlier: bool) -> None:
    lake = Lake(tmp_path / "lake")
    if earlier:
        lake.write("answers", ("C-01", "s"), [ROW])
    before = _answer_rows(lake)
    with monkeypatch.context() as patch:
        _disk_full_after_some_bytes(patch)
        with pytest.raises(OSError, match="No space"):
            lake.write("answers", ("C-01", "s"), [{**ROW, "text": "new"}])
    leftovers = [p.name for p in (tmp_path / "lake" / "answers").rglob("*") if p.is_file()
                 and p.name not in ("s.parquet", "_schema.parquet")]
    assert (leftovers, _answer_rows(lake)) == ([], before)


def test_the_partition_rewrites_cleanly_after_a_failed_write(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    lake = Lake(tmp_path / "lake")
    lake.write("answers", ("C-01", "s"), [ROW])
    with monkeypatch.context() as patch:
        _disk_full_after_some_bytes(patch)
        with pytest.raises(OSError):
            lake.write("answers", ("C-01", "s"), [{**ROW, "text": "new"}])
    lake.write("answers", ("C-01", "s"), [{**ROW, "text": "new"}])
    assert _answer_rows(lake) == [("C-01", 1, "new")]

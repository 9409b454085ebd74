"""A write killed halfway leaves a hidden temporary; later writes and ingests remove it once it is stale.

The kills are real: a child process is stopped with SIGKILL in the middle of a lake write (its Parquet writer
made to hang after the first bytes) or while it holds a temporary of its own. "Stale" means unchanged for
longer than a write takes and held by no live writer; the file's time is set back to stand for the hours
between the killed run and the next one.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from corpus.http_source import write_atomic
from corpus.sources import Source
from corpus.store import refresh_source
from tests.corpus.samples import LAW_TEXT
from warehouse.lake import Lake
from warehouse.tmpfiles import clean_stale

REPO = Path(__file__).resolve().parents[2]
HOURS_AGO = time.time() - 3 * 3600

KILLED_LAKE_WRITE = """
import sys, time
import pyarrow.parquet as pq
from tests.rows import row
from warehouse.lake import Lake

def hang(table, where, **options):
    where.write(b"PAR1")
    where.flush()
    print("writing", flush=True)
    time.sleep(600)

pq.write_table = hang
Lake(sys.argv[1]).write("corpus_units", ("docs",), [row("corpus_units", doc_id="x", path="1")])
"""

LOCKED_WRITER = """
import sys, time
from pathlib import Path
from warehouse.tmpfiles import temporary

with temporary(Path(sys.argv[1])) as (handle, tmp):
    handle.write(b"half")
    handle.flush()
    print(tmp, flush=True)
    time.sleep(600)
"""


def _child(script: str, *args: str) -> tuple[subprocess.Popen[str], str]:
    child = subprocess.Popen([sys.executable, "-c", script, *args], stdout=subprocess.PIPE, text=True, cwd=REPO,
                             env={**os.environ, "PYTHONPATH": str(REPO)})
    assert child.stdout is not None
    return child, child.stdout.readline().strip()


def _kill(child: subprocess.Popen[str]) -> None:
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)


def _temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def _age(path: Path) -> None:
    os.utime(path, (HOURS_AGO, HOURS_AGO))


@pytest.fixture
def killed_write(tmp_path: Path) -> Iterator[Path]:
    """A lake whose corpus_units/ holds the temporary of a write killed with SIGKILL, hours ago."""
    child, said = _child(KILLED_LAKE_WRITE, str(tmp_path / "lake"))
    try:
        assert said == "writing"
        [name] = _temporaries(tmp_path / "lake" / "corpus_units")
    finally:
        _kill(child)
    _age(tmp_path / "lake" / "corpus_units" / name)
    yield tmp_path / "lake"


def test_a_killed_lake_write_leaves_a_hidden_temporary(killed_write: Path) -> None:
    [name] = _temporaries(killed_write / "corpus_units")
    assert name.startswith(".docs.parquet.") and not (killed_write / "corpus_units" / "docs.parquet").exists()


def test_the_next_ingest_removes_a_stale_temporary_of_a_killed_write(tmp_path: Path, killed_write: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "law.txt").write_text(LAW_TEXT, encoding="utf-8")
    refresh_source(Lake(killed_write), Source("docs", path=tmp_path / "docs"), tmp_path / "staging")
    assert _temporaries(killed_write / "corpus_units") == []
    assert Lake(killed_write).read("corpus_units", "docs").num_rows > 0


def test_a_live_writers_temporary_survives_however_old_until_its_writer_dies(tmp_path: Path) -> None:
    child, said = _child(LOCKED_WRITER, str(tmp_path / "mirror" / "law.html"))
    try:
        tmp = Path(said)
        _age(tmp)
        assert (clean_stale(tmp.parent, older_than=60), tmp.exists()) == ([], True)
    finally:
        _kill(child)
    assert clean_stale(tmp.parent, older_than=60) == [tmp]


def test_a_fresh_temporary_is_left_to_the_write_it_may_belong_to(tmp_path: Path) -> None:
    (tmp_path / ".law.html.abc123.tmp").write_bytes(b"")
    assert clean_stale(tmp_path) == []
    assert _temporaries(tmp_path) == [".law.html.abc123.tmp"]


def test_hidden_files_that_are_not_temporaries_are_never_removed(tmp_path: Path) -> None:
    for name in (".http_state.json", ".law.html.tmp.bak", "law.tmp"):
        (tmp_path / name).write_bytes(b"{}")
        _age(tmp_path / name)
    assert clean_stale(tmp_path) == []


def test_a_write_into_the_http_mirror_removes_a_stale_temporary_there(tmp_path: Path) -> None:
    (tmp_path / "mirror").mkdir()
    stale = tmp_path / "mirror" / ".law.html.k1ll3d.tmp"
    stale.write_bytes(b"")
    _age(stale)
    write_atomic(tmp_path / "mirror" / "law.html", b"<html></html>")
    assert sorted(p.name for p in (tmp_path / "mirror").iterdir()) == ["law.html"]

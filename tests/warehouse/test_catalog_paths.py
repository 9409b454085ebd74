"""A warehouse folder may have any name a user can create: the catalog's views read it literally, never as a glob
pattern (a folder named `[a]` or `*` once left every view empty or pointed elsewhere)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tests.rows import row
from warehouse.catalog import build_catalog
from warehouse.lake import Lake


@pytest.mark.parametrize("name", ["home [a]", "home *", "home ?x", "home {b,c}", "домашний каталог", "it's"])
def test_the_catalog_reads_a_warehouse_whose_folder_name_looks_like_a_pattern(tmp_path: Path, name: str) -> None:
    root = tmp_path / name
    lake = Lake(root / "lake")
    lake.ensure_schemas()
    lake.write("answers", ("C-01", "s1"), [row("answers", system="s1", code="C-01", attempt=1, text="hi")])
    catalog = root / "etalon.duckdb"
    build_catalog(catalog, lake)
    con = duckdb.connect(str(catalog), read_only=True)
    try:
        assert con.execute("SELECT system, code, text FROM eval.answers").fetchall() == [("s1", "C-01", "hi")]
    finally:
        con.close()

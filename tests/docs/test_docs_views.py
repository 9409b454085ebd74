"""docs/views.md lists every view of the analysts' catalog with exactly its columns, in order, and its types."""

from __future__ import annotations

from pathlib import Path

import duckdb

from tests.docs.docs_text import documented_views


def _catalog(home: Path) -> dict[str, list[tuple[str, str]]]:
    con = duckdb.connect(str(home / "etalon.duckdb"), read_only=True)
    try:
        rows = con.execute(
            "SELECT table_schema || '.' || table_name, column_name, lower(data_type) "
            "FROM information_schema.columns WHERE table_schema IN ('corpus', 'bench', 'eval') "
            "ORDER BY table_schema, table_name, ordinal_position").fetchall()
    finally:
        con.close()
    views: dict[str, list[tuple[str, str]]] = {}
    for view, column, kind in rows:
        views.setdefault(view, []).append((column, kind))
    return views


def test_every_view_of_the_demo_catalog_is_documented_and_nothing_else(demo_home: Path) -> None:
    assert sorted(_catalog(demo_home)) == sorted(documented_views())


def test_every_documented_view_has_the_catalogs_columns_in_order_with_their_types(demo_home: Path) -> None:
    documented = documented_views()
    wrong = []
    for view, columns in _catalog(demo_home).items():
        doc = documented.get(view, [])
        if [c for c, _ in columns] != [c for c, _ in doc]:
            wrong.append(f"{view}: catalog {[c for c, _ in columns]} != docs {[c for c, _ in doc]}")
            continue
        for (column, kind), (_, doc_kind) in zip(columns, doc, strict=True):
            if kind not in [k.strip() for k in doc_kind.split("/")]:
                wrong.append(f"{view}.{column}: catalog type {kind}, docs say {doc_kind}")
    assert not wrong, "\n".join(wrong)

"""Which copy of a document is current when several sources hold it: the rule, and the catalog saying the same.

Each case is a set of copies of one document and the source whose copy must be current. The rule is checked as
the engine applies it (corpus.store.current_tables, what citations resolve against) and as the analysts' catalog
applies it (corpus.documents / corpus.copies), on the same lake; random cases then hold the two equal.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from corpus.precedence import Copy, decide, edition_of, why
from corpus.store import current_tables
from warehouse.catalog import memory_catalog
from warehouse.lake import Lake
from warehouse.tables import CorpusSourceRow

# (what the case shows, [(source, priority, version, modified)], the source whose copy is current)
CASES: list[tuple[str, list[tuple[str, int, str, str | None]], str]] = [
    ("a user's source beats the embedded sample whatever the times",
     [("sample", -1, "abcdef0123456789", "2026-12-03T10:00:00.000002+00:00"),
      ("gk-html-1", 0, "aaaaaaaaaaaaaaaa", "2020-01-01T00:00:00.000000+00:00")], "gk-html-1"),
    ("a user's source beats the sample even when the sample's name orders after",
     [("sample", -1, "2024-01-01+aaaaaaaa", None), ("official", 0, "bbbbbbbbbbbbbbbb", None)], "official"),
    ("a higher priority beats a newer edition",
     [("pinned", 5, "2020-01-01+aaaaaaaa", None), ("newer", 0, "2025-01-01+bbbbbbbb", None)], "pinned"),
    ("the newer edition wins at equal priority",
     [("a-old", 0, "2023-08-04+aaaaaaaa", "2026-01-01T00:00:00.000000+00:00"),
      ("z-new", 0, "2024-03-01+bbbbbbbb", "2025-01-01T00:00:00.000000+00:00")], "z-new"),
    ("the newer edition wins even when its source's name orders first",
     [("zz", 0, "2023-08-04+aaaaaaaa", None), ("aa", 0, "2024-03-01+bbbbbbbb", None)], "aa"),
    ("a copy stating its edition beats one that does not",
     [("undated", 0, "cccccccccccccccc", "2026-01-01T00:00:00.000000+00:00"),
      ("dated", 0, "2001-01-01+dddddddd", "2001-01-01T00:00:00.000000+00:00")], "dated"),
    ("the file modified last wins at the same edition",
     [("b", 0, "2023-08-04+aaaaaaaa", "2026-02-01T00:00:00.000000+00:00"),
      ("a", 0, "2023-08-04+bbbbbbbb", "2026-03-01T00:00:00.000000+00:00")], "a"),
    ("the source name decides only when nothing else does",
     [("alpha", 0, "eeeeeeeeeeeeeeee", None), ("omega", 0, "ffffffffffffffff", None)], "omega"),
]


def _document(doc_id: str, source: str, version: str, modified: str | None) -> dict[str, Any]:
    return {"doc_id": doc_id, "jurisdiction": "ru", "act": "ru/gk", "kind": "code", "title": "ГК", "number": None,
            "date": None, "issuer": None, "court": None, "version": version, "status": "in_force",
            "content_hash": version, "source": source, "file": f"/data/{source}/gk.html", "is_current": True,
            "ingested_at": "2026-12-03T00:00:00+00:00", "edition": edition_of(version), "modified": modified}


def _unit(doc_id: str, version: str, source: str) -> dict[str, Any]:
    return {"doc_id": doc_id, "version": version, "act": "ru/gk", "article": "1", "path": "1", "kind": "article",
            "number": "1", "heading": None, "text": f"текст из {source}", "ord": 0, "status": "in_force",
            "context": None, "is_current": True}


def _lake(root: Path, copies: list[tuple[str, int, str, str | None]], doc_id: str = "ru/gk/part-1") -> Lake:
    import pyarrow as pa

    lake = Lake(root)
    lake.ensure_schemas()
    by_source: dict[str, list[dict[str, Any]]] = {}
    for source, _, version, modified in copies:
        by_source.setdefault(source, []).append(_document(doc_id, source, version, modified))
    for source, rows in by_source.items():
        lake.write("corpus_documents", (source,), pa.Table.from_pylist(rows))
        lake.write("corpus_units", (source,), pa.Table.from_pylist([_unit(doc_id, r["version"], source)
                                                                      for r in rows]))
    lake.write("corpus_sources", (), [CorpusSourceRow(name=s, kind="folder", location=f"/data/{s}", priority=p)
                                      for s, p in sorted({(c[0], c[1]) for c in copies})])
    return lake


def _engine_choice(lake: Lake, copies: list[tuple[str, int, str, str | None]]) -> str:
    documents, units = current_tables(lake, {s: p for s, p, _, _ in copies})
    assert documents.num_rows == 1 and units.num_rows == 1
    source = str(documents["source"][0])
    assert units["text"][0].as_py() == f"текст из {source}"
    return source


def _catalog_choice(lake: Lake) -> str:
    con = memory_catalog(lake)
    try:
        rows = con.execute("SELECT source FROM corpus.documents").fetchall()
        unit = con.execute("SELECT text FROM corpus.units").fetchall()
    finally:
        con.close()
    assert len(rows) == 1 and unit == [(f"текст из {rows[0][0]}",)]
    return str(rows[0][0])


@pytest.mark.parametrize(("copies", "expected"), [(c, e) for _, c, e in CASES], ids=[n for n, _, _ in CASES])
def test_the_engine_reads_the_copy_the_rule_chooses(tmp_path: Path, copies: Any, expected: str) -> None:
    assert _engine_choice(_lake(tmp_path, copies), copies) == expected


@pytest.mark.parametrize(("copies", "expected"), [(c, e) for _, c, e in CASES], ids=[n for n, _, _ in CASES])
def test_the_catalog_shows_the_copy_the_rule_chooses(tmp_path: Path, copies: Any, expected: str) -> None:
    assert _catalog_choice(_lake(tmp_path, copies)) == expected


@pytest.mark.parametrize("seed", range(12))
def test_the_engine_and_the_catalog_choose_alike_on_random_copies(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    copies = []
    for i in range(rng.randint(2, 5)):
        version = (f"{rng.choice(['2022-01-01', '2023-08-04', '2024-03-01'])}+{i:08d}" if rng.random() < 0.6
                   else f"{i:016d}")
        modified = rng.choice([None, "2026-01-01T00:00:00.000000+00:00", "2026-06-01T00:00:00.000000+00:00"])
        copies.append((f"src-{rng.choice('abcdef')}{i}", rng.choice([-1, 0, 0, 0, 2]), version, modified))
    lake = _lake(tmp_path, copies)
    assert _engine_choice(lake, copies) == _catalog_choice(lake)


def test_corpus_copies_names_what_shadows_each_other_copy(tmp_path: Path) -> None:
    copies = CASES[0][1]
    con = memory_catalog(_lake(tmp_path, copies))
    try:
        rows = con.execute("SELECT source, rank, is_chosen, shadowed_by FROM corpus.copies ORDER BY rank").fetchall()
    finally:
        con.close()
    assert rows == [("gk-html-1", 1, True, None), ("sample", 2, False, "gk-html-1")]


@pytest.mark.parametrize(("winner", "loser", "reason"), [
    (Copy("d", "mine", "v1", 0), Copy("d", "sample", "v2", -1), "the embedded sample yields to any other source"),
    (Copy("d", "a", "2024-03-01+1", 0, "2024-03-01"), Copy("d", "b", "2023-08-04+2", 0, "2023-08-04"),
     "a newer edition (2024-03-01 over 2023-08-04)"),
    (Copy("d", "a", "2024-03-01+1", 0, "2024-03-01"), Copy("d", "b", "x", 0, None), "it states its edition"),
    (Copy("d", "a", "1", 0, None, "2026-03-01T00:00:00"), Copy("d", "b", "2", 0, None, "2026-02-01T00:00:00"),
     "its file was modified later"),
])
def test_the_reason_names_the_first_criterion_that_tells_the_copies_apart(winner: Copy, loser: Copy,
                                                                          reason: str) -> None:
    assert decide([loser, winner])["d"].current == winner
    assert reason in why(winner, loser)


GK_PART_ONE = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "ru" / "pravo-gov-ru-html" / \
    "102033239.html"
LATEST = "от&nbsp;04.08.2023&nbsp;№&nbsp;470-ФЗ</a>"


@pytest.mark.parametrize("newer_file", ["a.html", "z.html"])
def test_of_two_files_of_one_source_holding_a_document_the_newer_edition_is_current(tmp_path: Path,
                                                                                     newer_file: str) -> None:
    from corpus.sources import Source
    from corpus.store import refresh_source

    if not GK_PART_ONE.exists():
        pytest.skip(f"the shared corpus file {GK_PART_ONE} is not available")
    text = GK_PART_ONE.read_text(encoding="utf-8")
    folder = tmp_path / "codes"
    folder.mkdir()
    older_file = "z.html" if newer_file == "a.html" else "a.html"
    (folder / newer_file).write_text(text.replace(LATEST, LATEST + ", от&nbsp;01.02.2026&nbsp;№&nbsp;1-ФЗ", 1),
                                     encoding="utf-8")
    (folder / older_file).write_text(text, encoding="utf-8")
    lake = Lake(tmp_path / "lake")
    refresh_source(lake, Source("codes", path=folder), tmp_path / "staging")
    documents, _ = current_tables(lake, {"codes": 0})
    assert documents["edition"].to_pylist() == ["2026-02-01"]
    assert documents["file"].to_pylist() == [str(folder / newer_file)]

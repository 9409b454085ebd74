"""Re-ingesting changes nothing unless a document changed; a change keeps the old version."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from samples import META_UTF8, PORTAL_PAGE

from corpus.ingest import parse_path
from corpus.model import Document, IngestError
from corpus.numbering import normalise
from corpus.tables import compact, errors_table, merge_versions, units_table


def _doc(tmp_path: Path, page: str) -> Document:
    path = tmp_path / "code.html"
    path.write_text(page, encoding="utf-8")
    (doc,) = list(parse_path(path, "test"))
    assert isinstance(doc, Document)
    return doc


@pytest.fixture
def original(tmp_path: Path) -> Document:
    return _doc(tmp_path, PORTAL_PAGE.format(meta=META_UTF8))


@pytest.fixture
def amended(tmp_path: Path) -> Document:
    return _doc(tmp_path, PORTAL_PAGE.format(meta=META_UTF8).replace("проверку кодировок", "проверку версий"))


def test_reingesting_an_unchanged_document_adds_nothing(original: Document) -> None:
    first = merge_versions(None, None, [original])
    again = merge_versions(first.documents, first.units, [original])
    assert (again.added, again.changed, again.unchanged, again.units_added) == (0, 0, 1, 0)
    assert again.units.num_rows == first.units.num_rows


def test_a_changed_document_adds_a_version_and_keeps_the_old_one(original: Document, amended: Document) -> None:
    first = merge_versions(None, None, [original])
    second = merge_versions(first.documents, first.units, [amended])
    assert (second.added, second.changed, second.documents.num_rows) == (0, 1, 2)
    current = second.documents.filter(second.documents["is_current"])
    assert current.column("version").to_pylist() == [amended.version]


def test_only_units_of_the_latest_version_are_current(original: Document, amended: Document) -> None:
    first = merge_versions(None, None, [original])
    second = merge_versions(first.documents, first.units, [amended])
    texts = second.units.filter(pc.and_(second.units["is_current"], pc.equal(second.units["path"], "1/1")))
    assert texts.column("text").to_pylist() == ["1. Настоящий образец описывает проверку версий."]


def test_a_new_document_counts_as_added_with_all_its_units(original: Document) -> None:
    result = merge_versions(None, None, [original])
    assert (result.added, result.units_added) == (1, len(original.units))


def test_reverting_to_an_earlier_version_makes_it_current_without_duplicating_it(original: Document,
                                                                                  amended: Document) -> None:
    a = merge_versions(None, None, [original])
    b = merge_versions(a.documents, a.units, [amended])
    c = merge_versions(b.documents, b.units, [original])
    current = c.documents.filter(c.documents["is_current"]).column("version").to_pylist()
    assert (c.documents.num_rows, current) == (2, [original.version])


def test_units_table_has_the_columns_the_views_need(original: Document) -> None:
    table = units_table([original])
    assert {"doc_id", "version", "act", "article", "path", "kind", "number", "heading", "text", "ord", "status",
            "context"} <= set(table.column_names)


def test_errors_table_keeps_file_reason_detail_and_position() -> None:
    table = errors_table([IngestError("s", "a.xml", "malformed_xml", "bad tag", "line 3")], "2026-01-01T00:00:00Z")
    assert table.to_pylist() == [{"source": "s", "file": "a.xml", "reason": "malformed_xml", "detail": "bad tag",
                                  "position": "line 3", "at": "2026-01-01T00:00:00Z"}]


def test_a_batch_with_two_renderings_of_one_document_is_stable_on_the_next_run(original: Document) -> None:
    twin = replace(original, content_hash="f" * 64, version="other")
    first = merge_versions(None, None, [original, twin])
    again = merge_versions(first.documents, first.units, [original, twin])
    assert (again.unchanged, again.units_added, pc.sum(again.documents["is_current"]).as_py()) == (1, 0, 1)


def test_two_renderings_of_one_new_document_in_one_batch_count_as_one_added(original: Document) -> None:
    twin = replace(original, content_hash="f" * 64, version="other")
    first = merge_versions(None, None, [original, twin])
    assert (first.added, first.changed) == (1, 0)


def test_previous_tables_without_is_current_are_accepted(original: Document) -> None:
    first = merge_versions(None, None, [original])
    docs = first.documents.drop_columns(["is_current"])
    units = first.units.drop_columns(["is_current"])
    again = merge_versions(docs, units, [original])
    assert isinstance(again.documents, pa.Table) and again.unchanged == 1


@pytest.mark.parametrize(("written", "jurisdiction", "normalised"), [
    ("1152", "ru", "1152"),
    ("12.8", "ru", "12.8"),
    ("390^1", "ru", "390.1"),
    ("348.11-1", "ru", "348.11.1"),
    ("1.272", "ro", "1272"),
    ("2^1", "ro", "2^1"),
    ("1.001^2", "ro", "1001^2"),
    ("12.8", "ro", "12.8"),
])
def test_article_numbers_are_normalised_as_citations_write_them(written: str, jurisdiction: str,
                                                                 normalised: str) -> None:
    assert normalise(written, jurisdiction) == normalised


def test_a_compacted_document_merges_into_the_same_tables_as_the_parsed_one(original: Document,
                                                                          amended: Document) -> None:
    plain = merge_versions(None, None, [original])
    plain = merge_versions(plain.documents, plain.units, [amended])
    packed = merge_versions(None, None, [compact(original)])
    packed = merge_versions(packed.documents, packed.units, [compact(amended)])
    assert packed.documents.equals(plain.documents)
    assert packed.units.combine_chunks().equals(plain.units.combine_chunks())


def test_a_compacted_document_keeps_no_python_units_but_counts_them(original: Document) -> None:
    packed = compact(original)
    assert packed.head.units == ()
    assert packed.units.num_rows == len(original.units) > 0

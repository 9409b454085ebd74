"""A point the abridged sample only stands in for ("Пункты опущены в сокращённом образце") is never found."""

from __future__ import annotations

from pathlib import Path

import pytest

from citations import SetLookup, extract, resolve
from corpus.ingest import parse_path
from corpus.model import OMITTED, Document
from corpus.sources import Source
from corpus.store import current_tables, refresh_source
from warehouse.lake import Lake

SAMPLE = Path(__file__).resolve().parents[2] / "corpus" / "sample"
HERITAGE = SAMPLE / "ru" / "text" / "plenum-2012-05-29-n9-nasledovanie.txt"  # points 2-34 and 37-39 left out


@pytest.fixture(scope="module")
def sample_lake(tmp_path_factory: pytest.TempPathFactory) -> Lake:
    root = tmp_path_factory.mktemp("omitted")
    lake = Lake(root / "lake")
    refresh_source(lake, Source("sample", path=SAMPLE), root / "staging")
    return lake


def _status(lake: Lake, citation: str) -> str:
    documents, units = current_tables(lake)
    [resolution] = resolve(extract(citation, "ru"), SetLookup.from_tables(documents, units))
    return str(resolution.status)


def test_the_placeholder_points_of_the_sample_are_marked_omitted() -> None:
    [document] = [d for d in parse_path(HERITAGE, "sample") if isinstance(d, Document)]
    omitted = [u.path for u in document.units if u.status == OMITTED]
    assert omitted == [str(n) for n in [*range(2, 35), 37, 38, 39]]
    assert all(u.text.endswith("Пункты опущены в сокращённом образце.") for u in document.units
               if u.status == OMITTED)


def test_no_unit_with_text_of_its_own_is_marked_omitted() -> None:
    units = [u for f in sorted(SAMPLE.rglob("*.*")) for d in parse_path(f, "sample") if isinstance(d, Document)
             for u in d.units]
    assert {u.text.split(". ", 1)[-1] for u in units if u.status == OMITTED} == {
        "Пункты опущены в сокращённом образце.", "Пункт опущен в сокращённом образце."}


@pytest.mark.parametrize(("citation", "status"), [
    ("п. 5 постановления Пленума ВС РФ от 29.05.2012 № 9", "not_found"),
    ("п. 38 постановления Пленума ВС РФ от 29.05.2012 № 9", "not_found"),
    ("п. 36 постановления Пленума ВС РФ от 29.05.2012 № 9", "found"),
    ("п. 40 постановления Пленума ВС РФ от 29.05.2012 № 9", "found"),
])
def test_a_citation_of_an_omitted_point_is_not_found(sample_lake: Lake, citation: str, status: str) -> None:
    assert _status(sample_lake, citation) == status


def test_the_lake_keeps_the_placeholders_with_their_status(sample_lake: Lake) -> None:
    units = sample_lake.read("corpus_units", "sample")
    heritage = [s for d, s in zip(units["doc_id"].to_pylist(), units["status"].to_pylist(), strict=True)
                if d == "ru/vs-plenum/2012-05-29/9"]
    assert heritage.count(OMITTED) == 36

"""The legislatie.just.ro connector against a loopback SOAP service (tests/corpus/remote/loopback.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from corpus.ingest import parse_path
from corpus.model import Document
from corpus.remote import legislatie
from tests.corpus.remote.loopback import Site, serve

RECORDS = Path(__file__).resolve().parents[3] / "corpus" / "sample" / "ro" / "legislatie" / "legislatie-sample.jsonl"
SOAP = "/apiws/FreeWebService.svc/SOAP"


@pytest.fixture
def site() -> Iterator[Site]:
    with serve() as s:
        s.records = [json.loads(line) for line in RECORDS.read_text(encoding="utf-8").splitlines() if line]
        yield s


def run(site: Site, folder: Path, **extra: object) -> tuple[legislatie.FetchResult, int]:
    before = site.count()
    opts = legislatie.settings({"base_url": site.base_url, "search": {"title": "nr."}, "page_size": 3, "rate": 0,
                                **extra})
    return legislatie.fetch(opts, folder, "ro-acts"), site.count() - before


def test_the_first_run_pages_through_the_search_and_stores_every_record(site: Site, tmp_path: Path) -> None:
    result, requests = run(site, tmp_path)
    # a token, then pages 0, 1 and 2 of three records (the last one short: the end)
    assert (len(result.new), requests) == (8, 4)
    assert len(list(tmp_path.glob("*.jsonl"))) == 8


def test_the_stored_records_are_read_by_the_record_reader_with_their_date_in_force_as_edition(
        site: Site, tmp_path: Path) -> None:
    run(site, tmp_path)
    docs = [d for d in parse_path(tmp_path / "128647.jsonl", "t") if isinstance(d, Document)]
    assert [(d.doc_id, d.version[:11]) for d in docs] == [("ro/just/128647", "2011-05-18+")]
    assert any(u.article for u in docs[0].units)


def test_a_night_with_nothing_new_costs_a_token_and_one_page(site: Site, tmp_path: Path) -> None:
    run(site, tmp_path)
    result, requests = run(site, tmp_path)
    assert (result.fetched, requests) == ((), 2)


def test_a_new_consolidated_version_is_fetched_on_the_first_page(site: Site, tmp_path: Path) -> None:
    run(site, tmp_path)
    record = next(r for r in site.records if r["LinkHtml"].endswith("/29749"))
    record.update(DataVigoare="2030-01-01", Text=record["Text"].replace("Articolul 1", "Articolul 1 (nou)", 1))
    result, requests = run(site, tmp_path)
    # a token, page 0 (the new version, newest first), page 1 (nothing new: the rest is held)
    assert ([p.name for p in result.fetched], result.new, requests) == (["29749.jsonl"], (), 3)
    docs = [d for d in parse_path(tmp_path / "29749.jsonl", "t") if isinstance(d, Document)]
    assert docs[0].version.startswith("2030-01-01+")


def test_a_year_query_asks_the_service_for_that_year_only(site: Site, tmp_path: Path) -> None:
    before = site.count()
    legislatie.fetch(legislatie.settings({"base_url": site.base_url, "years": [2014], "rate": 0}), tmp_path, "ro")
    assert (sorted(p.name for p in tmp_path.glob("*.jsonl")), site.count() - before) == (
        ["159159.jsonl", "159286.jsonl"], 2)


def test_an_expired_token_is_replaced_once_and_the_search_goes_on(site: Site, tmp_path: Path) -> None:
    site.token_limit = 1
    result, requests = run(site, tmp_path)
    # each token serves one search: page 0; then 500, a new token, page 1; then 500, a new token, page 2
    assert (len(result.new), result.errors, requests) == (8, (), 8)


def test_a_failed_page_is_an_error_and_the_next_run_goes_on_from_it(site: Site, tmp_path: Path) -> None:
    site.faults[SOAP] = []
    result, _ = run(site, tmp_path, max_pages=2)
    assert len(result.new) == 6
    site.faults[SOAP] = [(200, {})]   # a page that is no SOAP: recorded, the records so far stay
    result, _ = run(site, tmp_path)
    assert [e.reason for e in result.errors] == ["bad_response"] and len(list(tmp_path.glob("*.jsonl"))) == 6
    result, requests = run(site, tmp_path)
    assert (len(result.new), requests) == (2, 2)   # a token and page 2, where the first pass stopped

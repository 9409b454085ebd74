"""The publication portal's daily lists and the Akoma Ntoso FRBR connector, against loopback servers."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from corpus.remote import akn, publication
from corpus.remote.mirror import CURSOR
from corpus.sources import Source
from corpus.store import current_tables, refresh_source
from tests.corpus.remote.loopback import Site, serve
from warehouse.lake import Lake

REPO = Path(__file__).resolve().parents[3]
AKN = (REPO / "corpus" / "sample" / "akn" / "ro-constitutie-2003.xml").read_text(encoding="utf-8")
WORK = "/akn/ro/act/constitutie/1991-11-21"
LAW = """<html><head><meta charset="utf-8"></head><body>
<p class="T">ФЕДЕРАЛЬНЫЙ ЗАКОН</p><p class="T">О проверке {n}</p>
<p class="H">Статья 1. Предмет</p><p>Настоящий Федеральный закон {n} проверяет обновление.</p>
<p class="H">Статья 2. Вступление в силу</p><p>Вступает в силу со дня опубликования.</p>
</body></html>"""


@pytest.fixture
def site() -> Iterator[Site]:
    with serve() as s:
        yield s


def card(eo: str, day: str, block: str = "assembly") -> dict[str, object]:
    return {"eoNumber": eo, "complexName": f"Федеральный закон от {day} № {eo[-3:]}-ФЗ", "name": f"О проверке {eo}",
            "number": f"{eo[-3:]}-ФЗ", "documentDate": f"{day}T00:00:00", "publishDateShort": f"{day}T00:00:00",
            "pagesCount": 2, "id": eo, "_block": block}


def publish(site: Site, eo: str, day: str, block: str = "assembly") -> None:
    site.cards.append(card(eo, day, block))
    site.set(f"/text/{eo}", LAW.format(n=eo).encode("utf-8"), "text/html; charset=utf-8")


def publication_options(site: Site, **extra: object) -> dict[str, object]:
    return publication.settings({"base_url": site.base_url, "since": "2026-11-01", "blocks": ["assembly"],
                                 "page_size": 2, "text_url": "{base_url}/text/{eoNumber}", "rate": 0, **extra})


# -- the publication portal ------------------------------------------------------------------------------------
def test_the_daily_lists_are_paged_and_each_new_act_s_text_is_fetched(site: Site, tmp_path: Path) -> None:
    for i, day in enumerate(("2026-11-02", "2026-11-03", "2026-11-05")):
        publish(site, f"000120261100{i:04d}", day)
    publish(site, "0001202611009999", "2026-11-04", block="government")
    result = publication.fetch(publication_options(site), tmp_path, "ru-new")
    assert sorted(p.name for p in result.new) == [f"000120261100{i:04d}.html" for i in range(3)]
    assert [p.split("?")[0] for p in site.paths()] == ["/api/Documents", "/api/Documents",
                                                       *[f"/text/000120261100{i:04d}" for i in range(3)]]
    assert len(publication.new_cards(tmp_path)) == 3


def test_a_night_with_nothing_published_costs_one_page_per_block(site: Site, tmp_path: Path) -> None:
    publish(site, "0001202611020001", "2026-11-02")
    publication.fetch(publication_options(site), tmp_path, "ru-new")
    before = site.count()
    result = publication.fetch(publication_options(site), tmp_path, "ru-new")
    assert (result.fetched, [p.split("?")[0] for p in site.paths()[before:]]) == ((), ["/api/Documents"])


def test_only_the_act_published_since_the_last_run_is_fetched(site: Site, tmp_path: Path) -> None:
    publish(site, "0001202611040001", "2026-11-04")
    publication.fetch(publication_options(site, overlap_days=2), tmp_path, "ru-new")
    publish(site, "0001202611060002", "2026-11-06")
    before = site.count()
    result = publication.fetch(publication_options(site, overlap_days=2), tmp_path, "ru-new")
    assert [p.name for p in result.new] == ["0001202611060002.html"]
    asked = site.paths()[before:]   # listed from the newest date seen less the overlap; the old card not taken
    assert "DocumentDateFrom=02.11.2026" in asked[0] and asked[1:] == ["/text/0001202611060002"]


def test_without_a_text_url_only_the_cards_are_kept(site: Site, tmp_path: Path) -> None:
    publish(site, "0001202611020001", "2026-11-02")
    opts = {k: v for k, v in publication_options(site).items() if k != "text_url"}
    result = publication.fetch(opts, tmp_path, "ru-new")
    assert (result.fetched, [c["eoNumber"] for c in publication.new_cards(tmp_path)]) == (
        (), ["0001202611020001"])


def test_a_text_that_fails_stays_pending_and_is_fetched_by_the_next_run(site: Site, tmp_path: Path) -> None:
    publish(site, "0001202611020001", "2026-11-02")
    site.faults["/text/"] = [(500, {"Retry-After": "0"})] * 4
    result = publication.fetch(publication_options(site), tmp_path, "ru-new")
    assert [e.reason for e in result.errors] == ["http_error"]
    result = publication.fetch(publication_options(site), tmp_path, "ru-new")
    assert [p.name for p in result.new] == ["0001202611020001.html"]


# -- Akoma Ntoso FRBR ------------------------------------------------------------------------------------------
def expression(date: str, words: str = "") -> bytes:
    text = re.sub(r'(<FRBRExpression>.*?<FRBRdate date=")[^"]+', lambda m: m.group(1) + date, AKN, count=1,
                  flags=re.S)
    return text.replace("Articolul 1", "Articolul 1" + words, 1).encode("utf-8")


def publish_work(site: Site, dates: list[str]) -> None:
    points = [{"date": d, "expressions": [{"expression_frbr_uri": f"{WORK}/ron@{d}", "language": "ron",
                                           "expression_date": d}]} for d in dates]
    site.set(f"{WORK}.json", json.dumps({"frbr_uri": WORK, "points_in_time": points}).encode(), "application/json")
    for i, d in enumerate(dates):
        site.set(f"{WORK}/ron@{d}.xml", expression(d, f" (versiunea {i})"), "application/xml")


def akn_options(site: Site, **extra: object) -> dict[str, object]:
    return akn.settings({"base_url": site.base_url, "works": [WORK], "rate": 0, **extra})


def test_every_expression_of_a_work_is_fetched_and_the_latest_is_current(site: Site, tmp_path: Path) -> None:
    publish_work(site, ["2003-10-31", "2024-05-01"])
    source = Source("akn", url=site.base_url, kind="akn-frbr", options=akn_options(site))
    lake = Lake(tmp_path / "lake")
    summary = refresh_source(lake, source, tmp_path / "mirror")
    documents, _ = current_tables(lake, {"akn": 0})
    assert (summary.fetch or {}).get("fetch.new") == 2
    assert [(d, e) for d, e in zip(documents["doc_id"].to_pylist(), documents["edition"].to_pylist(),
                                   strict=True)] == [("akn:/akn/ro/act/constitutie/1991-11-21/main", "2024-05-01")]


def test_an_unchanged_work_costs_one_304_and_no_expression_is_asked_for_again(site: Site, tmp_path: Path) -> None:
    publish_work(site, ["2003-10-31"])
    akn.fetch(akn_options(site), tmp_path, "akn")
    before = site.count()
    result = akn.fetch(akn_options(site), tmp_path, "akn")
    assert (site.statuses()[before:], result.fetched) == ([304], ())


def test_a_new_point_in_time_fetches_only_the_new_expression(site: Site, tmp_path: Path) -> None:
    publish_work(site, ["2003-10-31"])
    akn.fetch(akn_options(site), tmp_path, "akn")
    publish_work(site, ["2003-10-31", "2025-01-01"])
    before = site.count()
    result = akn.fetch(akn_options(site), tmp_path, "akn")
    assert site.paths()[before:] == [f"{WORK}.json", f"{WORK}/ron@2025-01-01.xml"]
    assert [p.name for p in result.new] == ["ron@2025-01-01.xml"]


def test_the_token_comes_from_the_environment_and_is_written_nowhere(site: Site, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    publish_work(site, ["2003-10-31"])
    monkeypatch.setenv("AKN_TEST_TOKEN", "s3cr3t-token")
    seen: list[str] = []
    import corpus.remote.http as http

    real = http.urllib.request.OpenerDirector.open

    def spy(self: object, req: object, *args: object, **kwargs: object) -> object:
        seen.append(req.get_header("Authorization"))  # type: ignore[attr-defined]
        return real(self, req, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(http.urllib.request.OpenerDirector, "open", spy)
    opts = akn_options(site, token_env="AKN_TEST_TOKEN")
    akn.fetch(opts, tmp_path, "akn")
    assert set(seen) == {"Token s3cr3t-token"}
    assert all(b"s3cr3t" not in p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    assert "s3cr3t" not in json.dumps(opts) and (tmp_path / CURSOR).exists()


def test_an_expression_that_is_not_xml_is_an_error_and_is_not_stored(site: Site, tmp_path: Path) -> None:
    publish_work(site, ["2003-10-31"])
    site.set(f"{WORK}/ron@2003-10-31.xml", b'<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>', "application/xml")
    result = akn.fetch(akn_options(site), tmp_path, "akn")
    assert [e.reason for e in result.errors] == ["xml_entities"] and not list(tmp_path.rglob("*.xml"))

"""The pravo.gov.ru connector and the shared client, against a loopback IPS (tests/corpus/remote/loopback.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from corpus.ingest import parse_path
from corpus.model import Document
from corpus.remote import pravo
from corpus.remote.mirror import CURSOR, due, load_cursor
from tests.corpus.remote.loopback import Site, serve

SAMPLE = Path(__file__).resolve().parents[3] / "corpus" / "sample" / "ru" / "html"
PAGES = {"102073578": "gk-part3.html", "102038925": "sk.html", "102074279": "tk.html"}


def path_of(nd: str) -> str:
    return f"/proxy/ips/?doc_itself=&nd={nd}"


@pytest.fixture
def site() -> Iterator[Site]:
    with serve() as s:
        for nd, name in PAGES.items():
            s.set(path_of(nd), (SAMPLE / name).read_bytes(), "text/html; charset=utf-8")
        yield s


def options(site: Site, **extra: object) -> dict[str, object]:
    return pravo.settings({"base_url": site.base_url, "documents": list(PAGES), "rate": 0, **extra})


def run(site: Site, folder: Path, **extra: object) -> tuple[pravo.FetchResult, list[int]]:
    before = site.count()
    result = pravo.fetch(options(site, **extra), folder, "ru-codes")
    return result, site.statuses()[before:]


def units(path: Path) -> list[tuple[str, str]]:
    docs = [d for d in parse_path(path, "t") if isinstance(d, Document)]
    return [(u.path, u.text) for d in docs for u in d.units]


# -- conditional requests: what each night costs ---------------------------------------------------------------
def test_the_first_run_fetches_every_listed_document(site: Site, tmp_path: Path) -> None:
    result, statuses = run(site, tmp_path)
    assert (len(result.fetched), len(result.new), statuses) == (3, 3, [200, 200, 200])
    assert sorted(p.name for p in tmp_path.glob("*.html")) == sorted(f"{nd}.html" for nd in PAGES)


def test_a_night_with_nothing_amended_costs_one_304_per_document_and_fetches_nothing(site: Site,
                                                                                       tmp_path: Path) -> None:
    run(site, tmp_path)
    result, statuses = run(site, tmp_path)
    assert (result.fetched, len(result.unchanged), statuses, result.requests) == ((), 3, [304, 304, 304], 3)


def test_a_new_consolidated_version_is_fetched_again_and_the_others_are_not(site: Site, tmp_path: Path) -> None:
    run(site, tmp_path)
    page = (SAMPLE / "gk-part3.html").read_text(encoding="utf-8")
    site.set(path_of("102073578"), page.replace("в течение шести месяцев", "в течение трёх месяцев", 1)
             .encode("utf-8"), "text/html; charset=utf-8")
    result, statuses = run(site, tmp_path)
    assert ([p.name for p in result.fetched], sorted(statuses)) == (["102073578.html"], [200, 304, 304])
    assert "трёх месяцев" in (tmp_path / "102073578.html").read_text(encoding="utf-8")


def test_identical_bytes_from_a_server_without_validators_are_not_written_again(site: Site, tmp_path: Path) -> None:
    for nd, name in PAGES.items():
        site.set(path_of(nd), (SAMPLE / name).read_bytes(), validators=False)
    run(site, tmp_path)
    stamp = (tmp_path / "102073578.html").stat().st_mtime_ns
    result, statuses = run(site, tmp_path)
    assert (result.fetched, statuses) == ((), [200, 200, 200])
    assert (tmp_path / "102073578.html").stat().st_mtime_ns == stamp


# -- encodings -------------------------------------------------------------------------------------------------
def _cp1251(meta: bool) -> bytes:
    text = (SAMPLE / "gk-part3.html").read_text(encoding="utf-8")
    text = text.replace('<meta charset="utf-8">', '<meta charset="windows-1251">' if meta else "")
    return text.encode("windows-1251")


@pytest.mark.parametrize(("body", "content_type", "encoding"), [
    (lambda: _cp1251(meta=True), "text/html", "auto"),
    (lambda: _cp1251(meta=False), "text/html; charset=windows-1251", "auto"),
    (lambda: _cp1251(meta=False), "text/html", "windows-1251"),
    (lambda: (SAMPLE / "gk-part3.html").read_bytes(), "text/html; charset=utf-8", "auto"),
], ids=["windows-1251 declared in the page", "windows-1251 named by the server only",
        "windows-1251 named by the setting only", "UTF-8"])
def test_windows_1251_and_utf8_pages_read_the_same_units(site: Site, tmp_path: Path, body: object,
                                                         content_type: str, encoding: str) -> None:
    site.set(path_of("102073578"), body(), content_type)  # type: ignore[operator]
    pravo.fetch(pravo.settings({"base_url": site.base_url, "documents": [102073578], "encoding": encoding,
                                "rate": 0}), tmp_path / "m", "ru")
    assert units(tmp_path / "m" / "102073578.html") == units(SAMPLE / "gk-part3.html") != []


# -- politeness and failures -----------------------------------------------------------------------------------
def test_a_429_with_retry_after_is_waited_out_then_the_document_is_fetched(site: Site, tmp_path: Path) -> None:
    site.faults[path_of("102073578")] = [(429, {"Retry-After": "1"})]
    result, statuses = run(site, tmp_path)
    asked = [t for p, _, t in site.requests if p == path_of("102073578")]
    assert (statuses[:2], len(result.fetched), result.errors) == ([429, 200], 3, ())
    assert asked[1] - asked[0] >= 1.0


def test_a_retry_after_longer_than_the_source_waits_is_an_error_and_the_rest_goes_on(site: Site,
                                                                                        tmp_path: Path) -> None:
    site.faults[path_of("102073578")] = [(429, {"Retry-After": "3600"})]
    result, _ = run(site, tmp_path, max_wait=5)
    assert ([e.reason for e in result.errors], len(result.fetched)) == (["rate_limited"], 2)


def test_a_5xx_is_retried_then_recorded_as_an_error_and_the_stored_copy_stays(site: Site, tmp_path: Path) -> None:
    run(site, tmp_path)
    kept = (tmp_path / "102073578.html").read_bytes()
    site.set(path_of("102073578"), b"<html>new</html>")
    site.faults[path_of("102073578")] = [(503, {"Retry-After": "0"})] * 3
    result, statuses = run(site, tmp_path, retries=2)
    assert statuses.count(503) == 3 and [(e.reason, e.detail) for e in result.errors] == [
        ("http_error", "HTTP 503 Service Unavailable after 3 attempts")]
    assert (tmp_path / "102073578.html").read_bytes() == kept
    assert due(tmp_path, options(site, retries=2)) is None    # an hour passes before the failure is retried


def test_the_rate_limit_spaces_requests_to_one_host(site: Site, tmp_path: Path) -> None:
    started = time.monotonic()
    run(site, tmp_path, rate=4)
    # three requests at four a second: the client waits a quarter of a second before the second and the third
    assert time.monotonic() - started >= 0.5 and site.count() == 3


# -- kill -9 and resume ----------------------------------------------------------------------------------------
_CHILD = """
import sys
from pathlib import Path
from corpus.remote import pravo
pravo.fetch(pravo.settings({"base_url": sys.argv[1], "documents": sys.argv[3].split(","), "rate": 0}),
            Path(sys.argv[2]), "ru-codes")
"""


def test_a_fetch_killed_with_sigkill_resumes_without_asking_again_for_what_it_stored(site: Site,
                                                                                      tmp_path: Path) -> None:
    held = "102074279"
    site.hold[path_of(held)] = __import__("threading").Event()
    order = ["102073578", "102038925", held]
    child = subprocess.Popen([sys.executable, "-c", _CHILD, site.base_url, str(tmp_path), ",".join(order)],
                             cwd=Path(__file__).resolve().parents[3], env={**os.environ, "PYTHONPATH": "."})
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not site.reached.get(path_of(held)):
            time.sleep(0.05)
        assert site.reached.get(path_of(held)), "the child never reached the third document"
        os.kill(child.pid, signal.SIGKILL)
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
    site.hold.pop(path_of(held)).set()
    assert load_cursor(tmp_path)["run"]["finished"] is None and due(tmp_path, {}) is not None
    before = site.count()
    result = pravo.fetch(pravo.settings({"base_url": site.base_url, "documents": order, "rate": 0}), tmp_path,
                         "ru-codes")
    assert site.paths()[before:] == [path_of(held)]
    assert ([p.name for p in result.fetched], sorted(p.name for p in tmp_path.glob("*.html"))) == (
        [f"{held}.html"], sorted(f"{nd}.html" for nd in order))
    assert load_cursor(tmp_path)["run"]["finished"] and (tmp_path / CURSOR).exists()

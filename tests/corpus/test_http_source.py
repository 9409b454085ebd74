"""The HTTP index mirror against a real server on the loopback interface (no other network)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from corpus.remote.index import fetch_index, parse_index
from corpus.remote.mirror import CURSOR


class _Site:
    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.requests: list[tuple[str, int]] = []


def _handler(site: _Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            # the request is recorded before answering, so the client never sees a response the log lacks
            body = site.files.get(self.path)
            if body is None:
                site.requests.append((self.path, 404))
                self.send_response(404)
                self.end_headers()
                return
            etag = f'"{hash(body) & 0xFFFFFFFF:x}"'
            if self.headers.get("If-None-Match") == etag:
                site.requests.append((self.path, 304))
                self.send_response(304)
                self.end_headers()
                return
            site.requests.append((self.path, 200))
            self.send_response(200)
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", formatdate(usegmt=True))
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


@pytest.fixture
def site() -> Iterator[tuple[_Site, str]]:
    s = _Site()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(s))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield s, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _publish(s: _Site) -> None:
    s.files["/index.json"] = json.dumps(["/docs/a.txt", {"url": "/docs/b.html", "name": "b.html"}]).encode()
    s.files["/docs/a.txt"] = "Статья 1. Первая".encode()
    s.files["/docs/b.html"] = b"<html><body></body></html>"


def test_the_first_fetch_downloads_every_listed_document(site: tuple[_Site, str], tmp_path: Path) -> None:
    s, base = site
    _publish(s)
    result = fetch_index(base + "/index.json", tmp_path)
    assert (len(result.fetched), result.unchanged, result.errors) == (2, (), ())
    assert (tmp_path / "b.html").read_bytes() == b"<html><body></body></html>"


def test_a_second_fetch_asks_conditionally_and_downloads_nothing_unchanged(site: tuple[_Site, str],
                                                                           tmp_path: Path) -> None:
    s, base = site
    _publish(s)
    fetch_index(base + "/index.json", tmp_path)
    result = fetch_index(base + "/index.json", tmp_path)
    assert (result.fetched, len(result.unchanged)) == ((), 2)
    assert [code for path, code in s.requests if path.startswith("/docs/")][-2:] == [304, 304]


def test_a_changed_document_is_downloaded_again(site: tuple[_Site, str], tmp_path: Path) -> None:
    s, base = site
    _publish(s)
    fetch_index(base + "/index.json", tmp_path)
    s.files["/docs/b.html"] = b"<html><body><p>new</p></body></html>"
    result = fetch_index(base + "/index.json", tmp_path)
    assert ([p.name for p in result.fetched], len(result.unchanged)) == (["b.html"], 1)
    assert (tmp_path / "b.html").read_bytes().endswith(b"</html>")


def test_a_missing_document_is_an_error_and_the_others_are_fetched(site: tuple[_Site, str], tmp_path: Path) -> None:
    s, base = site
    _publish(s)
    s.files["/index.json"] = b"/docs/a.txt\n# a comment\n/docs/gone.txt\n"
    result = fetch_index(base + "/index.json", tmp_path)
    assert (len(result.fetched), [(e.reason, e.detail) for e in result.errors]) == (
        1, [("http_error", "HTTP 404 Not Found")])


def test_the_validators_are_remembered_in_the_cursor_beside_the_documents(site: tuple[_Site, str],
                                                                          tmp_path: Path) -> None:
    s, base = site
    _publish(s)
    fetch_index(base + "/index.json", tmp_path)
    state = json.loads((tmp_path / CURSOR).read_text())["validators"]
    assert sorted(state) == [base + "/docs/a.txt", base + "/docs/b.html", base + "/index.json"]
    assert all("etag" in v and "last_modified" in v for v in state.values())


def test_an_unchanged_index_is_answered_304_and_its_stored_copy_is_read(site: tuple[_Site, str],
                                                                        tmp_path: Path) -> None:
    s, base = site
    _publish(s)
    fetch_index(base + "/index.json", tmp_path)
    result = fetch_index(base + "/index.json", tmp_path)
    assert [code for path, code in s.requests if path == "/index.json"] == [200, 304]
    assert len(result.unchanged) == 2


@pytest.mark.parametrize(("body", "urls"), [
    (b'["a.html", "https://x.example/b.xml"]', ["http://h/i/a.html", "https://x.example/b.xml"]),
    (b"a.html\n\n# note\nsub/c.txt  # trailing\n", ["http://h/i/a.html", "http://h/i/sub/c.txt"]),
])
def test_both_index_formats_resolve_relative_urls(body: bytes, urls: list[str]) -> None:
    assert [u for u, _ in parse_index(body, "http://h/i/index")] == urls


def test_only_http_indexes_are_fetched(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="only http"):
        fetch_index("file:///etc/passwd", tmp_path)

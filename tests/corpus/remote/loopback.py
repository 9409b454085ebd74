"""Loopback servers speaking each official service's protocol, built from the services' published descriptions.

- legislatie.just.ro: the Ministry of Justice's description of its web service (ServiciulWebLegislatie.htm) and
  its reference client (govro/legislatie-just-python-soap-client): SOAP 1.1 at /apiws/FreeWebService.svc/SOAP,
  GetToken then Search(SearchModel, tokenKey), records as Legi in SearchResult, pages from 0, a page past the end
  empty. Assumed where nothing public says: records newest (by DataVigoare) first; an expired token answered with
  HTTP 500 (what public clients report of the live service).
- pravo.gov.ru IPS: /proxy/ips/?doc_itself=&nd=N serves the consolidated text, windows-1251 or UTF-8. Assumed:
  ETag / Last-Modified validators and 304 answers (the portal's own behaviour is not described).
- publication.pravo.gov.ru: /api/Documents with block, DocumentDateFrom (DD.MM.YYYY), index (from 1), pageSize;
  JSON {items, itemsTotalCount, itemsPerPage, currentPage, pagesTotalCount}, cards with eoNumber, complexName,
  documentDate, publishDateShort. The text of an act at /text/{eoNumber} is this server's (the portal has PDF).
- Akoma Ntoso FRBR (the Laws.Africa content API's description of works and expressions): {work}.json with
  points_in_time, {expression}.xml.

Every server records each request (path, status) before answering, can be told to answer a path with a list
of statuses first (429 with Retry-After, 503 ...), and can hold a path until released (to kill a client
mid-fetch). Nothing here reaches past 127.0.0.1.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from lxml import etree

from corpus.limits import safe_xml_parser


@dataclass
class Served:
    """A body and its content type; the ETag is its digest, Last-Modified when it was set."""

    body: bytes
    content_type: str = "text/html"
    modified: float = field(default_factory=time.time)
    validators: bool = True

    @property
    def etag(self) -> str:
        return '"' + hashlib.sha256(self.body).hexdigest()[:16] + '"'


@dataclass
class Site:
    """The state of one loopback server: what it serves, what it was asked, the faults it is told to make."""

    files: dict[str, Served] = field(default_factory=dict)     # path (with query) -> body
    requests: list[tuple[str, int, float]] = field(default_factory=list)
    faults: dict[str, list[tuple[int, dict[str, str]]]] = field(default_factory=dict)
    hold: dict[str, threading.Event] = field(default_factory=dict)
    reached: dict[str, threading.Event] = field(default_factory=dict)
    # legislatie.just.ro
    records: list[dict[str, str]] = field(default_factory=list)
    token_limit: int = 1000
    tokens: dict[str, int] = field(default_factory=dict)
    # publication.pravo.gov.ru
    cards: list[dict[str, Any]] = field(default_factory=list)
    base_url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def paths(self, prefix: str = "") -> list[str]:
        return [p for p, _, _ in self.requests if p.startswith(prefix)]

    def statuses(self, prefix: str = "") -> list[int]:
        return [c for p, c, _ in self.requests if p.startswith(prefix)]

    def count(self) -> int:
        return len(self.requests)

    def set(self, path: str, body: bytes, content_type: str = "text/html", validators: bool = True) -> None:
        self.files[path] = Served(body, content_type, time.time(), validators)


def _handler(site: Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _send(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> None:
            with site.lock:
                site.requests.append((self.path, status, time.monotonic()))
            self.send_response(status)
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if body and self.command != "HEAD":
                self.wfile.write(body)

        def _fault(self) -> bool:
            for prefix, queue in site.faults.items():
                if self.path.startswith(prefix) and queue:
                    status, headers = queue.pop(0)
                    self._send(status, b"busy", headers)
                    return True
            return False

        def _held(self) -> None:
            for prefix, event in site.hold.items():
                if self.path.startswith(prefix):
                    site.reached.setdefault(prefix, threading.Event()).set()
                    event.wait(30)

        def do_GET(self) -> None:
            self._held()
            if self._fault():
                return
            parsed = urllib.parse.urlparse(self.path)
            if parsed.path == "/api/Documents":
                self._documents(urllib.parse.parse_qs(parsed.query))
                return
            served = site.files.get(self.path)
            if served is None:
                self._send(404, b"not found")
                return
            if served.validators and self.headers.get("If-None-Match") == served.etag:
                self._send(304)
                return
            headers = {"Content-Type": served.content_type}
            if served.validators:
                headers.update({"ETag": served.etag, "Last-Modified": formatdate(served.modified, usegmt=True)})
            self._send(200, served.body, headers)

        def do_POST(self) -> None:
            self._held()
            length = int(self.headers.get("Content-Length") or 0)
            data = self.rfile.read(length)
            if self._fault():
                return
            if urllib.parse.urlparse(self.path).path != "/apiws/FreeWebService.svc/SOAP":
                self._send(404, b"not found")
                return
            action = (self.headers.get("SOAPAction") or "").strip('"').rsplit("/", 1)[-1]
            if action == "GetToken":
                token = hashlib.sha256(f"{time.time_ns()}".encode()).hexdigest()[:20]
                site.tokens[token] = 0
                self._soap(f'<GetTokenResponse xmlns="http://tempuri.org/"><GetTokenResult>{token}'
                           "</GetTokenResult></GetTokenResponse>")
            elif action == "Search":
                self._search(data)
            else:
                self._send(500, b"unknown action")

        def _soap(self, inner: str) -> None:
            body = ('<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>' + inner +
                    "</s:Body></s:Envelope>").encode("utf-8")
            self._send(200, body, {"Content-Type": "text/xml; charset=utf-8"})

        def _search(self, data: bytes) -> None:
            root = etree.fromstring(data, safe_xml_parser())
            fields = {etree.QName(el).localname: (el.text or "") for el in root.iter() if isinstance(el.tag, str)}
            token = fields.get("tokenKey", "")
            if token not in site.tokens or site.tokens[token] >= site.token_limit:
                self._send(500, b"The server was unable to process the request")
                return
            site.tokens[token] += 1
            page, size = int(fields["NumarPagina"]), int(fields["RezultatePagina"])
            year = fields.get("SearchAn") or ""
            chosen = [r for r in site.records if not year or _act_year(r) == year]
            chosen.sort(key=lambda r: r.get("DataVigoare", ""), reverse=True)
            window = chosen[page * size:(page + 1) * size]
            legi = "".join("<a:Legi>" + "".join(f"<a:{k}>{_xml(v)}</a:{k}>" for k, v in sorted(r.items())
                                                if not k.startswith("_")) + "</a:Legi>" for r in window)
            self._soap('<SearchResponse xmlns="http://tempuri.org/"><SearchResult '
                       'xmlns:a="http://schemas.datacontract.org/2004/07/FreeWebService" '
                       f'xmlns:i="http://www.w3.org/2001/XMLSchema-instance">{legi}</SearchResult>'
                       "</SearchResponse>")

        def _documents(self, query: dict[str, list[str]]) -> None:
            block = (query.get("block") or [None])[0]
            start = (query.get("DocumentDateFrom") or ["01.01.1900"])[0]
            d, m, y = start.split(".")
            iso = f"{y}-{m}-{d}"
            index, size = int((query.get("index") or ["1"])[0]), int((query.get("pageSize") or ["10"])[0])
            chosen = [c for c in site.cards if (block is None or c["_block"] == block)
                      and c["documentDate"][:10] >= iso]
            chosen.sort(key=lambda c: (c["publishDateShort"], c["eoNumber"]), reverse=True)
            window = chosen[(index - 1) * size: index * size]
            pages = max(1, -(-len(chosen) // size))
            body = json.dumps({"items": [{k: v for k, v in c.items() if not k.startswith("_")} for c in window],
                               "itemsTotalCount": len(chosen), "itemsPerPage": size, "currentPage": index,
                               "pagesTotalCount": pages}, ensure_ascii=False).encode("utf-8")
            self._send(200, body, {"Content-Type": "application/json; charset=utf-8"})

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


def _xml(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _act_year(record: dict[str, str]) -> str:
    import re

    m = re.search(r"\bdin\s+\d{1,2}\s+\w+\s+(\d{4})", record.get("Titlu", ""))
    return m.group(1) if m else record.get("DataVigoare", "")[:4]


@contextmanager
def serve() -> Iterator[Site]:
    site = Site()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(site))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    site.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield site
    finally:
        for event in site.hold.values():
            event.set()
        server.shutdown()
        server.server_close()

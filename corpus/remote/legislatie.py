"""The Romanian Ministry of Justice legislation web service (legislatie.just.ro, "FreeWebService").

A SOAP 1.1 service at ``/apiws/FreeWebService.svc/SOAP`` (the address its WSDL names) with two operations:
``GetToken`` (no arguments; ``GetTokenResult`` is a token) and ``Search(SearchModel, tokenKey)``, where the
SearchModel (namespace ``http://schemas.datacontract.org/2004/07/FreeWebService``) holds ``NumarPagina`` (the page,
from 0), ``RezultatePagina`` (records a page), and the optional filters ``SearchAn`` (year), ``SearchNumar``
(number), ``SearchTitlu`` (words of the title) and ``SearchText`` (words of the text), an absent one sent as
``i:nil="true"``. The answer's ``SearchResult`` holds ``Legi`` records with ``Titlu``, ``Text``, ``Emitent``,
``Numar``, ``TipAct``, ``DataVigoare``, ``Publicatie`` and ``LinkHtml``; a page past the end is empty. A token
that has expired is answered with HTTP 500 (or a fault naming the token): a new token is asked for, once.

Each record lands in the mirror as ``<id>.jsonl`` (the id of its LinkHtml), one JSON line with the service's own
field names, which corpus.ro.records reads; its version carries its date in force. The service has no "changed
since" filter, so a run reads each query's pages newest first and stops at the first page on which every record
is one it holds, unchanged, and no newer than the newest date in force it saw last time: a night with nothing
new costs a token and one page per query. Pages done are kept in the cursor, so a killed run resumes at the page
after the last one it stored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from lxml import etree

from corpus.limits import parse_xml
from corpus.model import IngestFailure
from corpus.remote import settings as s
from corpus.remote.http import RETRIED, Client, FetchError
from corpus.remote.mirror import FetchResult, Mirror

BASE_URL = "http://legislatie.just.ro"
ENDPOINT = "/apiws/FreeWebService.svc/SOAP"
SERVICE_NS = "http://tempuri.org/"
DATA_NS = "http://schemas.datacontract.org/2004/07/FreeWebService"
FIELDS = ("Titlu", "Text", "Emitent", "Numar", "TipAct", "DataVigoare", "Publicatie", "LinkHtml")
_SEARCH_KEYS = {"title": "SearchTitlu", "number": "SearchNumar", "text": "SearchText"}
_LINK_ID = re.compile(r"/(\d+)\s*$")
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")
_ENVELOPE = ('<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>{body}</s:Body>'
             '</s:Envelope>')


def settings(item: Mapping[str, Any]) -> dict[str, Any]:
    out = s.common(item, BASE_URL)
    years = s.listed(item, "years", lambda y: isinstance(y, int) and not isinstance(y, bool) and 1800 < y < 2200,
                     "years (e.g. 2024)")
    if years:
        out["years"] = years
    search = item.get("search")
    if search is not None:
        if not isinstance(search, dict) or not search:
            raise s.SettingsError("search", f"expected a mapping of {', '.join(_SEARCH_KEYS)}, got {search!r}")
        for key, value in search.items():
            if key not in _SEARCH_KEYS:
                raise s.SettingsError(f"search.{key}", f"unknown filter; expected one of {', '.join(_SEARCH_KEYS)}")
            if not isinstance(value, str | int) or isinstance(value, bool) or not str(value).strip():
                raise s.SettingsError(f"search.{key}", f"expected a string or a number, got {value!r}")
        out["search"] = dict(search)
    if not years and not search:
        raise s.SettingsError("years", "give 'years' or 'search' (the service lists nothing without a filter)")
    out["page_size"] = s.whole(item, "page_size", 1, 100, 10)
    if "max_pages" in item:
        out["max_pages"] = s.whole(item, "max_pages", 1, 1_000_000)
    return out


def queries(options: Mapping[str, Any]) -> list[dict[str, str]]:
    """The SearchModel filters of each query: one per year (with the search filters), or the filters alone."""
    base = {_SEARCH_KEYS[k]: str(v) for k, v in (options.get("search") or {}).items()}
    years = options.get("years") or []
    return [{**base, "SearchAn": str(y)} for y in years] if years else [base]


def search_envelope(model: Mapping[str, str], page: int, size: int, token: str) -> bytes:
    fields = [f"<d:NumarPagina>{page}</d:NumarPagina>", f"<d:RezultatePagina>{size}</d:RezultatePagina>"]
    for name in ("SearchAn", "SearchNumar", "SearchText", "SearchTitlu"):
        value = model.get(name)
        fields.append(f"<d:{name}>{escape(value)}</d:{name}>" if value else f'<d:{name} i:nil="true"/>')
    body = (f'<Search xmlns="{SERVICE_NS}"><SearchModel xmlns:d="{DATA_NS}" '
            f'xmlns:i="http://www.w3.org/2001/XMLSchema-instance">{"".join(fields)}</SearchModel>'
            f"<tokenKey>{escape(token)}</tokenKey></Search>")
    return _ENVELOPE.format(body=body).encode("utf-8")


def token_envelope() -> bytes:
    return _ENVELOPE.format(body=f'<GetToken xmlns="{SERVICE_NS}"/>').encode("utf-8")


def _local(el: etree._Element) -> str:
    return etree.QName(el).localname if isinstance(el.tag, str) else ""


def _envelope_body(data: bytes, url: str) -> etree._Element:
    """The SOAP body's first element, through the safe parser (no entities, no network); a fault is an error."""
    try:
        root = parse_xml(data)
    except IngestFailure as exc:
        raise FetchError("bad_response", f"the answer is not XML: {exc.detail}", url) from None
    body = next((el for el in root.iter() if _local(el) == "Body"), None)
    first = next(iter(body), None) if body is not None else None
    if first is None:
        raise FetchError("bad_response", "no SOAP body in the answer", url)
    if _local(first) == "Fault":
        message = " ".join(t.strip() for t in first.itertext() if t.strip())
        raise FetchError("soap_fault", message or "a SOAP fault without a message", url)
    return first


def parse_records(data: bytes, url: str) -> list[dict[str, str]]:
    result = _envelope_body(data, url)
    out = []
    for el in result.iter():
        if _local(el) == "Legi":
            record = {f: "" for f in FIELDS}
            for child in el:
                name = _local(child)
                if name:
                    record[name] = child.text or ""
            out.append(record)
    return out


def record_name(record: Mapping[str, str]) -> str:
    m = _LINK_ID.search(record.get("LinkHtml") or "")
    if m:
        return f"{m.group(1)}.jsonl"
    key = "-".join(str(record.get(f) or "0") for f in ("TipAct", "Numar", "DataVigoare"))
    return (_SAFE.sub("_", key).strip("._") or "record") + ".jsonl"


class _Service:
    """The token and the two operations, over the shared client."""

    def __init__(self, client: Client, base_url: str) -> None:
        self.client, self.url, self.token = client, base_url + ENDPOINT, ""

    def _call(self, action: str, envelope: bytes) -> bytes:
        resp = self.client.request(self.url, method="POST", data=envelope, headers={
            "Content-Type": "text/xml; charset=utf-8", "SOAPAction": f'"{SERVICE_NS}IFreeWebService/{action}"'},
            retried=RETRIED - {500})
        return resp.body

    def get_token(self) -> str:
        result = _envelope_body(self._call("GetToken", token_envelope()), self.url)
        token = "".join(result.itertext()).strip()
        if not token:
            raise FetchError("bad_response", "GetToken returned no token", self.url)
        self.token = token
        return token

    def search(self, model: Mapping[str, str], page: int, size: int) -> list[dict[str, str]]:
        if not self.token:
            self.get_token()
        try:
            return parse_records(self._call("Search", search_envelope(model, page, size, self.token)), self.url)
        except FetchError as exc:
            if not (exc.reason == "http_error" and "HTTP 500" in exc.detail) and not (
                    exc.reason == "soap_fault" and "token" in exc.detail.lower()):
                raise
        self.get_token()   # an expired token: HTTP 500 or a fault naming it; a fresh one, once
        return parse_records(self._call("Search", search_envelope(model, page, size, self.token)), self.url)


def fetch(options: Mapping[str, Any], folder: Path, source: str) -> FetchResult:
    client = Client(s.policy(options))
    mirror = Mirror(folder, source, options)
    service = _Service(client, str(options["base_url"]))
    size = int(options.get("page_size", 10))
    max_pages = int(options.get("max_pages", 1_000_000))
    passes: dict[str, Any] = mirror.cursor.setdefault("queries", {})
    for q, model in enumerate(queries(options)):
        key = json.dumps(model, sort_keys=True, ensure_ascii=False)
        state = passes.setdefault(key, {})
        # a query read to its end once is read newest first until a page brings nothing new; one whose first
        # pass was cut short (killed, failed) goes on at the page after the last one stored
        complete = bool(state.get("complete"))
        known_newest = mirror.high_water(key)
        page = 0 if complete else int(state.get("page", -1)) + 1
        while page < max_pages:
            try:
                records = service.search(model, page, size)
            except FetchError as exc:
                mirror.error(f"{service.url}#query{q}-page{page}", exc)
                break
            fresh = False
            for record in records:
                line = (json.dumps(record, ensure_ascii=False) + "\n").encode()
                outcome = mirror.store(record_name(record), line)
                vigoare = (record.get("DataVigoare") or "")[:10]
                fresh = fresh or outcome != "unchanged" or (known_newest is not None and vigoare > known_newest)
                mirror.raise_high_water(key, vigoare)
            if not complete:
                state["page"] = page
            mirror.save()
            if len(records) < size or (complete and not fresh):
                passes[key] = {"complete": True}   # past the end, or nothing new: what follows is held already
                mirror.save()
                break
            page += 1
    return mirror.finish(client.requests)


CONNECTOR = s.Connector("legislatie-just-ro", ("years", "search", "page_size", "max_pages"), settings, fetch,
                        BASE_URL)

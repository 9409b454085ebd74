"""The Russian official publication portal's daily lists (publication.pravo.gov.ru): new acts by date.

Its JSON API lists the acts officially published: ``GET /api/Documents`` with ``block`` (a publication block:
``president``, ``assembly``, ``government``, ``federal_authorities``, ``court``, ...), ``DocumentDateFrom`` (a date
as DD.MM.YYYY), optionally ``DocumentTypes`` (type ids), and pages through ``index`` (from 1) and ``pageSize``; the
answer is ``{"items": [...], "itemsTotalCount", "itemsPerPage", "currentPage", "pagesTotalCount"}``, each item a
card with ``eoNumber`` (the number of the electronic publication, the act's key), ``complexName``, ``name``,
``number``, ``documentDate``, ``publishDateShort``, ``pagesCount``. The portal publishes the acts themselves as PDF
and page images, which Etalon does not read: with `text_url` (a template holding ``{eoNumber}``) each new act's
text is fetched from a service that renders it as HTML and lands as ``<eoNumber>.html``; without it the cards
alone are kept (``.cards.jsonl`` in the mirror), and the run's metadata says how many acts are new.

A run lists each block from the day after the newest publication date it saw last time, less `overlap_days`
(an act is listed by its date of signing, published days later), and takes only the cards it has not seen: a
night with nothing published costs one page per block. The page reached and the cards seen are in the cursor.
"""

from __future__ import annotations

import datetime
import json
import urllib.parse
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from corpus.remote import settings as s
from corpus.remote.http import Client, FetchError, write_atomic
from corpus.remote.mirror import FetchResult, Mirror
from corpus.remote.pravo import with_charset

BASE_URL = "http://publication.pravo.gov.ru"
CARDS = ".cards.jsonl"
KEPT = ("eoNumber", "complexName", "name", "number", "documentDate", "publishDateShort", "pagesCount", "id")


def settings(item: Mapping[str, Any]) -> dict[str, Any]:
    out = s.common(item, BASE_URL)
    since = s.day(item, "since")
    if since is None:
        raise s.SettingsError("since", "required: the first date to list (YYYY-MM-DD)")
    out["since"] = since
    blocks = s.listed(item, "blocks", lambda b: isinstance(b, str) and b.strip() != "",
                      "publication block codes (president, assembly, government, ...)")
    if blocks:
        out["blocks"] = blocks
    types = s.listed(item, "document_types", lambda t: isinstance(t, str) and t.strip() != "", "document type ids")
    if types:
        out["document_types"] = types
    out["page_size"] = s.whole(item, "page_size", 1, 200, 100)
    out["overlap_days"] = s.whole(item, "overlap_days", 0, 60, 14)
    template = s.text(item, "text_url")
    if template is not None:
        if "{eoNumber}" not in template:
            raise s.SettingsError("text_url", f"expected a URL template holding {{eoNumber}}, got {template!r}")
        s.url({"text_url": template.replace("{base_url}", str(out["base_url"]))}, "text_url")
        out["text_url"] = template
    return out


def _dotted(iso: str) -> str:
    d = datetime.date.fromisoformat(iso)
    return f"{d.day:02d}.{d.month:02d}.{d.year:04d}"


def list_url(base_url: str, block: str | None, start: str, index: int, size: int, types: list[str]) -> str:
    params: list[tuple[str, str]] = [("block", block)] if block else []
    params += [("DocumentDateFrom", _dotted(start)), ("index", str(index)), ("pageSize", str(size))]
    params += [("DocumentTypes", t) for t in types]
    return f"{base_url}/api/Documents?{urllib.parse.urlencode(params)}"


def _cards(data: bytes, url: str) -> tuple[list[dict[str, Any]], int]:
    try:
        page = json.loads(data.decode("utf-8-sig"))
        items = page["items"]
        total = int(page.get("pagesTotalCount") or 0)
    except (ValueError, KeyError, TypeError) as exc:
        raise FetchError("bad_response", f"not a list of documents: {exc}", url) from None
    if not isinstance(items, list):
        raise FetchError("bad_response", "'items' is not a list", url)
    return [i for i in items if isinstance(i, dict) and isinstance(i.get("eoNumber"), str)], total


def fetch(options: Mapping[str, Any], folder: Path, source: str) -> FetchResult:
    client = Client(s.policy(options))
    mirror = Mirror(folder, source, options)
    base = str(options["base_url"])
    size = int(options.get("page_size", 100))
    seen: dict[str, Any] = mirror.cursor.setdefault("cards", {})   # eoNumber -> "text" | "card" | "pending"
    template = options.get("text_url")
    for block in options.get("blocks") or [None]:
        key = f"block:{block or '*'}"
        newest = mirror.high_water(key)
        start = str(options["since"])
        if newest is not None:
            start = max(start, (datetime.date.fromisoformat(newest) -
                                datetime.timedelta(days=int(options.get("overlap_days", 14)))).isoformat())
        index = int(mirror.state.get(key, 0)) + 1
        while True:
            url = list_url(base, block, start, index, size, list(options.get("document_types") or []))
            try:
                cards, pages = _cards(client.get(url).body, url)
            except FetchError as exc:
                mirror.error(url, exc)
                break
            fresh = [c for c in cards if c["eoNumber"] not in seen]
            for card in fresh:
                seen[card["eoNumber"]] = "pending" if template else "card"
                mirror.raise_high_water(key, str(card.get("publishDateShort") or "")[:10] or None)
            if fresh:
                _append_cards(folder, fresh)
            mirror.state[key] = index
            mirror.save()
            if not cards or index >= pages:
                break
            index += 1
        mirror.state.pop(key, None)
        mirror.save()
    if template:
        for eo, status in sorted(seen.items()):
            if status != "pending":
                continue
            url = str(template).format(base_url=base, eoNumber=urllib.parse.quote(eo))
            try:
                resp = client.get(url)
            except FetchError as exc:
                mirror.error(url, exc)   # stays pending: the next run asks again
                continue
            body, _ = with_charset(resp.body, resp.charset(), "auto")
            mirror.store(f"{eo}.html", body)
            seen[eo] = "text"
            mirror.save()
    return mirror.finish(client.requests)


def _append_cards(folder: Path, cards: list[dict[str, Any]]) -> None:
    """The cards kept, one JSON line each (hidden from the readers: a card is no text of the law)."""
    path = folder / CARDS
    try:
        before = path.read_bytes()
    except OSError:
        before = b""
    lines = b"".join((json.dumps({k: c.get(k) for k in KEPT}, ensure_ascii=False) + "\n").encode() for c in cards)
    write_atomic(path, before + lines)


def new_cards(folder: Path) -> list[dict[str, Any]]:
    """Every card kept, oldest first (what `corpus.remote` callers show)."""
    try:
        return [json.loads(line) for line in (folder / CARDS).read_text(encoding="utf-8").splitlines() if line]
    except (OSError, ValueError):
        return []


CONNECTOR = s.Connector("publication-pravo-gov-ru",
                        ("since", "blocks", "document_types", "page_size", "overlap_days", "text_url"),
                        settings, fetch, BASE_URL)

"""Consolidated texts of the Russian official legal portal (pravo.gov.ru, its IPS "Законодательство России").

The portal serves each act's current consolidated text as one HTML page addressed by the act's document number
(``nd``): ``http://pravo.gov.ru/proxy/ips/?doc_itself=&nd=102033239``. Older pages are in windows-1251, newer ones
in UTF-8; a page says which in its ``<meta charset>`` or the HTTP Content-Type. Each page lands in the mirror as
``<nd>.html`` in the bytes it was served in (corpus.ru.html reads both encodings); a page that names no charset
gets a ``<meta>`` naming the one the server (or the `encoding` setting) gave, so the reader never has to guess.

Every run asks for every listed document with the ETag / Last-Modified of the last answer, so a night with
nothing amended costs one 304 per document. A server that sends no validators costs a download, but identical
bytes are not written again, so the corpus does not re-read them. A new consolidated version is a new edition
("в редакции ... от DD.MM.YYYY" in its header, the version's date): corpus.precedence makes it current.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from corpus.remote import settings as s
from corpus.remote.http import Client
from corpus.remote.mirror import FetchResult, Mirror

BASE_URL = "http://pravo.gov.ru"
DOCUMENT_URL = "{base_url}/proxy/ips/?doc_itself=&nd={nd}"
ENCODINGS = ("auto", "windows-1251", "utf-8")
_META = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_\-:]+)""", re.I)
_HEAD = re.compile(rb"<head[^>]*>", re.I)
_ALIASES = {"cp1251": "windows-1251", "win-1251": "windows-1251", "utf8": "utf-8"}


def _nd(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool) and value > 0) or \
        (isinstance(value, str) and value.isdigit())


def settings(item: Mapping[str, Any]) -> dict[str, Any]:
    out = s.common(item, BASE_URL)
    out["documents"] = s.listed(item, "documents", _nd, "document numbers (nd, e.g. 102033239)", required=True)
    out["encoding"] = s.choice(item, "encoding", ENCODINGS, "auto")
    template = s.text(item, "document_url")
    if template is not None:
        if "{nd}" not in template:
            raise s.SettingsError("document_url", f"expected a URL template holding {{nd}}, got {template!r}")
        out["document_url"] = template
    return out


def with_charset(body: bytes, served: str | None, setting: str) -> tuple[bytes, str | None]:
    """The page as it will be stored, and the charset it is in (None: the reader measures it). A page declaring
    its charset is kept byte for byte; one that does not gets a ``<meta>`` with the charset the setting or the
    server named."""
    declared = _META.search(body[:4096])
    if declared is not None:
        return body, _ALIASES.get(declared.group(1).decode("ascii", "replace").lower(),
                                  declared.group(1).decode("ascii", "replace").lower())
    charset = setting if setting != "auto" else _ALIASES.get(served or "", served)
    if charset is None:
        return body, None
    meta = f'<meta http-equiv="Content-Type" content="text/html; charset={charset}">'.encode("ascii")
    head = _HEAD.search(body[:4096])
    at = head.end() if head is not None else 0
    return body[:at] + meta + body[at:], charset


def fetch(options: Mapping[str, Any], folder: Path, source: str) -> FetchResult:
    client = Client(s.policy(options))
    mirror = Mirror(folder, source, options)
    template = str(options.get("document_url") or DOCUMENT_URL)
    for nd in (str(d) for d in options["documents"]):
        key = f"nd:{nd}"
        if mirror.done(key):   # stored or checked by the killed run this one resumes
            continue
        name = f"{nd}.html"
        url = template.format(base_url=options["base_url"], nd=nd)
        answered, resp = mirror.conditional_get(client, url, name)
        if not answered:
            continue
        if resp is not None:
            body, charset = with_charset(resp.body, resp.charset(), str(options.get("encoding", "auto")))
            try:
                if charset is not None:
                    body.decode(charset)
            except (UnicodeDecodeError, LookupError) as exc:
                mirror.error(url, f"the page is not {charset} as it says ({exc}); the stored copy is kept",
                             "bad_encoding")
                continue
            mirror.store(name, body)
            mirror.remember(url, resp.validators())
        mirror.mark(key)
    return mirror.finish(client.requests)


CONNECTOR = s.Connector("pravo-gov-ru", ("documents", "encoding", "document_url"), settings, fetch, BASE_URL)

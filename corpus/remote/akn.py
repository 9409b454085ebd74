"""Akoma Ntoso from a FRBR-addressed service: works, their expressions, each expression's XML.

A *work* is an act, named by its work FRBR URI (``/akn/za/act/2009/1``); an *expression* is the work in one
language at one point in time, named by the work's URI with the language and date (``/akn/za/act/2009/1/
eng@2012-04-26``). The service (the Laws.Africa content API and Indigo describe it) answers ``GET {base}{work}.json``
with the work's current expression, whose ``points_in_time`` list every date with its ``expressions``
(``expression_frbr_uri``, ``language``, ``expression_date``), and ``GET {base}{expression}.xml`` with the Akoma
Ntoso document. `token_env` names the environment variable holding an API token, sent as
``Authorization: Token ...``.

The work's listing is requested conditionally; an expression is a fixed point in time, so one the mirror holds
is never asked for again. Each lands as ``<work>/<language>@<date>.xml``: every expression of a work is one
document (``akn:<work URI>``) whose version carries the expression date, so the newest is current.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from corpus.limits import parse_xml
from corpus.model import IngestFailure
from corpus.remote import settings as s
from corpus.remote.http import Client, FetchError
from corpus.remote.mirror import FetchResult, Mirror

_WORK = re.compile(r"^/akn/[a-z]{2}(?:-[a-z0-9]+)?/[a-zA-Z]+(?:/[^/@\s]+)+$")
_EXPRESSION = re.compile(r"^(/akn/[^@\s]+)/([a-z]{3})@(\d{4}-\d{2}-\d{2})?[^/\s]*$")
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def settings(item: Mapping[str, Any]) -> dict[str, Any]:
    if "base_url" not in item:
        raise s.SettingsError("base_url", "required: the address of the FRBR-addressed service (up to /akn)")
    out = s.common(item, "")
    out["works"] = s.listed(item, "works", lambda w: isinstance(w, str) and bool(_WORK.match(w)),
                            "work FRBR URIs (e.g. /akn/za/act/2009/1, no language or date)", required=True)
    language = s.text(item, "language")
    if language is not None:
        if not re.fullmatch(r"[a-z]{3}", language):
            raise s.SettingsError("language", f"expected a three-letter language code (eng, fra), got {language!r}")
        out["language"] = language
    since = s.day(item, "since")
    if since is not None:
        out["since"] = since
    token = s.env_name(item, "token_env")
    if token is not None:
        out["token_env"] = token
    return out


def expressions(listing: Mapping[str, Any], language: str | None, since: str | None) -> list[tuple[str, str, str]]:
    """(expression URI, language, date) of every point in time the listing names, oldest first."""
    out: set[tuple[str, str, str]] = set()
    for point in listing.get("points_in_time") or []:
        for expr in (point.get("expressions") or []) if isinstance(point, dict) else []:
            uri = expr.get("expression_frbr_uri") if isinstance(expr, dict) else None
            m = _EXPRESSION.match(uri or "")
            if m is None:
                continue
            date = str(expr.get("expression_date") or m.group(3) or point.get("date") or "")[:10]
            lang = str(expr.get("language") or m.group(2))
            if (language and lang != language) or (since and date < since):
                continue
            out.add((str(uri), lang, date))
    return sorted(out, key=lambda e: (e[2], e[1]))


def work_folder(work: str) -> str:
    return _SAFE.sub("-", work.strip("/")).strip("-")


def fetch(options: Mapping[str, Any], folder: Path, source: str) -> FetchResult:
    token = s.secret(options, "token_env")
    client = Client(s.policy(options), headers={"Authorization": f"Token {token}"} if token else {})
    mirror = Mirror(folder, source, options)
    base = str(options["base_url"])
    for work in options["works"]:
        if mirror.done(f"work:{work}"):
            continue
        url = f"{base}{work}.json"
        held = any((folder / work_folder(work)).glob("*.xml"))
        try:
            resp = client.get(url, mirror.validators(url) if held else None)
            if resp.not_modified:
                for path in sorted((folder / work_folder(work)).glob("*.xml")):
                    mirror.unchanged.append(path)
                mirror.mark(f"work:{work}")
                continue
            listing = json.loads(resp.body.decode("utf-8-sig"))
            if not isinstance(listing, dict):
                raise ValueError("not a JSON object")
        except FetchError as exc:
            mirror.error(url, exc)
            continue
        except ValueError as exc:
            mirror.error(url, f"the work's listing does not read: {exc}", "bad_response")
            continue
        failed = False
        for uri, lang, date in expressions(listing, options.get("language"), options.get("since")):
            name = f"{work_folder(work)}/{lang}@{date}.xml"
            if mirror.has(name):
                mirror.unchanged_file(name)
                continue
            try:
                data = client.get(f"{base}{uri}.xml").body
                parse_xml(data)   # the safe parser: no entities, no network; a broken answer is not stored
            except FetchError as exc:
                mirror.error(f"{base}{uri}.xml", exc)
                failed = True
                continue
            except IngestFailure as exc:
                mirror.error(f"{base}{uri}.xml", f"not Akoma Ntoso XML: {exc.detail}", exc.reason)
                failed = True
                continue
            mirror.store(name, data)
            mirror.save()
        if not failed:   # a failed expression keeps the listing unremembered: the next run lists it again
            mirror.remember(url, resp.validators())
        mirror.mark(f"work:{work}")
    return mirror.finish(client.requests)


CONNECTOR = s.Connector("akn-frbr", ("works", "language", "since", "token_env"), settings, fetch, "")

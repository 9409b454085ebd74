"""Mirror an HTTP index of documents a person keeps (the `http` kind: `url:` in sources.yaml).

The index is either a JSON list (of URLs, or of objects with ``url`` and optional ``name``) or plain text with
one URL per line (``#`` starts a comment). The index and each document are requested conditionally with the
ETag / Last-Modified remembered from the previous run, so a daily refresh downloads only what changed; every
file is written atomically, so an interrupted run leaves no half file.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import urllib.parse
from pathlib import Path

from corpus.remote.http import Client, FetchError, Policy, write_atomic
from corpus.remote.mirror import FetchResult, Mirror

LEGACY_STATE = ".http_state.json"   # where validators were kept before the cursor
INDEX_COPY = ".index"
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def parse_index(body: bytes, index_url: str) -> list[tuple[str, str | None]]:
    """(absolute URL, wanted file name or None) for every entry of the index."""
    text = body.decode("utf-8-sig")
    entries: list[tuple[str, str | None]] = []
    if text.lstrip().startswith("["):
        for i, item in enumerate(json.loads(text)):
            if isinstance(item, str):
                entries.append((item, None))
            elif isinstance(item, dict) and isinstance(item.get("url"), str):
                name = item.get("name")
                entries.append((item["url"], name if isinstance(name, str) and name else None))
            else:
                raise ValueError(f"index entry {i}: expected a URL string or an object with 'url'")
    else:
        for line in text.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                entries.append((line, None))
    return [(urllib.parse.urljoin(index_url, url), name) for url, name in entries]


def _file_name(url: str, wanted: str | None) -> str:
    base = wanted or os.path.basename(urllib.parse.urlparse(url).path) or "index"
    base = _SAFE.sub("_", base).strip("._") or "document"
    return f"{hashlib.sha256(url.encode()).hexdigest()[:8]}-{base}" if wanted is None else base


def _legacy_validators(folder: Path) -> dict[str, dict[str, str]]:
    try:
        data = json.loads((folder / LEGACY_STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def fetch_index(index_url: str, folder: Path, *, source: str = "http", timeout: float = 30.0,
                max_bytes: int = 200 * 1024 * 1024, policy: Policy | None = None) -> FetchResult:
    """Download every document the index lists into ``folder``; unchanged ones are not re-downloaded. A failed
    index leaves the mirror as it is and is the one error returned."""
    if urllib.parse.urlparse(index_url).scheme not in ("http", "https"):
        raise ValueError(f"{index_url}: only http and https indexes are fetched")
    client = Client(policy or Policy(timeout=timeout, max_bytes=max_bytes, rate=0))
    mirror = Mirror(folder, source, {"url": index_url})
    if "validators" not in mirror.cursor:
        mirror.cursor["validators"] = _legacy_validators(folder)
    try:
        index = client.get(index_url, mirror.validators(index_url) if mirror.has(INDEX_COPY) else None)
        if index.not_modified:
            body = (folder / INDEX_COPY).read_bytes()
        else:
            body = index.body
            write_atomic(folder / INDEX_COPY, body)   # hidden: the readers skip it, a 304 next time reads it
            mirror.remember(index_url, index.validators())
        entries = parse_index(body, index_url)
    except (FetchError, ValueError, OSError) as exc:
        mirror.error(index_url, exc if isinstance(exc, FetchError) else f"the index does not read: {exc}",
                     "bad_index")
        return mirror.finish(client.requests)
    for url, wanted in entries:
        name = _file_name(url, wanted)
        answered, resp = mirror.conditional_get(client, url, name)
        if not answered:
            continue
        if resp is not None:
            mirror.store(name, resp.body)
            mirror.remember(url, resp.validators())
        mirror.save()
    return mirror.finish(client.requests)

"""The only network code in corpus/: mirror an HTTP index of documents into a local folder.

The index is either a JSON list (of URLs, or of objects with ``url`` and optional ``name``) or plain
text with one URL per line (``#`` starts a comment). Each document is requested conditionally with the
ETag / Last-Modified remembered from the previous run, so a daily refresh downloads only what changed.
Standard library only; every file is written atomically, so an interrupted run leaves no half file.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from corpus.model import IngestError
from warehouse.tmpfiles import sweep, temporary

STATE_FILE = ".http_state.json"
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class FetchResult:
    fetched: tuple[Path, ...]
    unchanged: tuple[Path, ...]
    errors: tuple[IngestError, ...] = field(default=())


def write_atomic(path: Path, data: bytes) -> None:
    """Through a locked temporary beside the file (see warehouse.tmpfiles): a killed run leaves at most a
    temporary that the next write into the same folder removes once it is stale."""
    with temporary(path) as (handle, tmp):
        handle.write(data)
        handle.flush()
        os.replace(tmp, path)
    sweep(path.parent)


def parse_index(body: bytes, index_url: str) -> list[tuple[str, str | None]]:
    """(absolute URL, wanted file name or None) for every entry of the index."""
    text = body.decode("utf-8-sig")
    entries: list[tuple[str, str | None]] = []
    stripped = text.lstrip()
    if stripped.startswith("["):
        data = json.loads(text)
        for i, item in enumerate(data):
            if isinstance(item, str):
                entries.append((item, None))
            elif isinstance(item, dict) and isinstance(item.get("url"), str):
                name = item.get("name")
                entries.append((item["url"], name if isinstance(name, str) else None))
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


def _load_state(folder: Path) -> dict[str, dict[str, str]]:
    try:
        data = json.loads((folder / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def fetch_index(index_url: str, folder: Path, *, source: str = "http", timeout: float = 30.0,
                max_bytes: int = 200 * 1024 * 1024) -> FetchResult:
    """Download every document the index lists into ``folder``; unchanged ones are not re-downloaded."""
    if urllib.parse.urlparse(index_url).scheme not in ("http", "https"):
        raise ValueError(f"{index_url}: only http and https indexes are fetched")
    folder.mkdir(parents=True, exist_ok=True)
    with urllib.request.urlopen(index_url, timeout=timeout) as resp:
        entries = parse_index(resp.read(max_bytes), index_url)
    state = _load_state(folder)
    fetched: list[Path] = []
    unchanged: list[Path] = []
    errors: list[IngestError] = []
    for url, wanted in entries:
        target = folder / _file_name(url, wanted)
        if urllib.parse.urlparse(url).scheme not in ("http", "https"):
            errors.append(IngestError(source, url, "bad_url", "only http and https documents are fetched", None))
            continue
        known = state.get(url, {})
        headers = {}
        if target.exists() and known.get("etag"):
            headers["If-None-Match"] = known["etag"]
        if target.exists() and known.get("last_modified"):
            headers["If-Modified-Since"] = known["last_modified"]
        req = urllib.request.Request(url, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                data = resp.read(max_bytes + 1)
                if len(data) > max_bytes:
                    errors.append(IngestError(source, url, "too_large", f"more than {max_bytes} bytes",
                                              f"byte {max_bytes}"))
                    continue
                write_atomic(target, data)
                state[url] = {k: v for k, v in (("etag", resp.headers.get("ETag")),
                                                ("last_modified", resp.headers.get("Last-Modified"))) if v}
                fetched.append(target)
        except urllib.error.HTTPError as exc:
            if exc.code == 304:
                unchanged.append(target)
            else:
                errors.append(IngestError(source, url, "http_error", f"HTTP {exc.code} {exc.reason}", None))
        except (urllib.error.URLError, OSError, TimeoutError) as exc:
            errors.append(IngestError(source, url, "network_error", str(exc), None))
    write_atomic(folder / STATE_FILE, json.dumps(state, indent=1, sort_keys=True).encode())
    return FetchResult(tuple(fetched), tuple(unchanged), tuple(errors))

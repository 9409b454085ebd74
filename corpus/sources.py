"""Configured corpus sources: folders or files on disk, HTTP indexes, and the inbox folder.

The list lives in ``$ETALON_HOME/sources.yaml`` (or ``$ETALON_SOURCES``)::

    sources:
      - name: ru-codes            # the partition key of the corpus asset
        path: /data/pravo-gov-ru  # a folder (read recursively) or one file
      - name: legislatie
        url: https://example.org/index.json   # an HTTP index, see corpus.http_source

The inbox (``$ETALON_HOME/inbox``) is always a source named ``inbox``: files dropped there are picked
up by the sensor without editing the list.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from corpus.http_source import STATE_FILE, write_atomic

INBOX = "inbox"
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class Source:
    name: str
    path: Path | None = None
    url: str | None = None

    @property
    def kind(self) -> str:
        return "http" if self.url else "folder"


def _entry(item: object, file: Path, index: int) -> Source:
    if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"].strip():
        raise ValueError(f"{file}: sources[{index}]: expected a mapping with a non-empty 'name'")
    path, url = item.get("path"), item.get("url")
    if (path is None) == (url is None):
        raise ValueError(f"{file}: sources[{index}] ({item['name']}): give exactly one of 'path' or 'url'")
    if url is not None:
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ValueError(f"{file}: sources[{index}] ({item['name']}): 'url' must be an http(s) URL")
        return Source(item["name"], url=url)
    if not isinstance(path, str):
        raise ValueError(f"{file}: sources[{index}] ({item['name']}): 'path' must be a string")
    p = Path(path).expanduser()
    return Source(item["name"], path=p if p.is_absolute() else (file.parent / p).resolve())


SAMPLE = "sample"


def default_sources() -> list[Source]:
    """Without a sources file, the embedded abridged sample is the corpus (what `etalon demo` runs on)."""
    from warehouse.home import SAMPLE_CORPUS

    return [Source(SAMPLE, path=SAMPLE_CORPUS)]


def load_sources(sources_file: Path) -> list[Source]:
    if not sources_file.exists():
        return default_sources()
    data = yaml.safe_load(sources_file.read_text(encoding="utf-8")) or {}
    items = data.get("sources") if isinstance(data, dict) else None
    if items is None:
        return []
    if not isinstance(items, list):
        raise ValueError(f"{sources_file}: 'sources' must be a list")
    return [_entry(item, sources_file, i) for i, item in enumerate(items)]


def sources_for(sources_file: Path, inbox: Path) -> list[Source]:
    """Every configured source, then the inbox; names are unique (the first one wins)."""
    out: dict[str, Source] = {}
    for s in load_sources(sources_file):
        out.setdefault(s.name, s)
    out.setdefault(INBOX, Source(INBOX, path=inbox))
    return list(out.values())


def source_for_path(path: Path) -> Source:
    """A source for a path given on the command line; the same path always gets the same name."""
    resolved = path.expanduser().resolve()
    slug = _SLUG.sub("-", resolved.name.lower()).strip("-")[:40] or "root"
    digest = hashlib.sha256(str(resolved).encode()).hexdigest()[:8]
    return Source(f"{slug}-{digest}", path=resolved)


def save_source_list(sources_file: Path, existing: Sequence[Source], wanted: Sequence[Source]) -> None:
    """Add the wanted sources to the list (the inbox stays implicit); written atomically."""
    merged: dict[str, Source] = {s.name: s for s in existing if s.name != INBOX}
    for s in wanted:
        merged.setdefault(s.name, s)
    items = [{"name": s.name, "url": s.url} if s.url else {"name": s.name, "path": str(s.path)}
             for s in merged.values()]
    write_atomic(sources_file, yaml.safe_dump({"sources": items}, allow_unicode=True, sort_keys=False).encode())


def fingerprint(source: Source, staging: Path) -> str:
    """Changes when a file under the source is added, removed or modified (by size and mtime).

    An HTTP source cannot be observed without asking the server, so its fingerprint is the state of
    its local mirror: the daily schedule fetches it, the mirror changes, and downstream follows.
    """
    h = hashlib.sha256()
    root = staging if source.url else source.path
    if root is None or not root.exists():
        return "absent"
    files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
    for f in files:
        if source.url and f.name == STATE_FILE:
            continue
        st = os.stat(f)
        h.update(f"{f.relative_to(root) if f != root else f.name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]

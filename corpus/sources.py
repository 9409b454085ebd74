"""Configured corpus sources: folders or files on disk, HTTP indexes, and the inbox folder.

The list lives in ``$ETALON_HOME/sources.yaml`` (or ``$ETALON_SOURCES``)::

    sources:
      - name: ru-codes            # the partition key of the corpus asset
        path: /data/pravo-gov-ru  # a folder (read recursively) or one file
      - name: legislatie
        url: https://example.org/index.json   # an HTTP index, see corpus.http_source
      - name: mounted
        path: /data/links                     # a folder of symbolic links to files kept elsewhere
        follow_links: true                    # read them (by default a link out of the folder is refused)

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
from etalons.yamlpos import line_of
from etalons.yamlsafe import load_file_with_nodes

INBOX = "inbox"
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class Source:
    """`follow_links`: read files a symbolic link in the folder points to outside it (off by default: a link
    to /etc/passwd dropped into the inbox must not be read)."""

    name: str
    path: Path | None = None
    url: str | None = None
    follow_links: bool = False

    @property
    def kind(self) -> str:
        return "http" if self.url else "folder"


def _entry(item: object, file: Path, index: int, line: int | None) -> Source:
    where = f"{file}:{line}" if line else str(file)
    if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"].strip():
        raise ValueError(f"{where}: sources[{index}]: expected a mapping with a non-empty 'name'")
    path, url, follow = item.get("path"), item.get("url"), item.get("follow_links", False)
    if (path is None) == (url is None):
        raise ValueError(f"{where}: sources[{index}] ({item['name']}): give exactly one of 'path' or 'url'")
    if not isinstance(follow, bool):
        raise ValueError(f"{where}: sources[{index}] ({item['name']}): 'follow_links' must be true or false")
    unknown = sorted(set(item) - {"name", "path", "url", "follow_links"})
    if unknown:
        raise ValueError(f"{where}: sources[{index}] ({item['name']}): unknown key {unknown[0]!r}; expected "
                         "name, path or url, follow_links")
    if url is not None:
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ValueError(f"{where}: sources[{index}] ({item['name']}): 'url' must be an http(s) URL")
        return Source(item["name"], url=url)
    if not isinstance(path, str):
        raise ValueError(f"{where}: sources[{index}] ({item['name']}): 'path' must be a string")
    p = Path(path).expanduser()
    return Source(item["name"], path=p if p.is_absolute() else (file.parent / p).resolve(), follow_links=follow)


SAMPLE = "sample"


def default_sources() -> list[Source]:
    """Without a sources file, the embedded abridged sample is the corpus (what `etalon demo` runs on)."""
    from warehouse.home import SAMPLE_CORPUS

    return [Source(SAMPLE, path=SAMPLE_CORPUS)]


def load_sources(sources_file: Path) -> list[Source]:
    """The configured sources; a bad file is a ValueError of one line naming the file and the line."""
    if not sources_file.exists():
        return default_sources()
    root, data = load_file_with_nodes(sources_file)
    items = data.get("sources") if isinstance(data, dict) else None
    if items is None:
        return []
    if not isinstance(items, list):
        raise ValueError(f"{sources_file}:{line_of(root, ['sources'])}: 'sources' must be a list")
    return [_entry(item, sources_file, i, line_of(root, ["sources", i])) for i, item in enumerate(items)]


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
    items = [{"name": s.name, "url": s.url} if s.url else
             {"name": s.name, "path": str(s.path), **({"follow_links": True} if s.follow_links else {})}
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
    files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file() or p.is_symlink())
    inside = root.resolve()
    for f in files:
        if (source.url and f.name == STATE_FILE) or (f.name.startswith(".") and f.name.endswith(".tmp")):
            continue  # a temporary is a write under way (or a killed one), never a change
        st = os.lstat(f) if f != root and not _read_through(f, inside, source.follow_links) else os.stat(f)
        h.update(f"{f.relative_to(root) if f != root else f.name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


def _read_through(path: Path, root: Path, follow_links: bool) -> bool:
    """Whether ingest reads the file a path leads to: a plain file, or a link it follows (within the folder, or
    anywhere with ``follow_links``) to a file. Any other link counts by itself, never by what it points to."""
    if not path.is_symlink():
        return True
    target = path.resolve()
    return target.is_file() and (follow_links or target.is_relative_to(root))

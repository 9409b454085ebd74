"""Configured corpus sources: folders or files on disk, HTTP indexes, the embedded sample, and the inbox.

The list lives in ``$ETALON_HOME/sources.yaml`` (or ``$ETALON_SOURCES``)::

    sources:
      - name: ru-codes            # the partition key of the corpus asset
        path: /data/pravo-gov-ru  # a folder (read recursively) or one file
      - name: legislatie
        url: https://example.org/index.json   # an HTTP index, see corpus.remote.index
      - name: ru-codes
        kind: pravo-gov-ru                    # an official service (corpus.remote): its own keys
        documents: [102033239, 102073578]
      - name: mounted
        path: /data/links                     # a folder of symbolic links to files kept elsewhere
        follow_links: true                    # read them (by default a link out of the folder is refused)
      - name: sample
        kind: sample                          # the abridged sample shipped with Etalon (what `etalon demo` adds)
      - name: consultant
        path: /data/exports
        priority: -5                          # copies here never shadow another source's copy of a document

A warehouse holds the embedded sample only when someone asked for it: `etalon demo` registers it, or a person
lists it. Without a sources file there is no configured source at all (`etalon corpus ingest` writes the file).

The inbox (``$ETALON_HOME/inbox``) is always a source named ``inbox``: files dropped there are picked
up by the sensor without editing the list.

Each kind of source is one registered :class:`Kind` (keys it takes, how its entry is read, where its files are
and whether a fetch fills a local mirror first), so a new kind of source is one more entry, not a new branch in
every reader.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from corpus.precedence import SAMPLE as SAMPLE
from corpus.precedence import SAMPLE_PRIORITY
from corpus.remote import CONNECTORS
from corpus.remote.http import write_atomic
from corpus.remote.index import fetch_index
from corpus.remote.mirror import FetchResult
from corpus.remote.settings import COMMON, Connector, SettingsError
from etalons.yamlpos import line_of
from etalons.yamlsafe import load_file_with_nodes

INBOX = "inbox"
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class Source:
    """One configured source. `kind`: its registered kind (`folder`, `http`, `sample`, ...); `priority`: which
    copy of a document is current when several sources hold it (higher wins; corpus.precedence); `follow_links`:
    read files a symbolic link in the folder points to outside it (off by default: a link to /etc/passwd dropped
    into the inbox must not be read); `options`: the kind's own settings, as the sources file gives them."""

    name: str
    path: Path | None = None
    url: str | None = None
    follow_links: bool = False
    kind: str = ""
    priority: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.kind:
            object.__setattr__(self, "kind", "http" if self.url else "folder")
        if self.priority is None:
            object.__setattr__(self, "priority", KINDS[self.kind].priority if self.kind in KINDS else 0)

    @property
    def rank(self) -> int:
        return int(self.priority or 0)

    @property
    def remote(self) -> bool:
        """Whether its files come from a fetch into a local mirror (``$ETALON_HOME/sources/<name>``)."""
        return KINDS[self.kind].remote if self.kind in KINDS else False

    @property
    def location(self) -> str:
        return str(self.url or self.path or "")


class SourcesFileError(ValueError):
    """A sources file entry that does not load: one line naming the file, the line and what was expected."""


@dataclass(frozen=True)
class Kind:
    """A kind of corpus source as the sources file names it.

    `keys`: the keys its entry may have besides name/kind/priority; `read`: the entry (already checked for those
    keys) into a Source, given where relative paths start and the line's label for errors; `remote`: its files
    are fetched into a local mirror before they are read; `priority`: the default priority of its sources;
    `entry`: the mapping the sources file holds for a Source of this kind (what `corpus ingest` writes);
    `fetch`: for a remote kind, what fills its mirror (Source, mirror folder) -> what it stored (corpus.remote)."""

    name: str
    keys: tuple[str, ...]
    read: Callable[[Mapping[str, Any], Path, str], Source]
    entry: Callable[[Source], dict[str, Any]]
    remote: bool = False
    priority: int = 0
    fetch: Callable[[Source, Path], FetchResult] | None = None


KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    KINDS[kind.name] = kind
    return kind


def _read_folder(item: Mapping[str, Any], base: Path, where: str) -> Source:
    path, follow = item.get("path"), item.get("follow_links", False)
    if not isinstance(path, str) or not path.strip():
        raise SourcesFileError(f"{where}: 'path' must be a string naming a folder or a file")
    if not isinstance(follow, bool):
        raise SourcesFileError(f"{where}: 'follow_links' must be true or false")
    p = Path(path).expanduser()
    return Source(str(item["name"]), path=p if p.is_absolute() else (base / p).resolve(), follow_links=follow)


def _read_http(item: Mapping[str, Any], base: Path, where: str) -> Source:
    url = item.get("url")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        raise SourcesFileError(f"{where}: 'url' must be an http(s) URL")
    return Source(str(item["name"]), url=url)


def _read_sample(item: Mapping[str, Any], base: Path, where: str) -> Source:
    return sample_source(str(item["name"]))


register(Kind("folder", ("path", "follow_links"), _read_folder,
              lambda s: {"path": str(s.path), **({"follow_links": True} if s.follow_links else {})}))
register(Kind("http", ("url",), _read_http, lambda s: {"url": s.url}, remote=True,
              fetch=lambda s, folder: fetch_index(str(s.url), folder, source=s.name)))
register(Kind("sample", (), _read_sample, lambda s: {"kind": "sample"}, priority=SAMPLE_PRIORITY))


def _connector_kind(c: Connector) -> Kind:
    """An official service's connector (corpus.remote) as a kind: its settings checked key by key, its fetch."""

    def read(item: Mapping[str, Any], base: Path, where: str) -> Source:
        options = c.settings({k: v for k, v in item.items() if k not in ("name", "kind", "priority")})
        return Source(str(item["name"]), url=options.get("base_url") or None, kind=c.name, options=options)

    def fetch(source: Source, folder: Path) -> FetchResult:
        return c.fetch(c.settings(source.options), folder, source.name)

    return Kind(c.name, (*COMMON, *c.keys), read, lambda s: {}, remote=True, fetch=fetch)


for _connector in CONNECTORS.values():
    register(_connector_kind(_connector))


def sample_source(name: str = SAMPLE) -> Source:
    """The abridged sample shipped with Etalon: the corpus of `etalon demo`, never a default."""
    from warehouse.home import SAMPLE_CORPUS

    return Source(name, path=SAMPLE_CORPUS, kind="sample")


def _entry(item: object, file: Path, index: int, line: int | None, root: Any = None) -> Source:
    where = f"{file}:{line}" if line else str(file)
    if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"].strip():
        raise SourcesFileError(f"{where}: sources[{index}]: expected a mapping with a non-empty 'name'")
    label = f"{where}: sources[{index}] ({item['name']})"
    kind_name = item.get("kind")
    if kind_name is None:   # a folder or an HTTP index, told apart by the key they take
        if ("path" in item) == ("url" in item):
            raise SourcesFileError(f"{label}: give exactly one of 'path' or 'url' (or a 'kind': "
                                   f"{', '.join(sorted(KINDS))})")
        kind_name = "http" if "url" in item else "folder"
    if not isinstance(kind_name, str) or kind_name not in KINDS:
        raise SourcesFileError(f"{label}: kind: expected one of {', '.join(sorted(KINDS))}, got {kind_name!r}")
    kind = KINDS[kind_name]
    unknown = sorted(set(item) - {"name", "kind", "priority", *kind.keys})
    if unknown:
        allowed = ", ".join(("name", "kind", "priority", *kind.keys))
        raise SourcesFileError(f"{label}: unknown key {unknown[0]!r} for a source of kind {kind.name}; expected "
                               f"{allowed}")
    priority = item.get("priority")
    if priority is not None and (isinstance(priority, bool) or not isinstance(priority, int)):
        raise SourcesFileError(f"{label}: priority: expected a whole number (higher wins), got {priority!r}")
    try:
        source = kind.read(item, file.parent, label)
    except SettingsError as exc:   # one key of a connector's settings: its own line
        top = exc.key.split(".", 1)[0].split("[", 1)[0]
        key_line = line_of(root, ["sources", index, top]) if root is not None else line
        raise SourcesFileError(f"{file}:{key_line or line}: sources[{index}] ({item['name']}): {exc}") from None
    extra: dict[str, Any] = {"kind": kind.name}
    if priority is not None:
        extra["priority"] = priority
    return replace(source, **extra)


def load_sources(sources_file: Path) -> list[Source]:
    """The configured sources (none without a file); a bad file is a ValueError of one line naming the file and
    the line."""
    if not sources_file.exists():
        return []
    root, data = load_file_with_nodes(sources_file)
    items = data.get("sources") if isinstance(data, dict) else None
    if items is None:
        return []
    if not isinstance(items, list):
        raise SourcesFileError(f"{sources_file}:{line_of(root, ['sources'])}: 'sources' must be a list")
    return [_entry(item, sources_file, i, line_of(root, ["sources", i]), root) for i, item in enumerate(items)]


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


def entry_of(source: Source) -> dict[str, Any]:
    """The sources-file mapping of a source (kind and priority written only where they are not the default)."""
    kind = KINDS[source.kind]
    out: dict[str, Any] = {"name": source.name, **kind.entry(source)}
    if source.kind not in ("folder", "http"):
        out["kind"] = source.kind
    if source.rank != kind.priority:
        out["priority"] = source.rank
    for key, value in source.options.items():
        out.setdefault(key, value)
    return out


def save_source_list(sources_file: Path, existing: Sequence[Source], wanted: Sequence[Source]) -> None:
    """Add the wanted sources to the list (the inbox stays implicit); written atomically."""
    merged: dict[str, Source] = {s.name: s for s in existing if s.name != INBOX}
    for s in wanted:
        merged.setdefault(s.name, s)
    items = [entry_of(s) for s in merged.values()]
    write_atomic(sources_file, yaml.safe_dump({"sources": items}, allow_unicode=True, sort_keys=False).encode())


def ensure_sample(sources_file: Path, inbox: Path) -> tuple[Source, bool]:
    """The embedded sample as a registered source (what `etalon demo` asks for): the one listed, or one added to
    the sources file under a free name. Returns it and whether the file was written."""
    existing = sources_for(sources_file, inbox)
    listed = next((s for s in existing if s.kind == "sample"), None)
    if listed is not None:
        return listed, False
    added = sample_source(free_name(SAMPLE, {s.name for s in existing}))
    save_source_list(sources_file, existing, [added])
    return added, True


def free_name(wanted: str, taken: set[str]) -> str:
    """`wanted`, or `wanted-2`, `wanted-3` ... : the first not taken."""
    return next(n for n in (wanted, *(f"{wanted}-{i}" for i in range(2, 10_000))) if n not in taken)


def adopt_legacy_sample(sources_file: Path, held: bool) -> str | None:
    """A warehouse an earlier Etalon filled from the embedded sample by default (no sources file, the sample's
    documents stored) keeps it: the sources file is written with it, once, and the sentence returned says so."""
    if sources_file.exists() or not held:
        return None
    save_source_list(sources_file, [sample_source()], [])
    return (f"{sources_file}: written, listing the embedded sample this warehouse was read from by default before; "
            "`etalon corpus sources remove sample` takes it out")


def fingerprint(source: Source, staging: Path) -> str:
    """Changes when a file under the source is added, removed or modified (by size and mtime).

    A remote source cannot be observed without asking the server, so its fingerprint is the state of
    its local mirror: the daily schedule fetches it, the mirror changes, and downstream follows.
    """
    h = hashlib.sha256()
    root = staging if source.remote else source.path
    if root is None or not root.exists():
        return "absent"
    files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file() or p.is_symlink())
    inside = root.resolve()
    for f in files:
        if (source.remote and f.name.startswith(".")) or (f.name.startswith(".") and f.name.endswith(".tmp")):
            continue  # a temporary is a write under way (or a killed one), never a change; a mirror's cursor
            # and index copy change with every run, its documents only when they do
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

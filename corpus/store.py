"""One corpus source into the lake: parse, merge with the stored versions, write atomically.

Each source is one partition of ``corpus_documents``, ``corpus_units`` and ``ingest_errors``; the files
are replaced whole (the lake writes atomically), units before documents, so a reader never sees a
current document whose units are missing.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

import pyarrow as pa
import pyarrow.compute as pc

from corpus.model import OMITTED, IngestError
from corpus.precedence import Copy, Outcome, copies_of, decide, default_priority, edition_of, modified_of
from corpus.remote.http import FetchError
from corpus.sources import INBOX, KINDS, Source
from corpus.tables import Compact, errors_table, merge_versions, parse_compact


class LakeLike(Protocol):
    def read(self, table: str, *key: str) -> pa.Table: ...
    def read_all(self, table: str) -> pa.Table: ...
    def write(self, table: str, key: tuple[str, ...], data: pa.Table) -> str: ...


@dataclass(frozen=True)
class RefreshSummary:
    added: int
    changed: int
    unchanged: int
    failed: int
    units_added: int
    errors: tuple[IngestError, ...]
    data_version: str
    fetch: dict[str, int] | None = None   # a remote source's fetch: fetch.fetched, fetch.new, ... (mirror.py)
    removed: int = 0   # documents whose file left the source: no longer current (their versions are kept)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _stamped(documents: pa.Table, previous: pa.Table, at: str) -> pa.Table:
    """Keep the first-seen time of versions already stored, stamp new versions with ``at``; give every version its
    edition (from the version) and every current one the time its file was modified (corpus.precedence reads
    both)."""
    seen: dict[tuple[str, str], str] = {}
    mtimes: dict[tuple[str, str], str] = {}
    if previous.num_rows:
        names = previous.column_names
        stamps_before = previous.column("ingested_at").to_pylist() if "ingested_at" in names else []
        modified_before = previous.column("modified").to_pylist() if "modified" in names else []
        for i, (d, v) in enumerate(zip(previous.column("doc_id").to_pylist(), previous.column("version").to_pylist(),
                                       strict=True)):
            if stamps_before and stamps_before[i]:
                seen[(d, v)] = stamps_before[i]
            if modified_before and modified_before[i]:
                mtimes[(d, v)] = modified_before[i]
    ids = documents.column("doc_id").to_pylist()
    versions = documents.column("version").to_pylist()
    current = documents.column("is_current").to_pylist()
    files = documents.column("file").to_pylist()
    stamps = [seen.get((d, v), at) for d, v in zip(ids, versions, strict=True)]
    editions = [edition_of(v) for v in versions]
    modified = [(modified_of(f) or mtimes.get((d, v))) if c else mtimes.get((d, v))
                for d, v, c, f in zip(ids, versions, current, files, strict=True)]
    documents = documents.drop_columns([c for c in ("ingested_at", "edition", "modified")
                                        if c in documents.column_names])
    for name, values in (("ingested_at", stamps), ("edition", editions), ("modified", modified)):
        documents = documents.append_column(name, pa.array(values, pa.string()))
    return documents


def _in_precedence_order(docs: list[Compact]) -> list[Compact]:
    """The documents of a source with each doc_id's copies in ascending precedence (corpus.precedence): the merge
    makes the copy read last current, so of two files holding the same document the rule's winner is current,
    whatever order the files were listed in. Documents held once keep their place."""
    counts = Counter(d.doc_id for d in docs)
    if all(n == 1 for n in counts.values()):
        return docs
    groups: dict[str, list[Compact]] = defaultdict(list)
    for d in docs:
        if counts[d.doc_id] > 1:
            groups[d.doc_id].append(d)
    ordered = {doc_id: iter(sorted(group, key=lambda d: Copy(
        d.doc_id, "", d.version, 0, edition_of(d.version), modified_of(d.head.file), d.head.file).key))
        for doc_id, group in groups.items()}
    return [next(ordered[d.doc_id]) if counts[d.doc_id] > 1 else d for d in docs]


def refresh_source(lake: LakeLike, source: Source, staging: Path, fetch: bool = True) -> RefreshSummary:
    """Read the source into its partition; a remote source's mirror (``staging``) is fetched first when `fetch`.
    A fetch that fails leaves the mirror as it was: what it holds is read, the failure is an ingest error."""
    at = _now()
    errors: list[IngestError] = []
    root = source.path
    counts = None
    if source.remote:
        root = staging
        fetcher = KINDS[source.kind].fetch
        if fetch and fetcher is not None:
            try:
                fetched = fetcher(source, staging)
                counts = fetched.counts()
                errors.extend(fetched.errors)
            except (FetchError, OSError, ValueError) as exc:
                errors.append(IngestError(source.name, source.location, getattr(exc, "reason", "fetch_failed"),
                                          f"the fetch failed, the mirror is kept as it was: {exc}", None))
                counts = {"fetch.failed": 1}
    previous_docs = lake.read("corpus_documents", source.name)
    previous_units = lake.read("corpus_units", source.name)
    docs: list[Compact] = []
    withdrawn: frozenset[str] = frozenset()
    if root is not None and root.exists():
        docs, failed = parse_compact(root, source.name, follow_links=source.follow_links)
        docs = _in_precedence_order(docs)
        errors.extend(failed)
        withdrawn = _withdrawn(previous_docs, {e.file for e in failed})
    elif root is not None and source.name == INBOX:   # no inbox folder is an empty inbox
        withdrawn = _withdrawn(previous_docs, set())
    elif root is not None and not source.remote:   # a mirror not fetched yet has its own error above
        errors.append(IngestError(source.name, str(root), "not_found",
                                  "the source's path is not found: its documents are kept as last read", None))
    merged = merge_versions(previous_docs if previous_docs.num_rows else None,
                            previous_units if previous_units.num_rows else None, docs, withdrawn)
    lake.write("corpus_units", (source.name,), merged.units)
    lake.write("corpus_documents", (source.name,), _stamped(merged.documents, previous_docs, at))
    lake.write("ingest_errors", (source.name,), errors_table(errors, at))
    current = merged.documents.filter(merged.documents["is_current"])
    return RefreshSummary(merged.added, merged.changed, merged.unchanged, len(errors), merged.units_added,
                          tuple(errors), _version_of(current), counts, merged.removed)


def _withdrawn(previous_docs: pa.Table, failed_files: set[str | None]) -> frozenset[str]:
    """The source's current documents that may leave it: all but those read from a file that failed this time
    (a file being rewritten or broken keeps its last good reading, and the failure is reported). The merge keeps
    every one the source still yields."""
    if not previous_docs.num_rows or "is_current" not in previous_docs.column_names:
        return frozenset()
    current = previous_docs.filter(previous_docs["is_current"])
    return frozenset(d for d, f in zip(current.column("doc_id").to_pylist(), current.column("file").to_pylist(),
                                       strict=True) if f not in failed_files)


def _version_of(current_documents: pa.Table) -> str:
    pairs = sorted(zip(current_documents.column("doc_id").to_pylist(),
                       current_documents.column("content_hash").to_pylist(), strict=True))
    return hashlib.sha256(repr(pairs).encode()).hexdigest()[:16]


def current_tables(lake: LakeLike, sources: Mapping[str, int] | None = None) -> tuple[pa.Table, pa.Table]:
    """Current versions of every document of the given sources (name -> priority), and their units: one document
    per ``doc_id``, the copy corpus.precedence chooses (the corpus.documents and corpus.units views decide the
    same). ``None``: the sources the last update recorded (every stored source when it recorded none).

    Units of status ``omitted`` (placeholders of an abridged copy) are left out: these are the units citations
    resolve against, and a placeholder is no text of the law (the lake and the corpus.units view keep it, with
    its status)."""
    sources = configured_sources(lake, sources)
    documents, units = _current_copies(lake, sources)
    if units.num_rows:
        # a placeholder for text an abridged copy left out holds no law: no citation may land on it
        units = units.filter(pc.fill_null(pc.not_equal(units["status"], OMITTED), True))
    if documents.num_rows and pc.count_distinct(documents["doc_id"]).as_py() < documents.num_rows:
        documents, units = _one_copy_each(documents, units, priorities_of(lake, sources))
    return documents, units


def configured_sources(lake: LakeLike, sources: Mapping[str, int] | None) -> Mapping[str, int] | None:
    """The sources (name -> priority) as given, else as the last update recorded them; None when it recorded none
    (a lake no update has run on: every stored source counts)."""
    if sources is not None:
        return sources
    recorded = {r["name"]: r.get("priority") for r in lake.read("corpus_sources").to_pylist()}
    return {name: int(p) if p is not None else default_priority(name) for name, p in recorded.items()} or None


def priorities_of(lake: LakeLike, sources: Mapping[str, int] | None) -> Mapping[str, int]:
    """Each source's priority as given or recorded (a source not in it has its default: corpus.precedence)."""
    return configured_sources(lake, sources) or {}


def _current_copies(lake: LakeLike, sources: Mapping[str, int] | None) -> tuple[pa.Table, pa.Table]:
    """Every source's current documents and units (a document held by two sources appears twice)."""
    if sources is None:
        documents = lake.read_all("corpus_documents")
        units = lake.read_all("corpus_units")
    else:   # only the configured sources: a removed source's documents leave the corpus
        names = sorted(sources)
        documents = _concat([lake.read("corpus_documents", n) for n in names]) or lake.read("corpus_documents", "")
        units = _concat([lake.read("corpus_units", n) for n in names]) or lake.read("corpus_units", "")
    if documents.num_rows:
        documents = documents.filter(pc.fill_null(documents["is_current"], True))
    if units.num_rows:
        units = units.filter(pc.fill_null(units["is_current"], True))
    return documents, units


def outcomes(lake: LakeLike, sources: Mapping[str, int] | None = None) -> dict[str, Outcome]:
    """Per doc_id held by more than one source, the current copy and the copies it shadows."""
    sources = configured_sources(lake, sources)
    documents, _ = _current_copies(lake, sources)
    if not documents.num_rows:
        return {}
    rows = documents.select([c for c in ("doc_id", "source", "version", "edition", "modified", "file")
                             if c in documents.column_names]).to_pylist()
    decided = decide(copies_of(rows, priorities_of(lake, sources)))
    return {doc_id: o for doc_id, o in decided.items() if o.shadowed}


def _concat(tables: list[pa.Table]) -> pa.Table | None:
    found = [t for t in tables if t.num_rows]
    if not found:
        return None
    return pa.concat_tables(found, promote_options="default") if len(found) > 1 else found[0]


def _one_copy_each(documents: pa.Table, units: pa.Table, priorities: Mapping[str, int]) -> tuple[pa.Table, pa.Table]:
    """Per doc_id the copy corpus.precedence chooses, and its units once."""
    rows = documents.select([c for c in ("doc_id", "source", "version", "edition", "modified", "file")
                             if c in documents.column_names]).to_pylist()
    copies = copies_of(rows, priorities)
    winners = {(o.current.doc_id, o.current.source) for o in decide(copies).values()}
    chosen = documents.take([i for i, c in enumerate(copies) if (c.doc_id, c.source) in winners])
    if chosen.num_rows > len(winners):   # one source holding the same version twice: keep its first row
        seen: set[tuple[str, str]] = set()
        keep = []
        for i, (d, s) in enumerate(zip(chosen["doc_id"].to_pylist(), chosen["source"].to_pylist(), strict=True)):
            if (d, s) not in seen:
                seen.add((d, s))
                keep.append(i)
        chosen = chosen.take(keep)
    if not units.num_rows:
        return chosen, units
    wanted = pa.table({"doc_id": chosen["doc_id"], "version": chosen["version"]})
    marked = units.append_column("_row", pa.array(range(units.num_rows), pa.int64()))
    joined = marked.join(wanted, ["doc_id", "version"], join_type="inner")
    # the same version stored by two sources gives each unit twice: keep the first of each path
    first_rows = joined.group_by(["doc_id", "path"], use_threads=False).aggregate([("_row", "min")])
    picked = first_rows["_row_min"]
    return chosen, units.take(pc.take(picked, pc.sort_indices(picked)))


def corpus_version(lake: LakeLike) -> str:
    """Changes whenever any current document changes: etalon checks record which corpus they saw."""
    documents, _ = current_tables(lake)
    return _version_of(documents) if documents.num_rows else "empty"

"""One corpus source into the lake: parse, merge with the stored versions, write atomically.

Each source is one partition of ``corpus_documents``, ``corpus_units`` and ``ingest_errors``; the files
are replaced whole (the lake writes atomically), units before documents, so a reader never sees a
current document whose units are missing.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

import pyarrow as pa
import pyarrow.compute as pc

from corpus.http_source import fetch_index
from corpus.model import OMITTED, IngestError
from corpus.sources import Source
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


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _with_ingested_at(documents: pa.Table, previous: pa.Table, at: str) -> pa.Table:
    """Keep the first-seen time of versions already stored; stamp new versions with ``at``."""
    seen: dict[tuple[str, str], str] = {}
    if previous.num_rows and "ingested_at" in previous.column_names:
        for d, v, t in zip(previous.column("doc_id").to_pylist(), previous.column("version").to_pylist(),
                           previous.column("ingested_at").to_pylist(), strict=True):
            if t:
                seen[(d, v)] = t
    stamps = [seen.get((d, v), at) for d, v in zip(documents.column("doc_id").to_pylist(),
                                                   documents.column("version").to_pylist(), strict=True)]
    if "ingested_at" in documents.column_names:
        documents = documents.drop_columns(["ingested_at"])
    return documents.append_column("ingested_at", pa.array(stamps, pa.string()))


def refresh_source(lake: LakeLike, source: Source, staging: Path) -> RefreshSummary:
    at = _now()
    errors: list[IngestError] = []
    root = source.path
    if source.url:
        fetched = fetch_index(source.url, staging, source=source.name)
        errors.extend(fetched.errors)
        root = staging
    previous_docs = lake.read("corpus_documents", source.name)
    previous_units = lake.read("corpus_units", source.name)
    docs: list[Compact] = []
    if root is not None and root.exists():
        docs, failed = parse_compact(root, source.name, follow_links=source.follow_links)
        errors.extend(failed)
    merged = merge_versions(previous_docs if previous_docs.num_rows else None,
                            previous_units if previous_units.num_rows else None, docs)
    lake.write("corpus_units", (source.name,), merged.units)
    lake.write("corpus_documents", (source.name,), _with_ingested_at(merged.documents, previous_docs, at))
    lake.write("ingest_errors", (source.name,), errors_table(errors, at))
    current = merged.documents.filter(merged.documents["is_current"])
    return RefreshSummary(merged.added, merged.changed, merged.unchanged, len(errors), merged.units_added,
                          tuple(errors), _version_of(current))


def _version_of(current_documents: pa.Table) -> str:
    pairs = sorted(zip(current_documents.column("doc_id").to_pylist(),
                       current_documents.column("content_hash").to_pylist(), strict=True))
    return hashlib.sha256(repr(pairs).encode()).hexdigest()[:16]


def current_tables(lake: LakeLike, sources: set[str] | None = None) -> tuple[pa.Table, pa.Table]:
    """Current versions of every document of every source, and their units: one document per ``doc_id``.

    The same document can sit in two sources (a folder ingested, then a file inside it, or an inbox drop of a
    file a scheduled source also holds). Counted twice, each of its units would resolve as ``ambiguous``; the
    copy ingested last wins, as the corpus.documents and corpus.units views decide too. Units of status
    ``omitted`` (placeholders of an abridged copy) are left out: these are the units citations resolve against,
    and a placeholder is no text of the law (the lake and the corpus.units view keep it, with its status)."""
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
        # a placeholder for text an abridged copy left out holds no law: no citation may land on it
        current = pc.and_(pc.fill_null(units["is_current"], True),
                          pc.fill_null(pc.not_equal(units["status"], OMITTED), True))
        units = units.filter(current)
    if documents.num_rows and pc.count_distinct(documents["doc_id"]).as_py() < documents.num_rows:
        documents, units = _one_copy_each(documents, units)
    return documents, units


def _concat(tables: list[pa.Table]) -> pa.Table | None:
    found = [t for t in tables if t.num_rows]
    if not found:
        return None
    return pa.concat_tables(found, promote_options="default") if len(found) > 1 else found[0]


def _one_copy_each(documents: pa.Table, units: pa.Table) -> tuple[pa.Table, pa.Table]:
    """Per doc_id the row ingested last (then the greater source name, as the view orders), and its units once."""
    stamps = (documents["ingested_at"].to_pylist() if "ingested_at" in documents.column_names
              else [None] * documents.num_rows)
    best: dict[str, tuple[tuple[str, str], int]] = {}
    for row, (doc_id, at, source) in enumerate(zip(documents["doc_id"].to_pylist(), stamps,
                                                   documents["source"].to_pylist(), strict=True)):
        key = (at or "", source or "")
        if doc_id not in best or key > best[doc_id][0]:
            best[doc_id] = (key, row)
    chosen = documents.take(sorted(row for _, row in best.values()))
    if not units.num_rows:
        return chosen, units
    wanted = pa.table({"doc_id": chosen["doc_id"], "version": chosen["version"]})
    marked = units.append_column("_row", pa.array(range(units.num_rows), pa.int64()))
    joined = marked.join(wanted, ["doc_id", "version"], join_type="inner")
    # the same version stored by two sources gives each unit twice: keep the first of each path
    first_rows = joined.group_by(["doc_id", "path"], use_threads=False).aggregate([("_row", "min")])
    rows = first_rows["_row_min"]
    return chosen, units.take(pc.take(rows, pc.sort_indices(rows)))


def corpus_version(lake: LakeLike) -> str:
    """Changes whenever any current document changes: etalon checks record which corpus they saw."""
    documents, _ = current_tables(lake)
    return _version_of(documents) if documents.num_rows else "empty"

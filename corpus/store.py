"""Refreshing one corpus source into the lake, and reading the corpus back for lookups.

A source's partition holds every version of its documents: re-ingesting an unchanged document changes
nothing, a changed one adds a version and keeps the old, so etalons and judgments that used the old text can
still be explained.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from corpus.model import Document, IngestError
from corpus.sources import SourceConfig
from warehouse.lake import Lake


@dataclass(frozen=True)
class RefreshSummary:
    source: str
    added: int
    changed: int
    unchanged: int
    failed: int
    units_added: int
    data_version: str
    errors: tuple[IngestError, ...] = ()


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def source_folder(source: SourceConfig, staging: Path) -> Path:
    """Where the files of a source are: the folder itself, or the staging copy of an HTTP index."""
    if source.kind == "folder":
        if not source.path:
            raise ValueError(f"source {source.name!r}: a folder source needs `path`")
        return Path(source.path)
    from corpus.http_source import fetch_index  # the corpus' only network code

    if not source.url:
        raise ValueError(f"source {source.name!r}: an http source needs `url`")
    fetch_index(source.url, staging)
    return staging


def refresh_source(lake: Lake, source: SourceConfig, staging: Path) -> RefreshSummary:
    """Parse every file of the source and merge the result into its partition, keeping old versions."""
    from corpus.ingest import parse_path
    from corpus.tables import errors_table, merge_versions

    folder = source_folder(source, staging)
    documents: list[Document] = []
    errors: list[IngestError] = []
    for item in parse_path(folder, source.name):
        (errors if isinstance(item, IngestError) else documents).append(item)  # type: ignore[arg-type]
    previous_docs = lake.read("corpus_documents", source.name)
    previous_units = lake.read("corpus_units", source.name)
    merged = merge_versions(
        previous_docs if previous_docs.num_rows else None,
        previous_units if previous_units.num_rows else None,
        documents,
    )
    at = now()
    # Errors first, units before documents: a reader never sees a document whose units are missing.
    lake.write("ingest_errors", (source.name,), errors_table(errors, at))
    lake.write("corpus_units", (source.name,), merged.units)
    lake.write("corpus_documents", (source.name,), _stamp(merged.documents, at))
    return RefreshSummary(
        source=source.name,
        added=merged.added,
        changed=merged.changed,
        unchanged=merged.unchanged,
        failed=len(errors),
        units_added=merged.units_added,
        data_version=content_version(merged.documents),
        errors=tuple(errors),
    )


def _stamp(documents: pa.Table, at: str) -> pa.Table:
    if "ingested_at" in documents.column_names:
        return documents
    return documents.append_column("ingested_at", pa.array([at] * documents.num_rows, pa.string()))


def content_version(documents: pa.Table) -> str:
    """The corpus version of a source: a hash of the content hashes of its current documents."""
    if documents.num_rows == 0:
        return "empty"
    current = documents.filter(pc.equal(documents["is_current"], True)) if "is_current" in \
        documents.column_names else documents
    hashes = sorted(str(h) for h in current["content_hash"].to_pylist())
    return hashlib.sha256("\n".join(hashes).encode("utf-8")).hexdigest()[:16]


def current_tables(lake: Lake) -> tuple[pa.Table, pa.Table]:
    """(documents, units) of the current versions across every source: what citations resolve against."""
    documents = lake.read_all("corpus_documents")
    units = lake.read_all("corpus_units")
    if documents.num_rows:
        documents = documents.filter(pc.fill_null(documents["is_current"], True))
    if units.num_rows:
        units = units.filter(pc.fill_null(units["is_current"], True))
    return documents, units


def corpus_version(lake: Lake) -> str:
    documents, _ = current_tables(lake)
    return content_version(documents)

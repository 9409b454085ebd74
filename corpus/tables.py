"""Arrow tables the warehouse stores, and the version merge that makes re-ingestion idempotent.

Every version of a document is kept (etalons and judgments record which one they used); ``is_current``
marks the latest. Re-ingesting an unchanged document adds nothing, so a daily schedule is cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pyarrow as pa

from corpus.ingest import collector_paused, parse_path, unidentified
from corpus.model import Document, IngestError, Unit

DOCUMENT_SCHEMA = pa.schema([
    ("doc_id", pa.string()), ("version", pa.string()), ("jurisdiction", pa.string()), ("act", pa.string()),
    ("kind", pa.string()), ("issuer", pa.string()), ("court", pa.string()), ("number", pa.string()),
    ("date", pa.string()), ("title", pa.string()), ("status", pa.string()), ("source", pa.string()),
    ("file", pa.string()), ("content_hash", pa.string()), ("encoding", pa.string()), ("format", pa.string()),
    ("units", pa.int32()),
])
UNIT_SCHEMA = pa.schema([
    ("doc_id", pa.string()), ("version", pa.string()), ("act", pa.string()), ("article", pa.string()),
    ("path", pa.string()), ("kind", pa.string()), ("number", pa.string()), ("heading", pa.string()),
    ("text", pa.string()), ("ord", pa.int32()), ("status", pa.string()), ("context", pa.string()),
])
ERROR_SCHEMA = pa.schema([
    ("source", pa.string()), ("file", pa.string()), ("reason", pa.string()), ("detail", pa.string()),
    ("position", pa.string()), ("at", pa.string()),
])
CURRENT = pa.field("is_current", pa.bool_())
MERGED_DOCUMENT_SCHEMA = DOCUMENT_SCHEMA.append(CURRENT)
MERGED_UNIT_SCHEMA = UNIT_SCHEMA.append(CURRENT)


@dataclass(frozen=True)
class Compact:
    """A parsed document whose units are already Arrow rows (UNIT_SCHEMA) and whose Python units are gone.

    An ingest keeps every document of a source until the merge; as Python tuples of strings a unit costs
    several times its UTF-8 bytes, so holding them made an ingest's memory (2.3 GB at a million units) and its
    page faults grow with the source. Converted one document at a time, only the Arrow buffers stay.
    """

    head: Document  # the document with ``units=()``
    units: pa.Table

    @property
    def doc_id(self) -> str:
        return self.head.doc_id

    @property
    def version(self) -> str:
        return self.head.version

    @property
    def content_hash(self) -> str:
        return self.head.content_hash


def compact(doc: Document | Compact) -> Compact:
    if isinstance(doc, Compact):
        return doc
    return Compact(replace(doc, units=()), units_table([doc]))


def parse_compact(path: Path, source: str, *, follow_links: bool = False) -> tuple[list[Compact], list[IngestError]]:
    """Every document under ``path``, compacted as it is parsed, in one pause of the cyclic collector.

    Paused per file only, each re-enable made the collector walk that file's units once more and every document
    kept since; compacted, what outlives the pause is a few Python objects per document."""
    docs: list[Compact] = []
    errors: list[IngestError] = []
    with collector_paused():
        for r in parse_path(path, source, follow_links=follow_links):
            if isinstance(r, Document):
                docs.append(compact(r))
                note = unidentified(r, source)  # stored, and reported: nothing can cite it as it stands
                if note is not None:
                    errors.append(note)
            else:
                errors.append(r)
    return docs, errors


def documents_table(docs: Sequence[Document | Compact]) -> pa.Table:
    cols: dict[str, list[object]] = {f.name: [] for f in DOCUMENT_SCHEMA}
    for item in docs:
        d, count = (item.head, item.units.num_rows) if isinstance(item, Compact) else (item, len(item.units))
        for name in cols:
            cols[name].append(count if name == "units" else getattr(d, name))
    return pa.table(cols, schema=DOCUMENT_SCHEMA)


def units_table(docs: Sequence[Document]) -> pa.Table:
    with collector_paused():
        return _units_table(docs)


def _units_table(docs: Sequence[Document]) -> pa.Table:
    """Columns straight from the unit tuples: ``zip(*units)`` transposes rows into columns in C."""
    doc_ids: list[str] = []
    versions: list[str] = []
    for d in docs:
        doc_ids.extend([d.doc_id] * len(d.units))
        versions.extend([d.version] * len(d.units))
    rows = [u for d in docs for u in d.units]
    columns = list(zip(*rows, strict=True)) if rows else [()] * len(Unit._fields)
    by_name = dict(zip(Unit._fields, columns, strict=True))
    by_name["doc_id"], by_name["version"] = tuple(doc_ids), tuple(versions)
    return pa.table([pa.array(by_name[f.name], f.type) for f in UNIT_SCHEMA], schema=UNIT_SCHEMA)


def errors_table(errors: Sequence[IngestError], at: str) -> pa.Table:
    return pa.table({
        "source": [e.source for e in errors], "file": [e.file for e in errors], "reason": [e.reason for e in errors],
        "detail": [e.detail for e in errors], "position": [e.position for e in errors], "at": [at] * len(errors),
    }, schema=ERROR_SCHEMA)


@dataclass(frozen=True)
class MergeResult:
    documents: pa.Table
    units: pa.Table
    added: int
    changed: int
    unchanged: int
    units_added: int
    removed: int = 0


def _without_current(table: pa.Table | None, schema: pa.Schema) -> pa.Table:
    if table is None:
        return schema.empty_table()
    if "is_current" in table.column_names:
        table = table.drop_columns(["is_current"])
    return table.select(schema.names).cast(schema)


def _current_flags(table: pa.Table, current: dict[str, str]) -> pa.Array:
    ids = table.column("doc_id").to_pylist()
    versions = table.column("version").to_pylist()
    return pa.array([current.get(i) == v for i, v in zip(ids, versions, strict=True)], pa.bool_())


def merge_versions(previous_docs: pa.Table | None, previous_units: pa.Table | None,
                   new: Sequence[Document | Compact], withdrawn: frozenset[str] = frozenset()) -> MergeResult:
    """All versions kept; a document whose content hash is the current one's counts as unchanged. A document in
    ``withdrawn`` that the batch does not bring again (its file was deleted) keeps its versions and stops being
    current, as in a warehouse that never read it."""
    docs = _without_current(previous_docs, DOCUMENT_SCHEMA)
    units = _without_current(previous_units, UNIT_SCHEMA)
    current: dict[str, str] = {}
    known: dict[tuple[str, str], str] = {}  # (doc_id, content_hash) -> version already stored
    if previous_docs is not None and previous_docs.num_rows:
        flags = (previous_docs.column("is_current").to_pylist() if "is_current" in previous_docs.column_names
                 else [True] * previous_docs.num_rows)
        for doc_id, version, digest, flag in zip(docs.column("doc_id").to_pylist(), docs.column("version").to_pylist(),
                                                 docs.column("content_hash").to_pylist(), flags, strict=True):
            known[(doc_id, digest)] = version
            if flag or doc_id not in current:
                current[doc_id] = version
    brought = {d.doc_id for d in new}
    removed = [doc_id for doc_id in withdrawn if doc_id in current and doc_id not in brought]
    for doc_id in removed:
        del current[doc_id]
    current_hash = {doc_id: digest for (doc_id, digest), v in known.items() if current.get(doc_id) == v}
    fresh: list[Document | Compact] = []
    added = changed = unchanged = 0
    # the same document may arrive twice in one batch (a resolution as DOCX and as text): the last one
    # read is the current one, earlier ones are kept as versions without flipping back and forth
    last = {d.doc_id: i for i, d in enumerate(new)}
    counted: set[str] = set()  # documents this batch already counted as added or changed
    for i, d in enumerate(new):
        if last[d.doc_id] != i:
            if (d.doc_id, d.content_hash) in known:
                pass  # its last rendering in this batch counts the document
            else:
                fresh.append(d)
                known[(d.doc_id, d.content_hash)] = d.version
                added += 1 if d.doc_id not in current else 0
                changed += 1 if d.doc_id in current else 0
                counted.add(d.doc_id)
                current.setdefault(d.doc_id, d.version)
            continue
        if current_hash.get(d.doc_id) == d.content_hash:
            unchanged += 1
            continue
        if d.doc_id in counted:
            pass  # its other file in this batch already counted it: one document, not an added and a changed one
        elif d.doc_id in current:
            changed += 1
        else:
            added += 1
        old = known.get((d.doc_id, d.content_hash))
        if old is not None:  # a document reverted to an earlier version: that version becomes current again
            current[d.doc_id] = old
        else:
            fresh.append(d)
            known[(d.doc_id, d.content_hash)] = d.version
            current[d.doc_id] = d.version
        current_hash[d.doc_id] = d.content_hash
    parts = [compact(d).units for d in fresh]
    new_units = pa.concat_tables(parts) if parts else UNIT_SCHEMA.empty_table()
    all_docs = pa.concat_tables([docs, documents_table(fresh)])
    all_units = pa.concat_tables([units, new_units])
    return MergeResult(
        all_docs.append_column(CURRENT, _current_flags(all_docs, current)),
        all_units.append_column(CURRENT, _current_flags(all_units, current)),
        added, changed, unchanged, new_units.num_rows, len(removed),
    )

"""The lake: one Parquet file per asset partition, written atomically.

Runs on different partitions write different files, so they never contend; a file appears whole or not at all
(temporary name, fsync, rename), so a killed run never leaves half a file that a reader could see. Readers glob
`*.parquet`; temporary files end in `.tmp` and are never matched.
"""

from __future__ import annotations

import os
import re
import tempfile
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlparse

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from warehouse.schemas import SCHEMAS, conform

_SAFE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")


def encode_key(part: str) -> str:
    """A partition key as one safe path segment (codes and system ids are usually safe already)."""
    if _SAFE.match(part) and part not in {".", ".."}:
        return part
    return "%" + quote(part, safe="")


def decode_key(segment: str) -> str:
    return unquote(segment[1:]) if segment.startswith("%") else segment


class Lake:
    """Typed Parquet storage under a root (a local folder; see docs/scale.md for object storage)."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        parsed = urlparse(str(root))
        if parsed.scheme not in ("", "file"):
            raise ValueError(
                f"lake URL {root!r}: only local paths are implemented in this build; "
                "object storage is described in docs/scale.md"
            )
        self.root = Path(parsed.path if parsed.scheme == "file" else str(root)).resolve()

    # -- paths ---------------------------------------------------------------------------------------
    def table_dir(self, table: str) -> Path:
        return self.root / table

    def path(self, table: str, *key: str) -> Path:
        if not key:
            key = ("all",)
        *folders, name = (encode_key(k) for k in key)
        return self.table_dir(table).joinpath(*folders, f"{name}.parquet")

    def glob(self, table: str) -> str:
        """The glob analysts' views read: every partition file of the table."""
        return str(self.table_dir(table) / "**" / "*.parquet")

    # -- writing -------------------------------------------------------------------------------------
    def write(self, table: str, key: Sequence[str], data: pa.Table | Sequence[Mapping[str, Any]]) -> Path:
        """Replace one partition atomically with `data`, conformed to the table's declared schema."""
        arrow = data if isinstance(data, pa.Table) else pa.Table.from_pylist(list(data))
        arrow = conform(table, arrow)
        target = self.path(table, *key)
        write_atomic(target, arrow)
        return target

    def append_event(self, table: str, record: Mapping[str, Any], event_id: str | None = None) -> str:
        """Human events (signatures, decisions, undos, approvals) are immutable files: nothing is overwritten."""
        event_id = event_id or uuid.uuid4().hex[:12]
        self.write(table, (event_id,), [dict(record)])
        return event_id

    def ensure_schemas(self) -> None:
        """An empty, typed file per table, so views exist (and have their columns) before the first run."""
        for table, schema in SCHEMAS.items():
            target = self.table_dir(table) / "_schema.parquet"
            if not target.exists():
                write_atomic(target, schema.empty_table())

    # -- reading -------------------------------------------------------------------------------------
    def exists(self, table: str, *key: str) -> bool:
        return self.path(table, *key).exists()

    def read(self, table: str, *key: str) -> pa.Table:
        """One partition, or an empty typed table when it was never written."""
        target = self.path(table, *key)
        if not target.exists():
            return SCHEMAS[table].empty_table() if table in SCHEMAS else pa.table({})
        return pq.read_table(target)

    def files(self, table: str) -> list[Path]:
        base = self.table_dir(table)
        if not base.exists():
            return []
        return sorted(p for p in base.rglob("*.parquet") if p.name != "_schema.parquet")

    def read_all(self, table: str) -> pa.Table:
        """Every partition of a table, concatenated (schemas are declared, so they always agree)."""
        files = [str(p) for p in self.files(table)]
        if not files:
            return SCHEMAS[table].empty_table() if table in SCHEMAS else pa.table({})
        if len(files) == 1:
            return conform(table, pq.read_table(files[0]))
        # Every partition is written conformed to the declared schema, plus the same extra columns.
        shapes = [pq.read_schema(files[0]), pq.read_schema(files[-1])]
        if table in SCHEMAS:
            shapes.insert(0, SCHEMAS[table].schema)
        try:  # one multi-threaded scan instead of a file at a time
            schema = pa.unify_schemas(shapes, promote_options="permissive")
            return conform(table, ds.dataset(files, format="parquet", schema=schema).to_table())
        except (pa.ArrowInvalid, pa.ArrowTypeError):  # an older partition with another shape: read one by one
            tables = [conform(table, pq.read_table(p)) for p in files]
            return pa.concat_tables(tables, promote_options="default")

    def keys(self, table: str) -> list[tuple[str, ...]]:
        base = self.table_dir(table)
        return [
            tuple(decode_key(s) for s in p.relative_to(base).with_suffix("").parts) for p in self.files(table)
        ]


def write_atomic(target: Path, table: pa.Table) -> None:
    """Write next to the target, flush to disk, then rename: readers see the old file or the new one."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            pq.write_table(table, handle, compression="zstd")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with _suppress():
            os.unlink(tmp)
        raise



class _suppress:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return True

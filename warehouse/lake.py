"""The lake: one Parquet file per asset partition, written atomically.

Runs on different partitions write different files, so they never contend; a file appears whole or not at all
(on a local disk: temporary name, fsync, rename; on an object store: one PUT, see `warehouse.lake_fs`), so a
killed run never leaves half a file that a reader could see. Readers glob `*.parquet`; temporary files end in
`.tmp` and are never matched.
"""

from __future__ import annotations

import contextlib
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
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from warehouse.lake_fs import RemoteRoot
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
    """Typed Parquet storage under a root: a local folder, or a URL on object storage (see docs/scale.md).

    A plain path keeps the local code unchanged (it runs thousands of times per run). A URL (`s3://bucket/prefix`,
    `gs://…`, `file://…`) or an explicit pyarrow `filesystem` goes through `warehouse.lake_fs.RemoteRoot`. Callers
    use the methods below, never the files: only local lakes have a `root` folder.
    """

    def __init__(self, root: str | os.PathLike[str], filesystem: pafs.FileSystem | None = None) -> None:
        text = os.fspath(root)
        self._remote: RemoteRoot | None = None
        self._root: Path | None = None
        if filesystem is not None or len(urlparse(text).scheme) > 1:  # "C:" is a drive, not a scheme
            self._remote = RemoteRoot.open(text, filesystem)
        else:
            self._root = Path(text).resolve()

    @property
    def is_local(self) -> bool:
        return self._remote is None

    @property
    def root(self) -> Path:
        """The local folder; a lake on object storage has none, and code that needs one must say so loudly."""
        if self._root is None:
            raise ValueError(f"the lake at {self.url} is not a local folder: use Lake's methods")
        return self._root

    @property
    def url(self) -> str:
        """Where the lake is, as DuckDB and people name it (no query string, so never a credential)."""
        return self._remote.url if self._remote is not None else str(self.root)

    # -- paths ---------------------------------------------------------------------------------------
    def table_dir(self, table: str) -> Path:
        return self.root / table

    def path(self, table: str, *key: str) -> Path:
        return self.table_dir(table).joinpath(*_segments(key))

    def location(self, table: str, *key: str) -> str:
        """A partition's file or object, for messages: a path, or a URL on object storage."""
        if self._remote is None:
            return str(self.path(table, *key))
        return "/".join((self.url, table, *_segments(key)))

    def glob(self, table: str) -> str:
        """The glob analysts' views read: every partition file of the table."""
        if self._remote is not None:
            return f"{self.url}/{table}/**/*.parquet"
        return str(self.table_dir(table) / "**" / "*.parquet")

    # -- writing -------------------------------------------------------------------------------------
    def write(self, table: str, key: Sequence[str], data: pa.Table | Sequence[Mapping[str, Any]]) -> str:
        """Replace one partition atomically with `data`, conformed to the table's declared schema."""
        arrow = data if isinstance(data, pa.Table) else pa.Table.from_pylist(list(data))
        arrow = conform(table, arrow)
        if self._remote is not None:
            self._remote.put(self._remote.key(table, *_segments(key)), arrow)
            return self.location(table, *key)
        target = self.path(table, *key)
        write_atomic(target, arrow)
        return str(target)

    def append_event(self, table: str, record: Mapping[str, Any], event_id: str | None = None) -> str:
        """Human events (signatures, decisions, undos, approvals) are immutable files: nothing is overwritten."""
        event_id = event_id or uuid.uuid4().hex[:12]
        self.write(table, (event_id,), [dict(record)])
        return event_id

    def ensure_schemas(self) -> None:
        """An empty, typed file per table, so views exist (and have their columns) before the first run."""
        for table, schema in SCHEMAS.items():
            if self._remote is not None:
                target_key = self._remote.key(table, _SCHEMA_FILE)
                if not self._remote.exists(target_key):
                    self._remote.put(target_key, schema.empty_table())
                continue
            target = self.table_dir(table) / _SCHEMA_FILE
            # Rewritten when a column was declared since: the views name it even before any row has it.
            if not target.exists() or not pq.read_schema(target).equals(schema.schema, check_metadata=False):
                write_atomic(target, schema.empty_table())

    # -- reading -------------------------------------------------------------------------------------
    def exists(self, table: str, *key: str) -> bool:
        if self._remote is not None:
            return self._remote.exists(self._remote.key(table, *_segments(key)))
        return self.path(table, *key).exists()

    def modified_ns(self, table: str, *key: str) -> int:
        """When a partition was last replaced (0 if never written): a cheap change marker for observers."""
        if self._remote is not None:
            return self._remote.modified_ns(self._remote.key(table, *_segments(key)))
        try:
            return self.path(table, *key).stat().st_mtime_ns
        except FileNotFoundError:
            return 0

    def read(self, table: str, *key: str) -> pa.Table:
        """One partition, or an empty typed table when it was never written."""
        if self._remote is not None:
            found = self._remote.read(self._remote.key(table, *_segments(key)))
            return found if found is not None else _empty(table)
        target = self.path(table, *key)
        if not target.exists():
            return _empty(table)
        return pq.read_table(target)

    def files(self, table: str) -> list[str]:
        """Every partition file (local paths, or keys inside the lake's filesystem), sorted."""
        if self._remote is not None:
            keys = self._remote.parquet_keys(self._remote.key(table))
            return [k for k in keys if not k.endswith("/" + _SCHEMA_FILE)]
        base = self.table_dir(table)
        if not base.exists():
            return []
        return sorted(str(p) for p in base.rglob("*.parquet") if p.name != _SCHEMA_FILE)

    def tables(self) -> list[str]:
        """Tables holding at least one Parquet file (their typed `_schema.parquet` counts): what views cover."""
        if self._remote is not None:
            remote = self._remote
            return [t for t in remote.folders() if not t.startswith("_")
                    and (remote.exists(remote.key(t, _SCHEMA_FILE)) or remote.parquet_keys(remote.key(t)))]
        if not self.root.exists():
            return []
        return [d.name for d in sorted(self.root.iterdir())
                if d.is_dir() and not d.name.startswith("_") and any(d.rglob("*.parquet"))]

    def read_all(self, table: str) -> pa.Table:
        """Every partition of a table, concatenated (schemas are declared, so they always agree)."""
        files = self.files(table)
        if not files:
            return _empty(table)
        fs = self._remote.fs if self._remote is not None else None
        if len(files) == 1:
            return conform(table, pq.read_table(files[0], filesystem=fs))
        # Every partition is written conformed to the declared schema, plus the same extra columns.
        shapes = [pq.read_schema(files[0], filesystem=fs), pq.read_schema(files[-1], filesystem=fs)]
        if table in SCHEMAS:
            shapes.insert(0, SCHEMAS[table].schema)
        try:  # one multi-threaded scan instead of a file at a time
            schema = pa.unify_schemas(shapes, promote_options="permissive")
            return conform(table, ds.dataset(files, format="parquet", schema=schema, filesystem=fs).to_table())
        except (pa.ArrowInvalid, pa.ArrowTypeError):  # an older partition with another shape: read one by one
            tables = [conform(table, pq.read_table(p, filesystem=fs)) for p in files]
            return pa.concat_tables(tables, promote_options="default")

    def keys(self, table: str) -> list[tuple[str, ...]]:
        prefix = (self._remote.key(table) if self._remote is not None else str(self.table_dir(table))) + "/"
        sep = "/" if self._remote is not None else os.sep
        return [tuple(decode_key(s) for s in f.removeprefix(prefix).removesuffix(".parquet").split(sep))
                for f in self.files(table)]


_SCHEMA_FILE = "_schema.parquet"


def _segments(key: Sequence[str]) -> list[str]:
    """A partition key as path segments: folders, then the file (an unpartitioned table is `all.parquet`)."""
    *folders, name = (encode_key(k) for k in (key or ("all",)))
    return [*folders, f"{name}.parquet"]


def _empty(table: str) -> pa.Table:
    return SCHEMAS[table].empty_table() if table in SCHEMAS else pa.table({})


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
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise

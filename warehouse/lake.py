"""The lake: one Parquet file per table partition, written atomically.

Runs on different partitions write different files, so they never contend; a file appears whole or not at all
(on a local disk: temporary name, fsync, rename; on an object store: one PUT, see `warehouse.lake_fs`), so a
killed run never leaves half a file that a reader could see. Readers glob `*.parquet`; temporary files end in
`.tmp` and are never matched.

A partition key becomes path segments. Names people choose (benchmark folders, etalon codes, system ids) are
kept readable when they are short and plain, percent-encoded otherwise, and replaced by a hash when even that
would be too long for a file name: the readable name always stays in the rows.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlparse

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from warehouse.lake_fs import RemoteRoot
from warehouse.schemas import SCHEMAS, conform, require_complete
from warehouse.tables import TABLES
from warehouse.tmpfiles import sweep

_SAFE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")
# File systems allow 255 bytes per name; a segment plus ".parquet" and a temporary suffix must fit.
MAX_SEGMENT = 120
EVENT_SEPARATOR = "@"  # never produced by encode_key, so "<system>@<event id>" splits unambiguously


def encode_key(part: str) -> str:
    """A partition key as one safe path segment: itself, percent-encoded, or a hash when too long."""
    if _SAFE.match(part) and part not in {".", ".."} and len(part) <= MAX_SEGMENT:
        return part
    quoted = "%" + quote(part, safe="")
    if len(quoted) <= MAX_SEGMENT:
        return quoted
    return "~" + hashlib.sha256(part.encode("utf-8")).hexdigest()[:40]


def decode_key(segment: str) -> str:
    """The key of a segment; a hashed segment ("~...") cannot be decoded and is returned as it is."""
    return unquote(segment[1:]) if segment.startswith("%") else segment


def glob_escape(path: str) -> str:
    """A literal path inside a DuckDB glob: `[`, `]`, `*` and `?` in folder names match only themselves."""
    return "".join(f"[{c}]" if c in "[]*?" else c for c in path)


def _records_to_arrow(table: str, rows: Sequence[Any]) -> pa.Table:
    spec = TABLES.get(table)
    if spec is not None:
        return spec.to_arrow(rows)
    return pa.Table.from_pylist([dict(r) for r in rows])


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
        """The glob analysts' views read: every partition file (or event file) of the table."""
        ext = _ext(table)
        if self._remote is not None:
            return f"{glob_escape(self.url)}/{table}/**/*{ext}"
        return f"{glob_escape(str(self.table_dir(table)))}/**/*{ext}"

    # -- writing -------------------------------------------------------------------------------------
    def write(self, table: str, key: Sequence[str], data: pa.Table | Sequence[Any]) -> str:
        """Replace one partition atomically with `data` (records of the table, or an Arrow table carrying every
        declared column), cast to the table's declared schema."""
        arrow = data if isinstance(data, pa.Table) else _records_to_arrow(table, list(data))
        require_complete(table, arrow)
        arrow = conform(table, arrow)
        if self._remote is not None:
            self._remote.put(self._remote.key(table, *_segments(key)), arrow)
            return self.location(table, *key)
        target = self.path(table, *key)
        spec = TABLES.get(table)
        write_atomic(target, arrow, durable=spec is None or spec.durable)
        return str(target)

    def append_event(self, table: str, folder: Sequence[str], record: Any, event_id: str | None = None,
                     system: str | None = None) -> str:
        """Human events (signatures, decisions, undos, approvals) are immutable files: nothing is overwritten.

        The file sits in `folder` (e.g. benchmark, code) and is named after the system it concerns and the
        event, so what changed for one system is known from the file names alone. Events are small JSON
        objects: thousands of them read in milliseconds, where as many Parquet files would take seconds."""
        event_id = event_id or uuid.uuid4().hex[:12]
        name = f"{encode_key(system)}{EVENT_SEPARATOR}{event_id}" if system else event_id
        arrow = _records_to_arrow(table, [record])
        require_complete(table, arrow)
        data = json.dumps(arrow.to_pylist()[0], ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        segments = [*(encode_key(k) for k in folder), f"{name}.json"]
        if self._remote is not None:
            self._remote.put_bytes(self._remote.key(table, *segments), data)
        else:
            write_bytes_atomic(self.table_dir(table).joinpath(*segments), data)
        return event_id

    def event_names(self, table: str, *folder: str) -> list[str]:
        """The event file names (without `.json`) in one event folder, sorted."""
        if self._remote is not None:
            prefix = self._remote.key(table, *(encode_key(k) for k in folder))
            return sorted(k.rsplit("/", 1)[-1].removesuffix(".json")
                          for k in self._remote.parquet_keys(prefix, ".json")
                          if k.count("/") == prefix.count("/") + 1)
        base = self.table_dir(table).joinpath(*(encode_key(k) for k in folder))
        try:
            return sorted(e.name.removesuffix(".json") for e in os.scandir(base)
                          if e.name.endswith(".json") and not e.name.startswith((".", "_")))
        except (FileNotFoundError, NotADirectoryError):
            return []

    def folders(self, table: str, *folder: str) -> list[str]:
        """Decoded names of the sub-folders of a table folder (e.g. the codes with events in a benchmark)."""
        if self._remote is not None:
            prefix = self._remote.key(table, *(encode_key(k) for k in folder))
            seen = {k[len(prefix) + 1:].split("/", 1)[0]
                    for k in self._remote.parquet_keys(prefix, "") if k[len(prefix) + 1:].count("/") >= 1}
            return sorted(decode_key(s) for s in seen)
        base = self.table_dir(table).joinpath(*(encode_key(k) for k in folder))
        try:
            return sorted(decode_key(e.name) for e in os.scandir(base) if e.is_dir())
        except (FileNotFoundError, NotADirectoryError):
            return []

    def read_events(self, table: str, *folder: str, names: Iterable[str] | None = None) -> pa.Table:
        """The events of one folder (or the given ones), as one table."""
        wanted = list(names) if names is not None else self.event_names(table, *folder)
        prefix = [encode_key(k) for k in folder]
        rows = [r for r in (self._read_event([*prefix, f"{n}.json"], table) for n in wanted) if r is not None]
        return _event_table(table, rows)

    def _read_event(self, segments: list[str], table: str) -> dict[str, Any] | None:
        if self._remote is not None:
            raw = self._remote.get_bytes(self._remote.key(table, *segments))
        else:
            try:
                raw = self.table_dir(table).joinpath(*segments).read_bytes()
            except FileNotFoundError:
                return None
        if raw is None:
            return None
        try:
            value = json.loads(raw)
        except ValueError:
            return None   # not an event Etalon wrote: the views and the engine ignore it
        return value if isinstance(value, dict) else None

    def delete(self, table: str, *key: str) -> None:
        """Remove one partition (a shard that no longer exists); absent is fine."""
        if self._remote is not None:
            with contextlib.suppress(FileNotFoundError, OSError):
                self._remote.fs.delete_file(self._remote.key(table, *_segments(key)))
            return
        with contextlib.suppress(FileNotFoundError):
            self.path(table, *key).unlink()

    def ensure_schemas(self) -> None:
        """An empty, typed file per table, so views exist (and have their columns) before the first run."""
        for table, schema in SCHEMAS.items():
            name = _schema_file(table)
            if self._remote is not None:
                target_key = self._remote.key(table, name)
                if not self._remote.exists(target_key):
                    if schema.events:
                        self._remote.put_bytes(target_key, b"")
                    else:
                        self._remote.put(target_key, schema.empty_table())
                continue
            target = self.table_dir(table) / name
            if not target.exists():
                if schema.events:
                    write_bytes_atomic(target, b"")
                else:
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
        try:
            # one small file: a single-threaded read skips the thread pool, several times faster
            return conform(table, pq.ParquetFile(target).read(use_threads=False))
        except FileNotFoundError:
            return _empty(table)
        except (pa.ArrowInvalid, OSError):
            spec = TABLES.get(table)
            if spec is not None and not spec.durable:
                return _empty(table)   # a derived partition a crash cut short: recomputed from its ledger
            raise

    def stat(self, table: str, *key: str) -> tuple[int, int] | None:
        """(mtime_ns, size) of a partition file, or None: a cheap check that a file is the one last seen."""
        if self._remote is not None:
            info = self._remote.info(self._remote.key(table, *_segments(key)))
            if info.type != pafs.FileType.File:
                return None
            return (int(info.mtime_ns or 1), int(info.size or 0))
        try:
            st = os.stat(self.path(table, *key))
        except FileNotFoundError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def files(self, table: str) -> list[str]:
        """Every partition (or event) file, local paths or keys inside the lake's filesystem, sorted."""
        ext, schema_file = _ext(table), _schema_file(table)
        if self._remote is not None:
            keys = self._remote.parquet_keys(self._remote.key(table), ext)
            return [k for k in keys if not k.endswith("/" + schema_file)]
        base = self.table_dir(table)
        if not base.exists():
            return []
        return sorted(str(p) for p in base.rglob(f"*{ext}") if p.name != schema_file and not p.name.startswith("."))

    def tables(self) -> list[str]:
        """Tables holding at least one Parquet file (their typed `_schema.parquet` counts): what views cover."""
        if self._remote is not None:
            remote = self._remote
            return [t for t in remote.folders() if not t.startswith("_")
                    and (remote.exists(remote.key(t, _schema_file(t))) or remote.parquet_keys(remote.key(t), _ext(t)))]
        if not self.root.exists():
            return []
        return [d.name for d in sorted(self.root.iterdir())
                if d.is_dir() and not d.name.startswith("_") and any(d.rglob(f"*{_ext(d.name)}"))]

    def read_all(self, table: str) -> pa.Table:
        """Every partition of a table, concatenated (schemas are declared, so they always agree)."""
        if _is_events(table):
            rows = []
            base = self._remote.key(table) if self._remote is not None else str(self.table_dir(table))
            for f in self.files(table):
                rel = f[len(base) + 1:].split("/" if self._remote is not None else os.sep)
                row = self._read_event(rel, table)
                if row is not None:
                    rows.append(row)
            return _event_table(table, rows)
        files = self.files(table)
        if not files:
            return _empty(table)
        fs = self._remote.fs if self._remote is not None else None
        if len(files) == 1:
            if fs is None:   # pq.read_table would build a dataset (and import its module): a quarter second
                return conform(table, pq.ParquetFile(files[0]).read(use_threads=False))
            return conform(table, pq.read_table(files[0], filesystem=fs))
        # Every partition is written conformed to the declared schema, plus the same extra columns.
        shapes = [pq.read_schema(files[0], filesystem=fs), pq.read_schema(files[-1], filesystem=fs)]
        if table in SCHEMAS:
            shapes.insert(0, SCHEMAS[table].schema)
        import pyarrow.dataset as ds  # only here: importing it costs a quarter second on every command

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


def _is_events(table: str) -> bool:
    spec = TABLES.get(table)
    return bool(spec is not None and spec.events)


def _ext(table: str) -> str:
    return ".json" if _is_events(table) else ".parquet"


def _schema_file(table: str) -> str:
    return "_schema.json" if _is_events(table) else _SCHEMA_FILE


def _event_table(table: str, rows: list[dict[str, Any]]) -> pa.Table:
    """Event rows as a typed table; a row that does not fit the schema (written by hand) is left out."""
    spec = TABLES[table]
    names = spec.schema.names
    plain = [{n: r.get(n) for n in names} for r in rows]
    try:
        return spec.to_arrow(plain)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
        fitting = []
        for row in plain:
            try:
                spec.to_arrow([row])
            except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
                continue
            fitting.append(row)
        return spec.to_arrow(fitting)


def _segments(key: Sequence[str]) -> list[str]:
    """A partition key as path segments: folders, then the file (an unpartitioned table is `all.parquet`)."""
    *folders, name = (encode_key(k) for k in (key or ("all",)))
    return [*folders, f"{name}.parquet"]


def _empty(table: str) -> pa.Table:
    return SCHEMAS[table].empty_table() if table in SCHEMAS else pa.table({})


def write_bytes_atomic(target: Path, data: bytes) -> None:
    """The same for a small file of bytes (an event)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_atomic(target: Path, table: pa.Table, durable: bool = True) -> None:
    """Write next to the target, then rename: readers see the old file or the new one. `durable` also flushes
    it to disk first (a power cut then cannot leave an empty file under the new name)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            pq.write_table(table, handle, compression="zstd")
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(tmp, target)
        sweep(target.parent)  # what a killed writer left here (warehouse.tmpfiles)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise

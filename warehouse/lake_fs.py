"""A lake root on a pyarrow filesystem: object stores (S3, GCS, Azure), `file://` URLs, in-memory test stores.

Object stores have no rename, but a PUT of a whole object is atomic: readers see the old object or the new one,
never a part (a multipart upload appears only when completed). So a partition is serialised to a buffer first and
put in one call, with no temporary object a crash could leave behind. Filesystems that do sit on a local disk
(`file://`, a SubTreeFileSystem over it) keep the temporary-name-and-rename step, because there a written file is
visible while it grows.

Credentials come only from the environment (AWS_* variables, the instance or pod role: pyarrow's standard chain).
A URL that carries a secret is refused without echoing it, so no secret ends up in a log, a view or a Dagster tag.
"""

from __future__ import annotations

import contextlib
import functools
import uuid
from urllib.parse import parse_qsl, urlparse

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

_SECRET_WORDS = ("key", "secret", "token", "password", "credential", "sas")


def _refuse_secrets(url: str) -> None:
    parsed = urlparse(url)
    named = [k for k, _ in parse_qsl(parsed.query) if any(w in k.lower() for w in _SECRET_WORDS)]
    if parsed.password or "@" in parsed.netloc or named:
        raise ValueError(
            f"lake URL {parsed.scheme}://{parsed.hostname or ''}/…: credentials in the URL are refused; "
            "set them in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE, an instance role)"
        )


@functools.lru_cache(maxsize=16)
def _from_uri(url: str) -> tuple[pafs.FileSystem, str]:
    """One filesystem per URL per process: a Lake is made per asset call, an S3 client should not be (the URL
    holds no secret, `_refuse_secrets` saw to that; the SDK's credential chain refreshes by itself)."""
    fs, base = pafs.FileSystem.from_uri(url)
    return fs, str(base)


def _sits_on_local_disk(fs: pafs.FileSystem) -> bool:
    while isinstance(fs, pafs.SubTreeFileSystem):
        fs = fs.base_fs
    return bool(fs.type_name == "local")


class RemoteRoot:
    """Keys are '/'-joined strings under `base`; `url` is the root as DuckDB and people name it, without query."""

    def __init__(self, fs: pafs.FileSystem, base: str, url: str) -> None:
        self.fs = fs
        self.base = base.rstrip("/")
        self.url = url.rstrip("/")
        self.renames = _sits_on_local_disk(fs)

    @classmethod
    def open(cls, root: str, filesystem: pafs.FileSystem | None = None) -> RemoteRoot:
        """A URL through `FileSystem.from_uri`, or a root inside an explicitly given filesystem."""
        _refuse_secrets(root)
        parsed = urlparse(root)
        url = f"{parsed.scheme}://{parsed.netloc}{parsed.path}" if parsed.scheme else root
        if filesystem is not None:
            base = f"{parsed.netloc}{parsed.path}" if parsed.scheme else root
            return cls(filesystem, base, url)
        fs, base = _from_uri(root)
        return cls(fs, base, url)

    def key(self, *parts: str) -> str:
        return "/".join((self.base, *parts)) if self.base else "/".join(parts)

    # -- writing -------------------------------------------------------------------------------------
    def put(self, key: str, table: pa.Table) -> None:
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink, compression="zstd")
        self.put_bytes(key, sink.getvalue())

    def put_bytes(self, key: str, data: pa.Buffer | bytes) -> None:
        """One whole object (a PUT, or a temporary name and a rename where the store sits on a local disk)."""
        data = data if isinstance(data, pa.Buffer) else pa.py_buffer(data)
        if self.renames:
            self._put_then_rename(key, data)
        else:
            self._put_once(key, data)

    def _open(self, key: str) -> pa.NativeFile:
        try:
            return self.fs.open_output_stream(key)
        except FileNotFoundError:  # stores with real folders (local disk, the mock) want the parent first
            self.fs.create_dir(key.rpartition("/")[0], recursive=True)
            return self.fs.open_output_stream(key)

    def _put_once(self, key: str, data: pa.Buffer) -> None:
        with self._open(key) as out:
            out.write(data)

    def _put_then_rename(self, key: str, data: pa.Buffer) -> None:
        folder, _, name = key.rpartition("/")
        tmp = f"{folder}/.{name}.{uuid.uuid4().hex[:12]}.tmp"
        try:
            self._put_once(tmp, data)
            self.fs.move(tmp, key)
        except BaseException:
            with contextlib.suppress(OSError):
                self.fs.delete_file(tmp)
            raise

    # -- reading -------------------------------------------------------------------------------------
    def read(self, key: str) -> pa.Table | None:
        """One GET; a missing object is None (no separate existence check: that would be a second request)."""
        try:
            return pq.read_table(key, filesystem=self.fs)
        except FileNotFoundError:
            return None

    def get_bytes(self, key: str) -> bytes | None:
        try:
            with self.fs.open_input_stream(key) as handle:
                return bytes(handle.read())
        except FileNotFoundError:
            return None

    def info(self, key: str) -> pafs.FileInfo:
        return self.fs.get_file_info(key)

    def exists(self, key: str) -> bool:
        return bool(self.info(key).type == pafs.FileType.File)

    def modified_ns(self, key: str) -> int:
        info = self.info(key)
        if info.type != pafs.FileType.File:
            return 0
        return int(info.mtime_ns) if info.mtime_ns is not None else 1  # S3 gives whole seconds

    def parquet_keys(self, prefix: str, suffix: str = ".parquet") -> list[str]:
        """Every key under the prefix ending in `suffix`, in one recursive LIST (paged by the store, ~1,000 per
        call)."""
        selector = pafs.FileSelector(prefix, recursive=True, allow_not_found=True)
        return sorted(
            i.path for i in self.fs.get_file_info(selector)
            if i.type == pafs.FileType.File and i.base_name.endswith(suffix) and not i.base_name.startswith(".")
        )

    def folders(self) -> list[str]:
        """The root's immediate folders (on object stores: the common prefixes of one delimited LIST)."""
        selector = pafs.FileSelector(self.base, recursive=False, allow_not_found=True)
        return sorted(i.base_name for i in self.fs.get_file_info(selector) if i.type == pafs.FileType.Directory)

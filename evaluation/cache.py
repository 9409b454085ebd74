"""A call cache: one small JSON file per successful model call, keyed by the full request.

A paid call must never be repeated: a killed run resumes from what is on disk, and re-materialising an
asset finds every answer and judgment already stored. The key covers everything that can change the
response (endpoint, model, messages, parameters, attempt or judge run, response schema) and never the key.
Errors are not stored, so a rerun retries them. Files are written atomically, so a kill mid-write leaves
either the old state or the new file, never half a response.

Two processes (two `etalon update` at once, or a run and a demo) must not pay for the same request twice,
so a call is made under an in-flight marker: `<key>.inflight` beside the entry, held with an exclusive
`flock` for as long as the call lasts. A second process that wants the same key waits for the lock, then
finds the first one's result in the cache. The lock belongs to the open file, so the kernel drops it when
its holder dies, even by kill -9: a marker left behind is only a file, and the next claimant takes it over.
The holder's pid, host and start time are written into the marker so that a wait can say whom it waits for.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import socket
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

_POLL_S = (0.02, 0.05, 0.1, 0.2)  # waiting for a marker: quick at first, then every 0.2 s


def request_key(request: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of the request."""
    raw = json.dumps(request, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


class InFlightTimeout(Exception):
    """Another live process has held a call's marker for longer than the caller would wait."""

    def __init__(self, key: str, holder: Mapping[str, Any] | None, waited_s: float) -> None:
        who = (f"pid {holder.get('pid')} on {holder.get('host')}" if holder else "another process")
        super().__init__(f"{who} has been making this call for over {waited_s:.0f} s; "
                         "not paying for it twice (run again once it has finished)")
        self.key = key
        self.holder = holder


class CallCache:
    """Files live at `<root>/<key[:2]>/<key>.json`; the two-letter fan-out keeps folders small."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def marker(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.inflight"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            data = json.loads(self.path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # absent or unreadable: treat as a miss, the call is made again
        return data if isinstance(data, dict) else None

    def put(self, key: str, entry: Mapping[str, Any]) -> None:
        target = self.path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(entry, fh, ensure_ascii=False)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def forget(self, key: str) -> None:
        """Drop a stored entry (one that turned out unusable), so the next run asks again."""
        self.path(key).unlink(missing_ok=True)

    def holder(self, key: str) -> dict[str, Any] | None:
        """Who wrote the marker of `key` (pid, host, since), if anyone; for messages only."""
        try:
            data = json.loads(self.marker(key).read_text(encoding="utf-8") or "null")
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    @contextlib.contextmanager
    def claim(self, key: str, *, patience_s: float,
              sleep: Callable[[float], None] = time.sleep) -> Iterator[None]:
        """Hold the in-flight marker of `key` for the duration of the block.

        Waits while another process (or thread) holds it; raises InFlightTimeout after `patience_s`. The
        caller must look in the cache again once inside: the holder it waited for may have stored the call.
        """
        path = self.marker(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        polls = 0
        while True:
            fd = _lock(path)
            if fd is not None:
                break
            waited = time.monotonic() - started
            if waited >= patience_s:
                raise InFlightTimeout(key, self.holder(key), waited)
            sleep(_POLL_S[min(polls, len(_POLL_S) - 1)])
            polls += 1
        try:
            stamp = {"pid": os.getpid(), "host": socket.gethostname(),
                     "since": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(stamp).encode("utf-8"), 0)
            yield
        finally:
            # Unlink while still holding the lock: a claimant that opened the old file sees the inode change.
            path.unlink(missing_ok=True)
            os.close(fd)

    def __len__(self) -> int:
        if not self.root.exists():
            return 0
        return sum(1 for p in self.root.glob("*/*.json") if not p.name.startswith("."))  # skip temp files


def _lock(path: Path) -> int | None:
    """An fd holding the exclusive lock of the marker at `path`, or None when someone else holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    try:
        same = os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        same = False
    if not same:  # the previous holder unlinked it after we opened it: our lock guards nothing
        os.close(fd)
        return None
    return fd

"""Temporary files of atomic writes, and the cleaning of those a killed writer left behind.

Every atomic write goes through a hidden temporary beside its target (`.<name>.<random>.tmp`, then fsync and
rename). A writer killed between the two leaves the temporary for good: readers never match it, but nothing
else removes it either. `clean_stale` removes those that are stale: last modified longer ago than a write
takes, and not held by a live writer. A writer that opens its temporary with `temporary()` holds an advisory
lock on it until the rename, released by the kernel when the process dies however it dies (kill -9
included), so a live writer's file is never taken from under it, however slow; a writer that does not lock
is protected by the age alone.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows: the age alone decides there
    fcntl = None  # type: ignore[assignment]

STALE_AFTER_S = 3600.0  # far longer than any single write takes (the largest corpus partition: seconds)
_last_swept: dict[str, float] = {}


def is_temporary(name: str) -> bool:
    """The names atomic writers give their temporaries: hidden, ending in `.tmp`."""
    return name.startswith(".") and name.endswith(".tmp")


def clean_stale(folder: Path, older_than: float = STALE_AFTER_S) -> list[Path]:
    """Remove the temporaries directly in `folder` unchanged for `older_than` seconds and not held by a live
    writer; returns what was removed. A folder that does not exist, or a file that vanishes meanwhile (its
    writer renamed it, or another cleaner got there first), is not an error."""
    removed: list[Path] = []
    cutoff = time.time() - older_than
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return removed
    for entry in entries:
        if not is_temporary(entry.name):
            continue
        try:
            if not entry.is_file(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_mtime > cutoff:
                continue
            if held(Path(entry.path)):
                continue
            os.unlink(entry.path)
        except FileNotFoundError:
            continue
        removed.append(Path(entry.path))
    return removed


def sweep(folder: Path, older_than: float = STALE_AFTER_S) -> list[Path]:
    """`clean_stale`, at most once per folder per half `older_than` in this process: for hot write paths, which
    write the same folder thousands of times a run and need not list it each time."""
    key = str(folder)
    now = time.monotonic()
    if now - _last_swept.get(key, -older_than) < older_than / 2:
        return []
    _last_swept[key] = now
    return clean_stale(folder, older_than)


def held(path: Path) -> bool:
    """Whether a live process holds the writer's lock on `path` (see `temporary`)."""
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # closing releases a lock this probe took
    return False


@contextlib.contextmanager
def temporary(target: Path) -> Iterator[tuple[IO[bytes], Path]]:
    """A locked temporary beside `target`: write it, flush it, then `os.replace(tmp, target)` inside the block.

    The lock is held until the block ends, rename included, so `clean_stale` never removes it from a live
    writer; on any exception the temporary is removed."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    tmp = Path(name)
    handle = os.fdopen(fd, "wb")
    try:
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield handle, tmp
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        handle.close()

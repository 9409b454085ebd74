"""Writing the report folder whole or not at all.

The folder is built beside the old one under a temporary name, then swapped in: on Linux with one
renameat2(RENAME_EXCHANGE), so `report/` always exists and is always one complete build; elsewhere with two
renames, where for an instant there is no folder, never a half-written one. A reader who opened the old
index.html keeps a consistent old folder open until the swap, and the new one after.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
_STALE_S = 3600.0


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically where the kernel and libc can (Linux >= 3.15, glibc >= 2.28)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    done = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return bool(done == 0)


def _leftovers(parent: Path, name: str) -> None:
    """Folders an interrupted build left behind (older than an hour, so never a build under way)."""
    for path in parent.glob(f".{name}.*"):
        try:
            if path.is_dir() and time.time() - path.stat().st_mtime > _STALE_S:
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            continue


def write_site(folder: Path, files: Mapping[str, str]) -> Path:
    """Write `files` (relative path -> text) as the whole content of `folder`, atomically."""
    for relative in files:
        if Path(relative).is_absolute() or ".." in Path(relative).parts:
            raise ValueError(f"a report file must stay inside the folder: {relative!r}")
    folder.parent.mkdir(parents=True, exist_ok=True)
    _leftovers(folder.parent, folder.name)
    build = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".new", dir=folder.parent))
    try:
        for relative, content in files.items():
            target = build / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8")
        for path in [build, *build.rglob("*")]:
            os.chmod(path, 0o755 if path.is_dir() else 0o644)  # mkdtemp makes 0700; the report is for all
        if not folder.exists():
            os.rename(build, folder)
            return folder
        if _exchange(build, folder):
            shutil.rmtree(build, ignore_errors=True)  # now holds the old report
            return folder
        old = folder.with_name(f".{folder.name}.{os.getpid()}.old")
        os.rename(folder, old)
        os.rename(build, folder)
        shutil.rmtree(old, ignore_errors=True)
        return folder
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise

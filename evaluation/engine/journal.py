"""The journal of materialisations made outside a Dagster run, for Dagster to record.

A human act re-scores its cells in well under a second; importing Dagster alone takes two. So the act writes
what it materialised here (one small JSON file, atomically) and a detached process records it in the Dagster
instance as runless events; the next `etalon update` (or the sensor under `dagster dev`) records whatever a
killed or skipped flush left. Nothing is lost: an entry is removed only after Dagster stored it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from warehouse.home import Home

FLUSH_MODULE = "pipelines.journal"


def folder(home: Home) -> Path:
    return home.root / "state" / "journal"


def append(home: Home, consequence: Any) -> Path | None:
    """Write one entry for what an act materialised, then make sure a flusher will record it."""
    events: list[dict[str, Any]] = []
    observations: list[dict[str, Any]] = []
    for result in consequence.results:
        # A recomputed benchmark-wide partition is recorded even when its output came out the same: Dagster
        # compares its provenance with the parents' newer versions.
        if not (result.recomputed or result.output_changed or result.stage in ("signatures", "analytics", "report")):
            continue
        if result.stage == "scores":
            observations.append({"input": "reviews", "partition": result.partition,
                                 "data_version": result.entry.input_digest})
        events.append({"stage": result.stage, "partition": result.partition,
                       "data_version": result.entry.output_digest,
                       "metadata": {"cells": result.entry.cells, "rows_recomputed": len(result.recomputed),
                                    **{k: v for k, v in result.entry.meta.items()
                                       if isinstance(v, (int, float, str))}}})
    for benchmark, system in consequence.leaderboards:
        events.append({"stage": "leaderboard", "partition": benchmark, "data_version": None,
                       "metadata": {"refreshed_system": system}})
    if not events and not observations:
        return None
    target = folder(home)
    target.mkdir(parents=True, exist_ok=True)
    name = f"{_stamp()}-{uuid.uuid4().hex[:8]}.json"
    tmp = target / f".{name}.tmp"
    tmp.write_text(json.dumps({"observations": observations, "events": events}, ensure_ascii=False),
                   encoding="utf-8")
    os.replace(tmp, target / name)
    spawn_flush(home)
    return target / name


def pending(home: Home) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Entries not yet recorded, oldest first; an unreadable one is skipped (and left for a person to see)."""
    target = folder(home)
    if not target.is_dir():
        return
    for path in sorted(p for p in target.iterdir() if p.suffix == ".json" and not p.name.startswith(".")):
        try:
            yield path, json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue


def spawn_flush(home: Home) -> None:
    """Start a detached flusher unless one is running (its lock is held) or flushing is turned off."""
    if os.environ.get("ETALON_JOURNAL_FLUSH", "spawn") != "spawn":
        return
    import fcntl

    lock = folder(home) / ".flush.lock"
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return   # a flusher is running; it looks at the folder again before it stops
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)
    env = {**os.environ, "ETALON_HOME": str(home.root)}
    subprocess.Popen([sys.executable, "-m", FLUSH_MODULE, str(home.root)], env=env, stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                     close_fds=True)


def _stamp() -> str:
    from datetime import UTC, datetime

    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")

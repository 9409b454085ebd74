"""Recording the journal of human acts in the Dagster instance (see evaluation.engine.journal).

`python -m pipelines.journal HOME` is the detached flusher an act starts; `etalon update` and the reconcile
sensor call `flush` too, so an entry a killed flusher left is recorded by the next of them. The flusher also
completes what the acts left stale (a benchmark's pairs, agreement, slices and the report), so a few seconds
after a decision the warehouse and Dagster are whole again without an update.
"""

from __future__ import annotations

import fcntl
import os
import sys
import time
from typing import Any

from dagster import AssetKey, DagsterInstance

from evaluation.engine.journal import folder, pending
from pipelines.events import Record, observe, runless
from pipelines.plans import STAGE_ASSETS
from warehouse.home import Home, resolve_home

LEADERBOARD = ("leaderboard", "leaderboard_indicative")   # the fast path refreshes these tables only


def flush(instance: DagsterInstance, home: Home, touched: set[str] | None = None) -> int:
    """Record every pending entry, oldest first; each is removed only once stored. Returns how many, and adds
    to `touched` the benchmarks whose leaderboard an act refreshed."""
    entries = list(pending(home))
    if not entries:
        return 0
    from pipelines.definitions import defs

    graph = defs.resolve_asset_graph()
    # Twenty acts on one partition are one change to record: the last version of each input and asset partition.
    observations: dict[tuple[str, str], str] = {}
    events: dict[tuple[str, str], dict[str, Any]] = {}
    for _, entry in entries:
        for item in entry.get("observations", []):
            observations[(item["input"], item["partition"])] = item["data_version"]
        for item in entry.get("events", []):
            stage = item["stage"]
            if stage == "leaderboard" and touched is not None:
                touched.add(item["partition"])
            for name in LEADERBOARD if stage == "leaderboard" else STAGE_ASSETS.get(stage, ()):
                events[(name, item["partition"])] = item
    for (name, partition), version in observations.items():
        observe(instance, AssetKey(name), {partition: version})
    for (name, partition), item in events.items():
        key = AssetKey(name)
        version = item.get("data_version") or _latest(instance, key, partition)
        runless(instance, graph, key, [Record(partition, version, item.get("metadata") or {})])
    for path, _ in entries:
        path.unlink(missing_ok=True)
    return len(entries)


def _latest(instance: DagsterInstance, key: AssetKey, partition: str) -> str:
    """A leaderboard refreshed for one system keeps the benchmark's data version plus a mark of the refresh."""
    from pipelines.dagster_internals import DATA_VERSION_TAG

    record = instance.get_latest_data_version_record(key, False, partition)
    tags = (record.event_log_entry.tags or {}) if record is not None else {}
    return f"{tags.get(DATA_VERSION_TAG, 'none')}+{int(time.time())}"


def main(argv: list[str]) -> int:
    home = resolve_home(argv[1] if len(argv) > 1 else None)
    lock = folder(home) / ".flush.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return 0   # another flusher holds it and will see this entry
    from pipelines.instance import instance_for

    instance = instance_for(home)
    touched: set[str] = set()
    while flush(instance, home, touched) or touched:
        settle(home, touched)
        touched.clear()
    return 0


def settle(home: Home, benchmarks: set[str]) -> None:
    """The analytics and the report the acts left stale, recomputed and journalled (the loop records them)."""
    from evaluation.engine import humans
    from evaluation.engine.journal import append
    from evaluation.engine.world import World

    if benchmarks:
        append(home, humans.settle(World.open(home), benchmarks))


if __name__ == "__main__":
    sys.exit(main(sys.argv))

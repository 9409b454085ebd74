"""What the engine knows it computed: the per-row ledger and the per-partition index.

The ledger (one file per stage and partition) says, for every row, the hash of everything it was computed from;
it is the authority. The index (one small file for the whole warehouse) repeats, per stage and partition, the
digest of those inputs and outputs plus the ledger file's size and time, so that planning an update reads one
file instead of thousands. An index entry counts only while its ledger file is the one it describes: after a
killed run, a lost index or an older Etalon, the planner falls back to "not known", which means "recompute" —
never "up to date".

Writers of one partition are serialised by an advisory lock (`fcntl.flock`, released by the kernel when a
process dies, so a kill -9 never leaves a partition locked).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from warehouse.lake import Lake
from warehouse.tables import LedgerRow

INDEX_VERSION = 1


@dataclass(frozen=True)
class Entry:
    """One stage partition as last computed."""

    stage: str
    partition: str
    input_digest: str
    output_digest: str
    corpus_version: str | None = None
    touch_digest: str | None = None
    ledger_stat: tuple[int, int] | None = None
    rows: int = 0
    cells: int = 0
    errors: int = 0
    retry: bool = False
    computed_at: str = ""
    meta: Mapping[str, Any] = field(default_factory=dict)


class Locks:
    """Advisory file locks under $ETALON_HOME/locks, one per name."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @contextlib.contextmanager
    def hold(self, name: str) -> Iterator[None]:
        self.root.mkdir(parents=True, exist_ok=True)
        safe = hashlib.sha256(name.encode("utf-8")).hexdigest()[:24]
        fd = os.open(self.root / f"{safe}.lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)


def read_ledger(lake: Lake, stage: str, key: tuple[str, ...]) -> dict[tuple[str, str, int], LedgerRow]:
    table = lake.read("ledger", stage, *key)
    if not table.num_rows:
        return {}
    out = {}
    for row in table.select(list(_LEDGER_FIELDS)).to_pylist():
        record = LedgerRow(**row)
        out[(record.code, record.version, record.attempt)] = record
    return out


_LEDGER_FIELDS = tuple(LedgerRow.__dataclass_fields__)


def write_ledger(lake: Lake, stage: str, key: tuple[str, ...], rows: Iterable[LedgerRow]) -> tuple[int, int] | None:
    ordered = sorted(rows, key=lambda r: (r.code, r.version, r.attempt))
    lake.write("ledger", (stage, *key), ordered)
    return lake.stat("ledger", stage, *key)


class Index:
    """The per-partition summary, one file at $ETALON_HOME/state/index.json (rewritten atomically under a lock)."""

    def __init__(self, root: Path, locks: Locks) -> None:
        self.path = root / "index.json"
        self.locks = locks
        self._entries: dict[tuple[str, str], Entry] | None = None
        self._pending: dict[tuple[str, str], Entry] = {}
        self._dropped: set[tuple[str, str]] = set()
        self._seen: tuple[int, int] | None = None

    def _stat(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def _load(self) -> dict[tuple[str, str], Entry]:
        self._seen = self._stat()
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("version") != INDEX_VERSION:
            return {}
        out = {}
        for raw in data.get("entries", []):
            stat = raw.get("ledger_stat")
            entry = Entry(**{**raw, "ledger_stat": tuple(stat) if stat else None})
            out[(entry.stage, entry.partition)] = entry
        return out

    @property
    def entries(self) -> dict[tuple[str, str], Entry]:
        if self._entries is None:
            self._entries = self._load()
        return self._entries

    def get(self, stage: str, partition: str) -> Entry | None:
        return self.entries.get((stage, partition))

    def reload(self) -> None:
        self._entries = None

    def put(self, entries: Iterable[Entry], drop: Iterable[tuple[str, str]] = ()) -> None:
        """Record entries (seen at once by this process); `flush` makes them last. A run killed before the flush
        loses only the summary: the ledgers still say what is current, and the next plan finds it out."""
        for entry in entries:
            key = (entry.stage, entry.partition)
            self.entries[key] = entry
            self._pending[key] = entry
            self._dropped.discard(key)
        for key in drop:
            self.entries.pop(key, None)
            self._pending.pop(key, None)
            self._dropped.add(key)

    def flush(self) -> None:
        """Merge what this process recorded into the file as it is now (others may have written meanwhile)."""
        if not self._pending and not self._dropped:
            return
        with self.locks.hold("index"):
            # Another process may have written since this one read the file: merge into what is there now.
            current = self._load() if self._entries is None or self._stat() != self._seen else dict(self._entries)
            for key in self._dropped:
                current.pop(key, None)
            current.update(self._pending)
            self._save(current)
            self._entries = current
            self._seen = self._stat()
        self._pending, self._dropped = {}, set()

    def _save(self, entries: Mapping[tuple[str, str], Entry]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        body = {"version": INDEX_VERSION,
                "entries": [asdict(e) for _, e in sorted(entries.items())]}
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(body, handle, ensure_ascii=False, separators=(",", ":"))
        os.replace(tmp, self.path)   # no fsync: the index is a summary the ledgers can always rebuild


def valid(entry: Entry | None, lake: Lake, stage: str, key: tuple[str, ...]) -> Entry | None:
    """The entry when its ledger file is still the one it describes; else None (unknown: recompute)."""
    if entry is None:
        return None
    if entry.ledger_stat is None:
        return entry if lake.stat("ledger", stage, *key) is None else None
    return entry if lake.stat("ledger", stage, *key) == tuple(entry.ledger_stat) else None



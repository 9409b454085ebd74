"""Everything the engine reads, gathered lazily and at most once per run.

Stages never read each other's inputs directly: the etalons stage alone reads the etalon files, the answers
stage alone reads systems.yaml's endpoints and the imported answers, the sources and citations stages alone
read the corpus. Every later stage reads what an earlier stage stored in the lake, so a stage can be re-run on
its own (by the fast paths, by Dagster, by `etalon evaluate`) and gives what a full run would.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from etalons.benchmark import scoring_overrides
from etalons.model import Etalon
from evaluation.engine.corpus_view import CorpusView
from evaluation.engine.keys import DEFAULT_SHARDS, Part, Shard, digest, shard_index
from evaluation.engine.state import Index, Locks, read_ledger
from evaluation.systems import JudgeConfig, SystemConfig, SystemsConfigError, SystemsFile, load_systems
from warehouse.home import Home
from warehouse.lake import EVENT_SEPARATOR, Lake, decode_key
from warehouse.tables import EtalonVersionRow, LedgerRow


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class Settings:
    """A benchmark's stored settings: what its etalons are scored with and how it is partitioned."""

    id: str
    methodology: str
    shards: int
    raw: dict[str, Any]

    def overrides(self, methodology: str) -> dict[str, Any]:
        return scoring_overrides(self.raw, methodology)

    def scoring_hash(self, methodology: str) -> str:
        return digest(self.overrides(methodology))


@dataclass
class World:
    """One run's view of the warehouse and its inputs."""

    home: Home
    lake: Lake
    locks: Locks
    index: Index
    at: str = field(default_factory=now)
    problems: list[str] = field(default_factory=list)
    _etalon_rows: dict[Shard, list[EtalonVersionRow]] = field(default_factory=dict)

    @classmethod
    def open(cls, home: Home, lake: Lake | None = None) -> World:
        locks = Locks(home.root / "locks")
        return cls(home=home, lake=lake or Lake(home.lake), locks=locks, index=Index(home.root / "state", locks))

    # -- systems and the judge ---------------------------------------------------------------------------
    @cached_property
    def systems(self) -> SystemsFile:
        if not self.home.systems_file.exists():
            return SystemsFile()
        try:
            return load_systems(self.home.systems_file)
        except SystemsConfigError as exc:
            self.problems.append(str(exc))
            return SystemsFile()

    def system(self, system_id: str) -> SystemConfig | None:
        return next((s for s in self.systems.systems if s.id == system_id), None)

    @property
    def judge(self) -> JudgeConfig | None:
        return self.systems.judge

    @cached_property
    def client(self) -> Any:
        from evaluation.client import ModelClient

        return ModelClient(cache_root=self.home.calls_cache)

    # -- the corpus --------------------------------------------------------------------------------------
    @cached_property
    def corpus(self) -> CorpusView:
        return CorpusView.from_lake(self.lake)

    # -- the etalon files (read by the etalons stage and the input observer only) ------------------------
    @cached_property
    def loaded(self) -> Any:
        """Every benchmark and etalon file, loaded; files seen before are validated from their stored content,
        and a folder unchanged since this process last loaded it (names, sizes, times) is not read again."""
        from etalons.loader import load_benchmarks

        listing = _listing(self.home.etalons_dir)
        cached = _LOADED.get(str(self.home.etalons_dir))
        if cached is not None and cached[0] == listing:
            return cached[1]
        memo_path = self.home.root / "state" / "etalon_files.json"
        memo = _read_memo(memo_path)
        before = dict(memo)
        result = load_benchmarks(self.home.etalons_dir, memo=memo)
        used = {k: v for k, v in memo.items()
                if any(k.startswith(f"{e.file_hash}|{e.file}|") for e in result.etalons)}
        if used != before:
            _write_memo(memo_path, used)
        _LOADED[str(self.home.etalons_dir)] = (listing, result)
        return result

    def file_shards(self) -> list[Shard]:
        """The shards the benchmark files define now (every bucket of every loaded benchmark)."""
        return sorted(Shard(b.id, f"{i:02d}") for b in self.loaded.benchmarks for i in range(b.shards))

    # -- benchmarks and etalons as stored by the etalons stage -------------------------------------------
    @cached_property
    def settings(self) -> dict[str, Settings]:
        out = {}
        for row in self.lake.read_all("benchmarks").to_pylist():
            raw = json.loads(row["settings"] or "{}") if row.get("settings") else {}
            out[row["id"]] = Settings(row["id"], row["methodology"], int(row.get("shards") or DEFAULT_SHARDS), raw)
        return out

    def stored_shards(self) -> list[Shard]:
        """Every shard the etalons stage has written (current layout), in key order."""
        found = []
        for benchmark in self.lake.folders("etalon_versions"):
            for name in self._shard_files(benchmark):
                found.append(Shard(benchmark, name))
        return sorted(found)

    def _shard_files(self, benchmark: str) -> list[str]:
        names = []
        if self.lake.is_local:
            folder = self.lake.table_dir("etalon_versions") / _segment(benchmark)
            if folder.is_dir():
                names = sorted(p.name.removesuffix(".parquet") for p in folder.iterdir()
                               if p.name.endswith(".parquet") and not p.name.startswith("."))
        else:
            names = [n for n in self.lake.event_names("etalon_versions", benchmark)]
        return names

    def etalon_rows(self, shard: Shard) -> list[EtalonVersionRow]:
        """Every stored version of every etalon of the shard."""
        if shard not in self._etalon_rows:
            table = self.lake.read("etalon_versions", *shard.lake_key())
            names = list(EtalonVersionRow.__dataclass_fields__)
            self._etalon_rows[shard] = [EtalonVersionRow(**{k: r.get(k) for k in names})
                                        for r in table.to_pylist()]
        return self._etalon_rows[shard]

    def forget_etalons(self, shard: Shard) -> None:
        self._etalon_rows.pop(shard, None)

    def current_etalons(self, shard: Shard) -> list[tuple[EtalonVersionRow, Etalon]]:
        """The current version of every etalon of the shard that is not archived, with its model."""
        key = ("current", shard)
        cache: dict[Any, Any] = self.__dict__.setdefault("_current_cache", {})
        if key not in cache:
            rows = [r for r in self.etalon_rows(shard) if r.is_current and not r.archived]
            cache[key] = [(r, Etalon.model_validate(json.loads(r.content))) for r in sorted(rows, key=lambda r: r.code)]
        found: list[tuple[EtalonVersionRow, Etalon]] = cache[key]
        return found

    def written(self, tables: Iterable[str], partition: str) -> None:
        """A stage rewrote these tables of a partition: forget what this run had read of them."""
        if "etalon_versions" in tables:
            self.forget_current(Shard.parse(partition))

    def forget_current(self, shard: Shard) -> None:
        self.__dict__.get("_current_cache", {}).pop(("current", shard), None)
        self.forget_etalons(shard)

    def parts(self, shards: Iterable[Shard] | None = None) -> list[Part]:
        """The cell partitions that exist now: every stored shard with every configured system."""
        chosen = list(shards) if shards is not None else self.stored_shards()
        return sorted(Part(s, sys.id) for s in chosen for sys in self.systems.systems)

    # -- ledgers (read once per run, kept current by the writes of this run) ------------------------------
    def ledger(self, stage: str, key: tuple[str, ...]) -> dict[tuple[str, str, int], LedgerRow]:
        cache: dict[tuple[str, tuple[str, ...]], dict[tuple[str, str, int], LedgerRow]] = \
            self.__dict__.setdefault("_ledgers", {})
        if (stage, key) not in cache:
            cache[(stage, key)] = read_ledger(self.lake, stage, key)
        return cache[(stage, key)]

    def remember_ledger(self, stage: str, key: tuple[str, ...], rows: dict[tuple[str, str, int], LedgerRow]) -> None:
        self.__dict__.setdefault("_ledgers", {})[(stage, key)] = dict(rows)

    # -- human events ------------------------------------------------------------------------------------
    def event_names(self, table: str, benchmark: str, code: str) -> list[str]:
        return self.lake.event_names(table, benchmark, code)

    def human_names(self, benchmark: str, codes: Iterable[str], system: str) -> dict[str, list[str]]:
        """Per code: the names of the decision, audit label, undo and approval events that concern `system`."""
        prefix = f"{_segment(system)}{EVENT_SEPARATOR}"
        wanted = set(codes)
        out: dict[str, list[str]] = defaultdict(list)
        for table in ("decisions", "audits", "revocations", "approvals"):
            for code in self._codes_with_events(table, benchmark) & wanted:
                found = [f"{table}/{n}" for n in self.event_names(table, benchmark, code) if n.startswith(prefix)]
                if found:   # another system's first event on the code changes nothing here
                    out[code].extend(found)
        return dict(out)

    def _codes_with_events(self, table: str, benchmark: str) -> set[str]:
        cache: dict[Any, Any] = self.__dict__.setdefault("_event_codes", {})
        key = (table, benchmark)
        if key not in cache:
            cache[key] = set(self.lake.folders(table, benchmark))
        found: set[str] = cache[key]
        return found

    def forget_events(self) -> None:
        self.__dict__.pop("_event_codes", None)


_LOADED: dict[str, tuple[tuple[Any, ...], Any]] = {}


def _listing(root: Any) -> tuple[Any, ...]:
    """What a load of the etalons folder depends on: every benchmark folder's files, sizes and times."""
    import os

    out: list[Any] = []
    try:
        folders = [e for e in os.scandir(root) if e.is_dir() and not e.name.startswith((".", "_"))]
    except (FileNotFoundError, NotADirectoryError):
        return ()
    for folder in sorted(folders, key=lambda e: e.name):
        for entry in sorted(os.scandir(folder.path), key=lambda e: e.name):
            if entry.name.endswith(".yaml"):
                st = entry.stat()
                out.append((folder.name, entry.name, st.st_size, st.st_mtime_ns))
    return tuple(out)


def _read_memo(path: Any) -> dict[str, Any]:
    from evaluation.version import code_version

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("code") != code_version():
        return {}   # another version of Etalon may load files differently: parse them again
    entries = data.get("entries")
    return dict(entries) if isinstance(entries, dict) else {}


def _write_memo(path: Any, entries: dict[str, Any]) -> None:
    import os

    from evaluation.version import code_version

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"code": code_version(), "entries": entries}, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


def _segment(name: str) -> str:
    from warehouse.lake import encode_key

    return encode_key(name)


def assigned_shard(benchmark: str, code: str, shards: int) -> Shard:
    return Shard(benchmark, shard_index(code, shards))


__all__ = ["Settings", "World", "assigned_shard", "decode_key", "now"]

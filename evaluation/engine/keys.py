"""Partition keys of the engine: benchmark shards, shard x system partitions, and content hashes.

An etalon's shard is a stable hash bucket of its code, so a new etalon never moves an old one; a benchmark
has a fixed number of shards (`shards:` in benchmark.yaml). Cell tables keep one file per shard and system,
holding the cells (etalon version x system x attempt) as rows: the partition count is shards x systems, not
etalons x systems.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from dataclasses import dataclass
from typing import Any

DEFAULT_SHARDS = 1


def shard_index(code: str, shards: int) -> str:
    """The code's bucket, two digits: crc32 is stable across processes and Python versions."""
    return f"{zlib.crc32(code.encode('utf-8')) % max(1, shards):02d}"


@dataclass(frozen=True, order=True)
class Shard:
    benchmark: str
    index: str

    @property
    def key(self) -> str:
        """The Dagster partition key: 'benchmark/NN'."""
        return f"{self.benchmark}/{self.index}"

    @classmethod
    def parse(cls, key: str) -> Shard:
        benchmark, _, index = key.rpartition("/")
        if not benchmark or not index:
            raise ValueError(f"not a shard key: {key!r} (expected 'benchmark/NN')")
        return cls(benchmark, index)

    def lake_key(self) -> tuple[str, str]:
        return (self.benchmark, self.index)


@dataclass(frozen=True, order=True)
class Part:
    """One partition of the cell tables: a benchmark shard and a system."""

    shard: Shard
    system: str

    @property
    def key(self) -> str:
        """The Dagster multi-partition key ('shard|system': dimensions in name order)."""
        return f"{self.shard.key}|{self.system}"

    @classmethod
    def parse(cls, key: str) -> Part:
        shard, _, system = key.partition("|")
        return cls(Shard.parse(shard), system)

    @property
    def benchmark(self) -> str:
        return self.shard.benchmark

    def lake_key(self) -> tuple[str, str, str]:
        return (self.shard.benchmark, self.shard.index, self.system)


def digest(*parts: Any) -> str:
    """A content hash of JSON-able parts (16 hex characters): equal inputs, equal hash, in any process."""
    raw = json.dumps(parts, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:16]

"""The analysts' tables, one partition per benchmark: leaderboard, slices, paired comparisons, judge agreement,
pass@k, calibration, and the audit of the judge (its sample, the corrected leaderboard, the judge's error).

They are computed over the benchmark's current cells only: the current version of every etalon that is not
archived, answered by a system that is still configured; `indicative` marks cells whose etalon version is not
signed (by a verified signature), which the main leaderboard columns leave out. A benchmark's tables are rebuilt
when any of its score partitions, its etalons, its signatures or the set of systems changed; the fast path of
a human decision rewrites only the leaderboard rows of the system it concerns.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from evaluation.engine import code as stage_code
from evaluation.engine.keys import Part, Shard, digest
from evaluation.engine.stages.base import Result, upstream_output
from evaluation.engine.state import Entry
from evaluation.engine.world import World

if TYPE_CHECKING:
    import polars as pl

VERSION = stage_code.version("analytics", "analytics-3")
TABLES = ("leaderboard", "leaderboard_indicative", "slices", "paired", "judge_agreement", "judge_disagreements",
          "pass_at_k", "calibration", "leaderboard_corrected", "judge_error", "audit_sample", "audit_items")


def shards_of(world: World, benchmark: str) -> list[Shard]:
    return [s for s in world.stored_shards() if s.benchmark == benchmark]


def benchmark_frames(world: World, benchmark: str, systems: Iterable[str] | None = None,
                     scores_only: bool = False) -> dict[str, pl.DataFrame]:
    """The current scores (with `indicative`), judgments and decisions of a benchmark, as polars frames."""

    configured = {s.id for s in world.systems.systems}
    wanted = configured if systems is None else configured & set(systems)
    signed = {(r["code"], r["version"]) for r in world.lake.read("signature_ledger", benchmark).to_pylist()}
    scores: list[dict[str, Any]] = []
    judgments: list[dict[str, Any]] = []
    for shard in shards_of(world, benchmark):
        current = {(r.code, r.version) for r, _ in world.current_etalons(shard)}
        for system in sorted(wanted):
            key = Part(shard, system).lake_key()
            for r in world.lake.read("scores", *key).to_pylist():
                if (r["code"], r["version"]) in current:
                    r["indicative"] = (r["code"], r["version"]) not in signed
                    scores.append(r)
            if not scores_only:
                judgments.extend(j for j in world.lake.read("judgments", *key).to_pylist()
                                 if (j["code"], j["version"]) in current)
    if scores_only:
        return {"scores": _frame(scores, "scores")}
    decisions = _decisions(world, benchmark)
    return {"scores": _frame(scores, "scores"), "judgments": _frame(judgments, "judgments"),
            "decisions": decisions}


def _frame(rows: list[dict[str, Any]], table: str) -> pl.DataFrame:
    import polars as pl

    from warehouse.tables import TABLES as RECORDS

    if rows:
        return pl.DataFrame(rows, infer_schema_length=None)
    schema = RECORDS[table].schema
    frame = pl.from_arrow(schema.empty_table())
    assert isinstance(frame, pl.DataFrame)
    return frame.with_columns(pl.lit(None, dtype=pl.Boolean).alias("indicative")) if table == "scores" else frame


def _decisions(world: World, benchmark: str) -> pl.DataFrame:
    import polars as pl

    rows = []
    for code in world.lake.folders("decisions", benchmark):
        undone = {r["decision_id"]: r for r in world.lake.read_events("revocations", benchmark, code).to_pylist()}
        for r in world.lake.read_events("decisions", benchmark, code).to_pylist():
            rows.append({**r, "revoked_at": (undone.get(r["decision_id"]) or {}).get("revoked_at")})
    schema = {"system": pl.Utf8, "code": pl.Utf8, "version": pl.Utf8, "attempt": pl.Int64, "target": pl.Utf8,
              "decision": pl.Utf8, "decided_by": pl.Utf8, "decided_at": pl.Utf8, "revoked_at": pl.Utf8}
    if not rows:
        return pl.DataFrame(schema=schema)
    return pl.DataFrame([{k: r.get(k) for k in schema} for r in rows], schema=schema)


def compute(frames: dict[str, pl.DataFrame], benchmark: str) -> dict[str, pl.DataFrame]:
    import polars as pl

    from evaluation import analytics

    scores = frames["scores"]
    agreement = analytics.judge_agreement(frames["judgments"], frames["decisions"])
    disagreements = analytics.disagreements(frames["judgments"], frames["decisions"])
    return {
        "leaderboard": analytics.leaderboard(scores),
        "leaderboard_indicative": analytics.leaderboard(scores, include_indicative=True),
        "slices": analytics.slices(scores),
        "paired": analytics.paired(scores),
        "judge_agreement": agreement.with_columns(pl.lit(benchmark).alias("benchmark")).select(
            "benchmark", *agreement.columns),
        "judge_disagreements": disagreements.with_columns(pl.lit(benchmark).alias("benchmark")).select(
            "benchmark", *disagreements.columns),
        "pass_at_k": analytics.pass_at_k(scores),
        "calibration": analytics.calibration(scores),
    }


def _write(world: World, benchmark: str, tables: dict[str, pl.DataFrame]) -> str:

    for name, frame in tables.items():
        world.lake.write(name, (benchmark,), frame.to_arrow())
    return digest({n: f.write_json() for n, f in sorted(tables.items())})


class AnalyticsStage:
    name: ClassVar[str] = "analytics"
    version: ClassVar[str] = VERSION
    group: ClassVar[str] = "analytics"
    tables: ClassVar[tuple[str, ...]] = TABLES

    def lake_key(self, partition: str) -> tuple[str, ...]:
        return (partition,)

    def partition_digest(self, world: World, partition: str) -> str | None:
        parts = []
        for shard in shards_of(world, partition):
            parts.append(upstream_output(world, "etalons", shard.key, shard.lake_key()))
            for system in world.systems.systems:
                part = Part(shard, system.id)
                parts.append(upstream_output(world, "scores", part.key, part.lake_key()))
                parts.append(upstream_output(world, "judgments", part.key, part.lake_key()))
        if any(p is None for p in parts):
            return None
        signatures = world.index.get("signatures", partition)
        decisions = sorted((c, world.lake.event_names(t, partition, c))
                           for t in ("decisions", "audits", "revocations") for c in world.lake.folders(t, partition))
        settings = world.settings.get(partition)
        audit = settings.raw.get("audit") if settings is not None else None
        return digest(VERSION, parts, signatures.output_digest if signatures else None,
                      sorted(s.id for s in world.systems.systems), decisions, audit)

    def fresh(self, world: World, partition: str, digest_now: str | None) -> bool:
        entry = world.index.get(self.name, partition)
        return entry is not None and digest_now is not None and entry.input_digest == digest_now

    def reconcile_partition(self, world: World, partition: str, force: bool = False) -> Result:
        with world.locks.hold(f"{self.name}:{partition}"):
            in_digest = self.partition_digest(world, partition) or ""
            from evaluation.engine import audit

            tables = {**compute(benchmark_frames(world, partition), partition), **audit.compute(world, partition)}
            out = _write(world, partition, tables)
            board = tables["leaderboard"]
            means = [m for m in board["mean_score"].to_list() if m is not None] if board.height else []
            meta = {"systems": board.height, "cells": int(board["n"].sum()) if board.height else 0,
                    "mean_score": round(sum(means) / len(means), 2) if means else None}
            old = world.index.get(self.name, partition)
            entry = Entry(self.name, partition, in_digest, out, computed_at=world.at, rows=board.height, meta=meta)
            world.index.put([entry])
        return Result(self.name, partition, entry, ran=True,
                      output_changed=old is None or old.output_digest != out)


def refresh_leaderboard_rows(world: World, benchmark: str, system: str) -> None:
    """The fast path: recompute the leaderboard rows of one system and swap them into the benchmark's files.

    Every interval is computed per (benchmark, system) from that system's cells alone, so the rows equal what a
    full rebuild gives; the other analytics tables of the benchmark wait for the next update (its index entry
    stays stale until then)."""
    import polars as pl

    from evaluation import analytics

    frames = benchmark_frames(world, benchmark, systems=[system], scores_only=True)
    scores = frames["scores"]
    if not scores.height and not world.lake.stat("leaderboard", benchmark):
        return   # nothing scored and no board yet: the first update builds it
    for name, include in (("leaderboard", False), ("leaderboard_indicative", True)):
        with world.locks.hold(f"analytics:{benchmark}"):
            fresh = analytics.leaderboard(scores, include_indicative=include) if scores.height else None
            table = world.lake.read(name, benchmark)
            old = pl.from_arrow(table)
            assert isinstance(old, pl.DataFrame)
            kept = old.filter(pl.col("system") != system) if old.height else old
            merged = pl.concat([kept, fresh], how="diagonal_relaxed") if fresh is not None and kept.height else \
                (fresh if fresh is not None else kept)
            if merged is not None and merged.height:
                merged = merged.sort(["benchmark", "mean_score", "system"], descending=[False, True, False],
                                     nulls_last=True)
                world.lake.write(name, (benchmark,), merged.to_arrow())


STAGE = AnalyticsStage()

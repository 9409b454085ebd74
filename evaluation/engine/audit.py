"""The audit's tables of one benchmark, from what the scores stage stored per answer.

The analytics stage computes them with the benchmark's other tables; the fast path of a human act on a benchmark
that asks for an audit computes them again right away (`refresh`), so an audit label is counted in
eval.leaderboard_corrected and leaves `etalon review list` before the command returns. Both read the same rows
and call the same pure functions (evaluation.audit.estimates), so they give the same tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from evaluation.engine.keys import Part
from evaluation.engine.world import World

if TYPE_CHECKING:
    import polars as pl

TABLES = ("audit_sample", "audit_items", "leaderboard_corrected", "judge_error")


def frames(world: World, benchmark: str) -> dict[str, pl.DataFrame]:
    """The benchmark's current answers with their audit part, score and signature state, and their targets."""
    import polars as pl

    from evaluation.engine.stages.analytics import shards_of
    from warehouse.tables import TABLES as RECORDS

    configured = sorted(s.id for s in world.systems.systems)
    signed = {(r["code"], r["version"]) for r in world.lake.read("signature_ledger", benchmark).to_pylist()}
    cells: list[dict[str, Any]] = []
    targets: list[dict[str, Any]] = []
    for shard in shards_of(world, benchmark):
        current = {(r.code, r.version) for r, _ in world.current_etalons(shard)}
        for system in configured:
            key = Part(shard, system).lake_key()
            scores = {(r["code"], r["version"], int(r["attempt"])): r for r in world.lake.read("scores", *key).to_pylist()
                      if (r["code"], r["version"]) in current}
            for r in world.lake.read("audit_cells", *key).to_pylist():
                found = scores.get((r["code"], r["version"], int(r["attempt"])))
                if found is not None:
                    cells.append({**r, "score": found["score"], "status": found["status"],
                                  "indicative": (r["code"], r["version"]) not in signed})
            targets.extend(t for t in world.lake.read("audit_targets", *key).to_pylist()
                           if (t["code"], t["version"]) in current)
    cell_schema = dict(pl.from_arrow(RECORDS["audit_cells"].empty_table()).schema)  # type: ignore[union-attr]
    cell_schema.update({"score": pl.Float64(), "status": pl.Utf8(), "indicative": pl.Boolean()})
    target_schema = dict(pl.from_arrow(RECORDS["audit_targets"].empty_table()).schema)  # type: ignore[union-attr]
    return {"cells": pl.DataFrame(cells, schema=cell_schema) if cells else pl.DataFrame(schema=cell_schema),
            "targets": pl.DataFrame(targets, schema=target_schema) if targets
            else pl.DataFrame(schema=target_schema)}


def compute(world: World, benchmark: str) -> dict[str, pl.DataFrame]:
    from evaluation.audit import estimates
    from evaluation.audit.sample import AuditSettings

    settings = world.settings.get(benchmark)
    audit = AuditSettings.of(settings.raw if settings is not None else None)
    found = frames(world, benchmark)
    drawn = estimates.sample(found["cells"], audit)
    return {
        "audit_sample": drawn,
        "audit_items": estimates.items(drawn, found["targets"]),
        "leaderboard_corrected": estimates.corrected(drawn, audit),
        "judge_error": estimates.judge_error(benchmark, drawn, found["targets"]),
    }


def asks_for_audit(world: World, benchmark: str) -> bool:
    from evaluation.audit.sample import AuditSettings

    settings = world.settings.get(benchmark)
    return AuditSettings.of(settings.raw if settings is not None else None) is not None


def refresh(world: World, benchmark: str) -> bool:
    """The fast path: rewrite the benchmark's audit tables now (only when it asks for an audit and its analytics
    were built once; the first update builds them). Returns whether it wrote them."""
    if not asks_for_audit(world, benchmark) or not world.lake.stat("leaderboard_corrected", benchmark):
        return False
    with world.locks.hold(f"analytics:{benchmark}"):
        for name, frame in compute(world, benchmark).items():
            world.lake.write(name, (benchmark,), frame.to_arrow())
    return True

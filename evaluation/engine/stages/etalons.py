"""Etalons, one partition per benchmark shard: every version of every etalon, from the files lawyers edit.

An etalon's file is folded into its history: a new content makes a new version (the old ones stay, with their
scores), a changed title updates the version it belongs to, a removed file archives the etalon (nothing is
deleted), and a file that is there but broken holds the last good version as it was — a typo must not
archive anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from etalons.loader import LoadedEtalon
from evaluation.engine import code as stage_code
from evaluation.engine.keys import Shard, digest
from evaluation.engine.stages.base import Cell, CellKey, Computed, etalon_of_row
from evaluation.engine.world import World, assigned_shard
from warehouse.tables import EtalonVersionRow, LedgerRow

VERSION = stage_code.version("etalons", "etalons-2")


def _output(row: EtalonVersionRow | None) -> str:
    """What later stages see of an etalon: its current version and how it is described and filed."""
    if row is None:
        return "absent"
    return digest(row.version, row.title, row.archived, row.methodology, row.benchmark, row.question_version,
                  row.rubric_version, row.branch, row.difficulty, row.type, row.jurisdiction, row.author)


class EtalonsStage:
    name: ClassVar[str] = "etalons"
    version: ClassVar[str] = VERSION
    group: ClassVar[str] = "etalons"
    tables: ClassVar[tuple[str, ...]] = ("etalon_versions",)

    def lake_key(self, partition: str) -> tuple[str, ...]:
        return Shard.parse(partition).lake_key()

    def row_cell(self, row: Mapping[str, Any]) -> CellKey:
        return etalon_of_row(row)

    def _states(self, world: World, shard: Shard) -> dict[str, tuple[str, LoadedEtalon | None]]:
        """Per code of the shard: loaded (its file), held (its file is broken) or archived (no file)."""
        loaded = world.loaded
        bench = next((b for b in loaded.benchmarks if b.id == shard.benchmark), None)
        out: dict[str, tuple[str, LoadedEtalon | None]] = {}
        if bench is not None:
            for item in loaded.etalons:
                if item.benchmark == shard.benchmark and assigned_shard(bench.id, item.code, bench.shards) == shard:
                    out[item.code] = ("loaded", item)
        elsewhere = {e.code for e in loaded.etalons}
        failed_files = loaded.failed_files
        for row in world.etalon_rows(shard):
            if row.code in out or not row.is_current:
                continue
            if row.code in elsewhere:
                continue   # moved to another shard (the benchmark's shard count changed)
            held = row.code in loaded.failed_codes or row.file in failed_files
            out[row.code] = ("held" if held else "archived", None)
        return out

    def cells(self, world: World, partition: str, ledger: Mapping[CellKey, LedgerRow]) -> list[Cell]:
        shard = Shard.parse(partition)
        stored = {r.code: r for r in world.etalon_rows(shard) if r.is_current}
        cells = []
        for code, (state, item) in sorted(self._states(world, shard).items()):
            if item is not None:
                e = item.etalon
                basis: tuple[Any, ...] = (state, item.version, e.title, item.file, item.methodology,
                                          e.author or None, e.branch, e.difficulty, e.type, e.jurisdiction)
            else:
                row = stored.get(code)
                basis = (state, row.version if row else None)
            cells.append(Cell(code, "", 0, digest(VERSION, *basis), payload=(state, item)))
        return cells

    def owned(self, world: World, partition: str) -> set[str]:
        return set(self._states(world, Shard.parse(partition)))

    def current_versions(self, world: World, partition: str) -> set[tuple[str, str]]:
        # A code loaded in another shard moved there: its rows here are dropped, not kept as history.
        return {(e.code, "") for e in world.loaded.etalons}

    def partition_digest(self, world: World, partition: str,
                         ledger: Mapping[CellKey, LedgerRow] | None = None) -> str:
        return digest(VERSION, [c.input_hash for c in self.cells(world, partition, {})])

    def compute(self, world: World, partition: str, cells: Sequence[Cell]) -> dict[CellKey, Computed]:
        shard = Shard.parse(partition)
        history = _history(world, shard.benchmark, {c.code for c in cells})
        out: dict[CellKey, Computed] = {}
        for cell in cells:
            state, item = cell.payload
            rows = history.get(cell.code, [])
            if state == "loaded":
                rows = _fold(rows, item, shard, world.at)
            elif state == "archived":
                rows = [_with(r, archived=True, shard=shard.index) for r in rows]
            else:
                rows = [_with(r, shard=shard.index) for r in rows]
            current = next((r for r in rows if r.is_current), None)
            out[cell.key] = Computed({"etalon_versions": rows}, _output(current))
        world.forget_current(shard)
        return out

    def summary(self, world: World, partition: str, ledger: Mapping[CellKey, LedgerRow]) -> dict[str, Any]:
        # Where each code is stored: the fast paths find an etalon's shard from the index alone.
        return {"codes": sorted(k[0] for k in ledger)}


def _history(world: World, benchmark: str, codes: set[str]) -> dict[str, list[EtalonVersionRow]]:
    """Stored versions of the codes, wherever in the benchmark they are stored (a shard count may change)."""
    out: dict[str, list[EtalonVersionRow]] = {}
    for shard in world.stored_shards():
        if shard.benchmark != benchmark:
            continue
        for row in world.etalon_rows(shard):
            if row.code in codes:
                out.setdefault(row.code, []).append(row)
    return out


def _fold(rows: list[EtalonVersionRow], item: LoadedEtalon, shard: Shard, at: str) -> list[EtalonVersionRow]:
    e = item.etalon
    import json

    fresh = EtalonVersionRow(
        benchmark=item.benchmark, shard=shard.index, code=item.code, version=item.version,
        question_version=item.question_version, rubric_version=item.rubric_version, title=e.title,
        jurisdiction=e.jurisdiction, branch=e.branch, difficulty=e.difficulty, type=e.type,
        methodology=item.methodology, author=e.author or None, file=item.file, file_hash=item.file_hash,
        content=json.dumps(e.model_dump(mode="json", exclude_defaults=True), ensure_ascii=False),
        first_seen=at, is_current=True, archived=False)
    out = []
    for row in rows:
        if row.version == item.version:
            fresh = _with(fresh, first_seen=row.first_seen)
            continue
        out.append(_with(row, is_current=False, archived=False, shard=shard.index))
    out.append(fresh)
    return sorted(out, key=lambda r: (r.first_seen, r.version))


def _with(row: EtalonVersionRow, **changes: Any) -> EtalonVersionRow:
    from dataclasses import replace

    return replace(row, **changes)


STAGE = EtalonsStage()

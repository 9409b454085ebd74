"""How every stage reconciles one partition: recompute exactly the rows whose inputs changed.

A stage names, for a partition, the cells it must hold now and the hash of what each is computed from
(`cells`); the ledger says what each stored row was computed from. Rows whose hashes agree are kept as they
are, rows that differ or are missing are computed (`compute`), rows of cells that no longer exist are dropped
when their etalon version is still current (fewer attempts, a withdrawn import) and kept as history otherwise
(an older version, an archived etalon, a removed system). The partition's files are then written whole,
data first and ledger last, so a run killed in between leaves rows the ledger does not vouch for: the next
run recomputes them.

Nothing here knows Dagster; the assets and the plain-function runner call `reconcile` alike.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Protocol

from evaluation.engine.keys import Part, digest
from evaluation.engine.state import Entry, valid, write_ledger
from evaluation.engine.world import World
from warehouse.tables import LedgerRow

CellKey = tuple[str, str, int]   # code, version, attempt (0 for etalon-level stages)


@dataclass(frozen=True)
class Cell:
    code: str
    version: str
    attempt: int
    input_hash: str
    payload: Any = field(default=None, compare=False)

    @property
    def key(self) -> CellKey:
        return (self.code, self.version, self.attempt)


@dataclass(frozen=True)
class Computed:
    rows: Mapping[str, Sequence[Any]]     # table -> this cell's rows
    output_hash: str
    status: str = "ok"                    # ok | error (retried by the next run)
    input_hash: str | None = None         # when the final input hash is known only after computing (corpus)
    touch: tuple[str, ...] | None = None
    touch_hash: str | None = None


@dataclass
class Result:
    stage: str
    partition: str
    entry: Entry
    recomputed: list[CellKey] = field(default_factory=list)
    dropped: list[CellKey] = field(default_factory=list)
    output_changed: bool = False
    ran: bool = False      # the partition was examined row by row (and its files rewritten if anything changed)
    notes: list[str] = field(default_factory=list)


class Stage(Protocol):
    name: ClassVar[str]
    version: ClassVar[str]
    group: ClassVar[str]
    tables: ClassVar[tuple[str, ...]]

    def lake_key(self, partition: str) -> tuple[str, ...]: ...

    def partition_digest(self, world: World, partition: str,
                         ledger: Mapping[CellKey, LedgerRow] | None = None) -> str | None: ...

    def cells(self, world: World, partition: str, ledger: Mapping[CellKey, LedgerRow]) -> list[Cell] | None: ...

    def compute(self, world: World, partition: str, cells: Sequence[Cell]) -> dict[CellKey, Computed]: ...

    def current_versions(self, world: World, partition: str) -> set[tuple[str, str]]: ...

    def owned(self, world: World, partition: str) -> set[str]: ...

    def row_cell(self, row: Mapping[str, Any]) -> CellKey: ...

    def summary(self, world: World, partition: str, ledger: Mapping[CellKey, LedgerRow]) -> dict[str, Any]: ...


def upstream_output(world: World, stage: str, partition: str, key: tuple[str, ...]) -> str | None:
    """An upstream stage's output digest for a partition, when its index entry is still valid."""
    entry = valid(world.index.get(stage, partition), world.lake, stage, key)
    return entry.output_digest if entry is not None else None


def reconcile(stage: Stage, world: World, partition: str, force: bool | Collection[str] = False) -> Result:
    """Bring one partition of one stage up to date; `force` recomputes every row, or the rows of the given etalon
    codes, whatever their hashes say (`etalon evaluate`)."""
    key = stage.lake_key(partition)
    with world.locks.hold(f"{stage.name}:{partition}"):
        ledger = world.ledger(stage.name, key)
        expected = stage.cells(world, partition, ledger)
        if expected is None:
            in_digest = stage.partition_digest(world, partition) or ""   # the partition is frozen (its system was removed): nothing is recomputed
            entry = world.index.get(stage.name, partition) or Entry(stage.name, partition, in_digest, "frozen")
            return Result(stage.name, partition, replace(entry, input_digest=in_digest))
        by_key = {c.key: c for c in expected}
        stale = [c for c in expected if _forced(force, c.code) or _stale(ledger.get(c.key), c)]
        current = stage.current_versions(world, partition)
        owned = stage.owned(world, partition)
        # A row no cell needs is dropped when its etalon version is still current here (fewer attempts, a
        # withdrawn import) or its etalon no longer lives here (a shard count changed); else it is history.
        dropped = [k for k in ledger if k not in by_key and ((k[0], k[1]) in current or k[0] not in owned)]
        old_entry = valid(world.index.get(stage.name, partition), world.lake, stage.name, key)
        result = Result(stage.name, partition, old_entry or Entry(stage.name, partition, "", ""), ran=True)
        new_ledger = {k: row for k, row in ledger.items() if k in by_key}
        strays = _strays(world, stage, key, owned) if not stale and not dropped else False
        if stale or dropped or strays or old_entry is None:
            computed = stage.compute(world, partition, stale) if stale else {}
            if stale or dropped or strays or set(ledger) != set(new_ledger):
                replaced = {c.key for c in stale} | set(dropped)
                for table in stage.tables:
                    kept = [r for r in _rows(world, table, key)
                            if stage.row_cell(r) not in replaced and str(r.get("code")) in owned]
                    fresh_rows = [row for k, c in computed.items() for row in c.rows.get(table, ())]
                    world.lake.write(table, key, _sorted([*kept, *fresh_rows]))
                world.written(stage.tables, partition)
                for k, c in computed.items():
                    cell = by_key[k]
                    new_ledger[k] = LedgerRow(
                        stage=stage.name, benchmark=key[-3] if len(key) >= 3 else key[0],
                        shard=_shard_of(key), system=key[-1] if len(key) == 3 else "-",
                        code=k[0], version=k[1], attempt=k[2], input_hash=c.input_hash or cell.input_hash,
                        output_hash=c.output_hash, touch=_touch(c.touch), touch_hash=c.touch_hash,
                        status=c.status, computed_at=world.at)
                stat = write_ledger(world.lake, stage.name, key, new_ledger.values())
                world.remember_ledger(stage.name, key, new_ledger)
            else:
                stat = world.lake.stat("ledger", stage.name, *key)
                if stat is None:
                    stat = write_ledger(world.lake, stage.name, key, new_ledger.values())
                    world.remember_ledger(stage.name, key, new_ledger)
            result.recomputed = [c.key for c in stale]
            result.dropped = dropped
        else:
            stat = old_entry.ledger_stat
        # The inputs as they are now that the partition is current (a corpus footprint is known only after).
        in_digest = stage.partition_digest(world, partition, new_ledger) or ""
        out_digest = digest(sorted((list(k), r.output_hash) for k, r in new_ledger.items()))
        extra = stage.summary(world, partition, new_ledger)
        errors = sum(1 for r in new_ledger.values() if r.status == "error")
        entry = Entry(stage=stage.name, partition=partition, input_digest=in_digest, output_digest=out_digest,
                      corpus_version=extra.pop("corpus_version", None),
                      touch_digest=extra.pop("touch_digest", None), ledger_stat=stat, rows=len(new_ledger),
                      cells=len(new_ledger), errors=errors, retry=errors > 0, computed_at=world.at, meta=extra)
        result.output_changed = old_entry is None or old_entry.output_digest != out_digest
        result.entry = entry
        world.index.put([entry])
        return result


def _strays(world: World, stage: Stage, key: tuple[str, ...], owned: set[str]) -> bool:
    """Whether the partition's files hold rows of etalons that no longer live here (a killed move)."""
    if not stage.tables:
        return False
    table = world.lake.read(stage.tables[0], *key)
    if not table.num_rows or "code" not in table.column_names:
        return False
    return bool(set(table["code"].to_pylist()) - owned)


def _forced(force: bool | Collection[str], code: str) -> bool:
    return force if isinstance(force, bool) else code in force


def _stale(row: LedgerRow | None, cell: Cell) -> bool:
    return row is None or row.status == "error" or row.input_hash != cell.input_hash


def _rows(world: World, table: str, key: tuple[str, ...]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = world.lake.read(table, *key).to_pylist()
    return rows


def cell_of_row(row: Mapping[str, Any]) -> CellKey:
    """The cell a data row belongs to, for cell tables: (code, version, attempt)."""
    return (str(row.get("code")), str(row.get("version") or ""), int(row.get("attempt") or 0))


def etalon_of_row(row: Mapping[str, Any]) -> CellKey:
    """For etalon-level tables, every row of a code belongs to the one cell of that code."""
    return (str(row.get("code")), "", 0)


def _sorted(rows: Iterable[Any]) -> list[Any]:
    def order(r: Any) -> tuple[Any, ...]:
        get = r.get if isinstance(r, Mapping) else lambda k, d=None: getattr(r, k, d)
        return (str(get("code", "")), str(get("version", "") or ""), int(get("attempt", 0) or 0),
                str(get("element", "") or ""), int(get("run", 0) or 0), int(get("idx", 0) or 0),
                int(get("start", 0) or 0), bool(get("in_text", False)))
    return sorted(rows, key=order)


def _shard_of(key: tuple[str, ...]) -> str:
    return key[1] if len(key) >= 2 else ""


def _touch(keys: tuple[str, ...] | None) -> str | None:
    import json

    return None if keys is None else json.dumps(list(keys), ensure_ascii=False)


def touch_keys(row: LedgerRow | None) -> list[str] | None:
    import json

    if row is None or row.touch is None:
        return None
    keys: list[str] = json.loads(row.touch)
    return keys


class CellStage:
    """What the four cell stages (answers, citations, judgments, scores) share: partitions are shard x system,
    stored under the partition's own lake key, and a row belongs to the cell its columns name."""

    group: ClassVar[str] = "cells"

    def lake_key(self, partition: str) -> tuple[str, ...]:
        return Part.parse(partition).lake_key()

    def row_cell(self, row: Mapping[str, Any]) -> CellKey:
        return cell_of_row(row)


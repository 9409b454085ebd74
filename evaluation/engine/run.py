"""Running the engine as plain functions: the same reconcile the Dagster assets call, without Dagster.

`update` is what `etalon update` does through Dagster (app.runner), minus the runs and the events: the
benchmarks and the differential tests use it as the reference path, and a full evaluation of a fresh warehouse
is `update` on an empty one.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from evaluation.engine.keys import digest
from evaluation.engine.plan import GroupPlan, plan_group
from evaluation.engine.stages import GROUPS
from evaluation.engine.stages.base import Result, reconcile
from evaluation.engine.world import World
from warehouse.home import Home
from warehouse.tables import BenchmarkRow, CorpusSourceRow, EtalonErrorRow, SystemRow


@dataclass
class Summary:
    """What an update did, per stage: partitions examined, rows recomputed, and the results themselves."""

    results: list[Result] = field(default_factory=list)
    plans: list[GroupPlan] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def recomputed(self) -> dict[str, int]:
        out: dict[str, int] = defaultdict(int)
        for r in self.results:
            out[r.stage] += len(r.recomputed) if r.stage not in ("corpus", "signatures", "analytics", "report") \
                else int(r.ran)
        return dict(out)

    @property
    def did_anything(self) -> bool:
        return any(p.partitions for p in self.plans)

    def errors(self) -> int:
        return sum(r.entry.errors for r in self.results if r.stage in ("answers", "judgments"))


class InputsMissing(RuntimeError):
    """The etalons folder or systems.yaml a warehouse was built from is missing or unreadable: nothing is done."""


def missing_inputs(world: World) -> list[str]:
    """Why this update must not run at all, in sentences (empty: it may).

    A missing etalons folder or systems file is almost always a command run from another directory or a wrong
    ETALON_ETALONS / ETALON_SYSTEMS; read as "every etalon / system removed" it would archive the whole benchmark
    and empty the leaderboard. A systems.yaml that does not load is the same: its systems are not removed by a
    typo. A warehouse that never had etalons or systems (a corpus ingested first) is not refused."""
    from evaluation.systems import SystemsConfigError, load_systems

    out = []
    home = world.home
    if not home.etalons_dir.is_dir() and world.lake.files("etalon_versions"):
        out.append(f"{home.etalons_dir}: no such folder, but this warehouse holds etalons read from one; set "
                   "ETALON_ETALONS (or run from the folder that holds etalons/): nothing was changed")
    def had_systems() -> bool:   # read only when the file is missing or broken: not on every update
        return bool(world.lake.read("systems").num_rows > 0)

    if not home.systems_file.is_file():
        if had_systems():
            out.append(f"{home.systems_file}: no such file, but this warehouse holds systems read from one; set "
                       "ETALON_SYSTEMS (or run from the folder that holds etalons/): nothing was changed")
        return out
    try:
        world.__dict__["systems"] = load_systems(home.systems_file)   # World.systems then needs no second parse
    except SystemsConfigError as exc:
        if had_systems():
            out.append(f"{exc}; its systems stay as they were until it loads: nothing was changed")
    return out


def prelude(world: World) -> list[str]:
    """Store what later stages read of the inputs: benchmark settings, load errors, the configured systems.

    A warehouse written by an older Etalon is carried over first (evaluation.engine.migrate); returns what
    that did, in sentences, for the person running the update. Raises InputsMissing, before anything is
    written, when the inputs the warehouse was built from are not there (missing_inputs)."""
    from evaluation.engine import migrate

    refused = missing_inputs(world)
    if refused:
        raise InputsMissing("\n".join(refused))
    notes: list[str] = []
    layout = migrate.format_of(world.lake)
    if layout == 1:
        from etalons.keys import signing_key

        key = signing_key(world.home.root, world.home.lake)
        assert key is not None
        notes = migrate.migrate(world.lake, key)
    world.lake.ensure_schemas()
    if layout is None:
        migrate.mark(world.lake)
    from corpus.sources import adopt_legacy_sample

    adopted = adopt_legacy_sample(world.home.sources_file, world.lake.stat("corpus_documents", "sample") is not None)
    if adopted:
        world.__dict__.pop("_sources", None)
        notes.append(adopted)
    for table, parts, rows in stored_inputs(world):
        world.lake.write(table, parts, rows)
    world.__dict__.pop("settings", None)
    world.__dict__.pop("corpus", None)
    world.problems.extend(str(e) for e in world.loaded.errors)
    return notes


def stored_inputs(world: World) -> list[tuple[str, tuple[str, ...], list[Any]]]:
    """What the prelude stores of the inputs and the lake does not hold yet, as (table, key, rows) to write:
    empty when the benchmark settings, load errors, systems and corpus sources are stored as they are now."""
    out: list[tuple[str, tuple[str, ...], list[Any]]] = []
    loaded = world.loaded
    stored = {r["id"]: r for r in world.lake.read_all("benchmarks").to_pylist()}
    for bench in loaded.benchmarks:
        row = BenchmarkRow(id=bench.id, name=bench.name, methodology=bench.methodology, canary=bench.canary,
                           settings=json.dumps(bench.settings(), ensure_ascii=False, sort_keys=True),
                           shards=bench.shards, path=str(bench.path))
        if {k: stored.get(bench.id, {}).get(k) for k in row.__dict__} != row.__dict__:
            out.append(("benchmarks", (bench.id,), [row]))
    errors = [EtalonErrorRow(file=e.file, line=e.line, field=e.field, message=str(e), at=world.at)
              for e in loaded.errors]
    before = [{k: v for k, v in r.items() if k != "at"} for r in world.lake.read("etalon_errors").to_pylist()]
    if before != [{k: v for k, v in e.__dict__.items() if k != "at"} for e in errors]:
        out.append(("etalon_errors", (), errors))
    systems = [SystemRow(id=s.id, kind=s.kind, model=None if s.model == "-" else s.model,
                         base_url=None if s.base_url == "-" else s.base_url, attempts=s.attempts)
               for s in world.systems.systems]
    if world.lake.read("systems").to_pylist() != [s.__dict__ for s in systems]:
        out.append(("systems", (), systems))
    from evaluation.engine.stages.corpus import configured

    sources = sorted((CorpusSourceRow(name=s.name, kind=s.kind, location=s.location, priority=s.rank)
                      for s in configured(world).values()), key=lambda s: s.name)
    if world.lake.read("corpus_sources").to_pylist() != [s.__dict__ for s in sources]:
        out.append(("corpus_sources", (), sources))
    return out


def run_group(world: World, group: str, partitions: Sequence[str], force: Sequence[str] = ()) -> list[Result]:
    """Reconcile every stage of a group over the given partitions, stage by stage (upstream first)."""
    stages = dict(GROUPS)[group]
    results = []
    for stage in stages:
        for partition in partitions:
            forced = stage.name in force
            if hasattr(stage, "reconcile_partition"):
                results.append(stage.reconcile_partition(world, partition, force=forced))
            else:
                results.append(reconcile(stage, world, partition, force=forced))
    world.index.flush()
    return results


def update(home: Home, echo: Callable[[str], None] = lambda _: None, lake: Any = None,
           groups: Sequence[str] | None = None) -> Summary:
    world = World.open(home, lake)
    summary = Summary()
    try:
        notes = prelude(world)
    except InputsMissing as exc:
        summary.problems = str(exc).splitlines()
        return summary
    for note in notes:
        echo(note)
    for group, _ in GROUPS:
        if groups is not None and group not in groups:
            continue
        plan = plan_group(world, group)
        summary.plans.append(plan)
        if plan:
            echo(f"{group}: {len(plan.partitions)} partition(s)")
            summary.results.extend(run_group(world, group, plan.partitions))
    summary.problems = list(dict.fromkeys(world.problems))
    from warehouse.catalog import build_catalog

    build_catalog(home.catalog, world.lake)
    return summary


def fingerprint(home: Home) -> str:
    """A digest of every index entry's output: equal warehouses have equal fingerprints (for tests)."""
    world = World.open(home)
    return digest(sorted((k, e.output_digest) for k, e in world.index.entries.items()))

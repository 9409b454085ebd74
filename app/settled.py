"""`etalon update` when nothing is to be done: told without importing Dagster, DuckDB or polars.

An update with nothing to do used to cost a couple of seconds of imports and instance set-up for no change at
all. Whether it would do anything is decided by what the update itself decides it from, read without Dagster:
the inputs (loaded as the update loads them), the engine's index and ledgers (the plan of every stage group), the
journal of human acts, the runs under way, the input versions Dagster was last given (pipelines.told) and the
catalog's definitions. Only when none of them asks for anything does the command skip Dagster; any doubt (a
missing record, an older warehouse, a pending journal entry) takes the full path, which does the same checks
again and records whatever is missing.
"""

from __future__ import annotations

from warehouse.home import Home


def settled(home: Home) -> list[str] | None:
    """The input problems the update would report (files that did not load) when it would change nothing at
    all — in the lake, in Dagster, in the catalog; None when it would do something, or might."""
    from evaluation.engine import migrate
    from evaluation.engine.journal import pending
    from evaluation.engine.plan import plan_group
    from evaluation.engine.run import missing_inputs, stored_inputs
    from evaluation.engine.stages import GROUPS
    from evaluation.engine.world import World
    from pipelines.told import knows_inputs, runs_under_way
    from warehouse.catalog import is_current

    if not (home.root / "state" / "index.json").exists() or runs_under_way(home):
        return None
    if next(pending(home), None) is not None:
        return None
    world = World.open(home)
    if missing_inputs(world) or migrate.format_of(world.lake) != migrate.FORMAT:
        return None
    world.lake.ensure_schemas()
    if stored_inputs(world):
        return None
    world.problems.extend(str(e) for e in world.loaded.errors)
    if any(plan_group(world, group) for group, _ in GROUPS):
        return None
    from evaluation.engine.inputs import versions
    from pipelines.told import inputs_digest

    if not knows_inputs(home, inputs_digest(versions(world))):
        return None
    if not is_current(home.catalog, world.lake):
        return None
    return list(dict.fromkeys(world.problems))

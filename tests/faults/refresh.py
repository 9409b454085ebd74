"""Materialise every asset of the given stages through Dagster, as `etalon demo` does, without its imports.

Why: after an `etalon update` is killed, automation neither re-requests the cells that run had claimed nor
forgets the dead run (it stays STARTED, so its cells count as in progress), so the kill tests also resume by
the demo's explicit refresh, which shows what the cells themselves guarantee: nothing lost, doubled or repaid.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.runner import RunLog, absorb, instance_for, materialise_all
from pipelines.observe import observe
from warehouse.catalog import build_catalog
from warehouse.home import resolve_home
from warehouse.lake import Lake


def main(argv: list[str]) -> int:
    groups = [int(g) for g in argv[0].split(",")] if argv else [0, 1, 2, 3]
    home = resolve_home(None)
    os.environ["ETALON_HOME"] = str(home.root)
    lake = Lake(home.lake)
    lake.ensure_schemas()
    instance = instance_for(home)
    obs = observe(instance, home, lake)
    for problem in obs.problems:
        print(f"input problem: {problem}", file=sys.stderr)
    log = RunLog()
    materialise_all(home, instance, [g for g in groups if g < 2], log, lambda m: print(m, file=sys.stderr))
    materialise_all(home, instance, [g for g in groups if g >= 2], log, lambda m: print(m, file=sys.stderr))
    absorb(instance)
    build_catalog(home.catalog, lake)
    for line in log.lines():
        print(line)
    return 1 if log.failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Materialise every asset of a project through Dagster, as `etalon demo` does, without the sample's imports.

Why not `etalon update`: on a fresh warehouse it materialises nothing (its first automation tick only takes
stock of inputs observed before it), and blocking checks on partitioned assets hold judgments back, so the
fault tests drive the same runner functions the demo uses. Run as a script so a test can kill it with -9.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipelines.observe import observe
from pipelines.runner import RunLog, absorb, instance_for, materialise_all
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

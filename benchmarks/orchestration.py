"""A full evaluation through Dagster against the same engine as plain functions, on a generated warehouse.

    .venv/bin/python benchmarks/orchestration.py [--etalons 2000] [--systems 25] [--documents 400]
        [--units 40000] [--work DIR] [--keep]

Both paths run the very same reconcile (evaluation.engine); the Dagster path adds the runs, the step events,
the observations and one materialisation per partition. Printed: the wall time of each path, their ratio (goal
<= 1.10), runs per update, partitions per asset, time per cell, and an update with nothing changed. The inputs
come from benchmarks/generate.py (imported answers, no judge: every judged element waits for a human).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.generate import Scale, generate


def prepare(work: Path, scale: Scale) -> Path:
    source = work / f"input-{scale.etalons}x{scale.systems}"
    if not (source / "sources.yaml").exists():
        generate(source, scale)
    return source


def home_for(source: Path, target: Path) -> Any:
    from warehouse.home import resolve_home

    target.mkdir(parents=True, exist_ok=True)
    os.environ.update(ETALON_HOME=str(target), ETALON_ETALONS=str(source / "etalons"),
                      ETALON_SYSTEMS=str(source / "etalons" / "systems.yaml"),
                      ETALON_SOURCES=str(source / "sources.yaml"), ETALON_JOURNAL_FLUSH="off")
    os.environ.pop("DAGSTER_HOME", None)
    return resolve_home(target)


def import_all(home: Any, source: Path) -> int:
    from app.actions import import_answers

    return sum(import_answers(home, f, f.stem).imported for f in sorted((source / "answers").glob("*.jsonl")))


def timed(run: Any) -> tuple[float, float, Any]:
    """Wall and CPU seconds (every thread of this process): on a machine other jobs load, the CPU ratio is the
    steadier figure, since both paths lose the same share of the cores but not at the same moments."""
    started, cpu = time.perf_counter(), time.process_time()
    out = run()
    return time.perf_counter() - started, time.process_time() - cpu, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--etalons", type=int, default=2000)
    parser.add_argument("--systems", type=int, default=25)
    parser.add_argument("--documents", type=int, default=400)
    parser.add_argument("--units", type=int, default=40_000)
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the warehouses (for incremental.py --from)")
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="etalon-orchestration-"))
    scale = Scale(documents=args.documents, units=args.units, etalons=args.etalons, systems=args.systems)
    source = prepare(work, scale)
    cells = scale.etalons * scale.systems

    from app.runner import update as through_dagster
    from evaluation.engine.run import update as plain

    results: dict[str, tuple[float, float, float, float]] = {}
    for name, run in (("plain functions", plain), ("Dagster", through_dagster)):
        target = work / name.replace(" ", "-")
        shutil.rmtree(target, ignore_errors=True)
        home = home_for(source, target)
        import_all(home, source)
        seconds, cpu, log = timed(lambda: run(home))          # noqa: B023
        again, again_cpu, _ = timed(lambda: run(home))         # noqa: B023
        results[name] = (seconds, cpu, again, again_cpu)
        runs = getattr(log, "runs", 0)
        print(f"{name:16s} full evaluation {seconds:8.1f} s wall {cpu:8.1f} s CPU  ({1000 * seconds / cells:6.2f} ms "
              f"a cell)  update with nothing changed {again:5.1f} s wall {again_cpu:5.1f} s CPU"
              + (f"  runs {runs}" if runs else ""))
    dagster, base = results["Dagster"], results["plain functions"]
    print(f"ratio Dagster / plain functions: {dagster[0] / base[0]:.3f} wall, {dagster[1] / base[1]:.3f} CPU "
          f"(goal <= 1.10); update with nothing changed: {dagster[2] / base[2]:.2f} wall, "
          f"{dagster[3] / base[3]:.2f} CPU")
    from dagster import DagsterInstance

    os.environ["DAGSTER_HOME"] = str(work / "Dagster" / "dagster")
    instance = DagsterInstance.get()
    for name in ("corpus_sources", "shards", "systems", "benchmarks"):
        print(f"partitions of '{name}': {len(instance.get_dynamic_partitions(name))}")
    shards, systems = (len(instance.get_dynamic_partitions(n)) for n in ("shards", "systems"))
    print(f"cell assets: {shards} x {systems} = {shards * systems} partitions each, for {cells} cells "
          f"({cells / max(1, shards * systems):.0f} cells a partition)")
    if not args.keep and args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

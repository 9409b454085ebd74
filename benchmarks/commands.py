"""What a person waits for at the terminal: `etalon demo` on a fresh home and `etalon update` with nothing to do.

    .venv/bin/python benchmarks/commands.py [--repeat 3] [--cold] [--work DIR] [--checkout DIR]

Each command runs as a person runs it (a new process), against baselines measured in the same run:
- the bare start-up of the command, `python -c "import app.cli"`: the floor of any `etalon ...` command;
- for the update with nothing to do, the same decision made in this process (`app.settled.settled`, imports
  already paid): what is left of the command once start-up is subtracted.

Printed per figure: the median wall time and CPU time (of the child process) over `--repeat` runs, and the
ratios. `--cold` first removes the project's compiled bytecode (`__pycache__`), as the very first command
after `pip install -e` finds it (Python then compiles every module it imports). `--checkout DIR` times another
checkout of the project with this virtualenv (`python -m app.cli` run in DIR, e.g. a `git worktree` of an older
commit), for before/after figures. The load average is printed: the machine these figures come from is shared,
and wall times move with it.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CHECKOUT = ROOT
ETALON = [str(Path(sys.executable).with_name("etalon"))]
PACKAGES = ("app", "assets", "citations", "corpus", "etalons", "evaluation", "pipelines", "warehouse")


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU seconds (user + system, of the child) of one command, and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=CHECKOUT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def drop_bytecode() -> int:
    removed = 0
    for package in PACKAGES:
        for cache in (CHECKOUT / package).rglob("__pycache__"):
            shutil.rmtree(cache, ignore_errors=True)
            removed += 1
    return removed


def median(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)


def show(name: str, figure: tuple[float, float], base: tuple[float, float] | None, label: str = "") -> None:
    ratio = f"  x{figure[0] / base[0]:.1f} wall, x{figure[1] / base[1]:.1f} CPU {label}" if base else ""
    print(f"{name:44s} {figure[0]:7.2f} s wall {figure[1]:7.2f} s CPU{ratio}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cold", action="store_true", help="remove the project's __pycache__ before the demo")
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--checkout", type=Path, default=None, help="time this checkout (python -m app.cli)")
    args = parser.parse_args(argv)
    global CHECKOUT, ETALON
    if args.checkout is not None:
        CHECKOUT, ETALON = args.checkout.resolve(), [sys.executable, "-m", "app.cli"]
    work = args.work or Path(tempfile.mkdtemp(prefix="etalon-commands-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ETALON_", "DAGSTER_"))}
    env["ETALON_PROGRESS"] = "0"
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)")

    startup = median([run([sys.executable, "-c", "import app.cli"], env)[:2] for _ in range(args.repeat)])
    print(f"checkout: {CHECKOUT}")
    show("start-up (python -c 'import app.cli')", startup, None)

    if args.cold:
        print(f"removed {drop_bytecode()} __pycache__ folders of the project")
        home = work / "cold"
        shutil.rmtree(home, ignore_errors=True)
        show("etalon demo, fresh home, no bytecode", run([*ETALON, "demo", "--home", str(home)], env)[:2],
             startup, "the start-up")
    demos = []
    for i in range(args.repeat):
        home = work / f"demo-{i}"
        shutil.rmtree(home, ignore_errors=True)
        demos.append(run([*ETALON, "demo", "--home", str(home)], env)[:2])
    demo = median(demos)
    show("etalon demo, fresh home", demo, startup, "the start-up")

    home = work / "demo-0"
    noop = median([run([*ETALON, "update", "--home", str(home)], env)[:2] for _ in range(args.repeat)])
    show("etalon update, nothing to do (command)", noop, startup, "the start-up")

    if CHECKOUT != ROOT:
        print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return 0
    os.environ.update(ETALON_HOME=str(home), ETALON_ETALONS=str(ROOT / "etalons"),
                      ETALON_SYSTEMS=str(ROOT / "etalons" / "systems.yaml"))
    from app.settled import settled
    from warehouse.home import resolve_home

    paths = resolve_home(home)
    assert settled(paths) is not None, "the demo home should have nothing to do"
    inside = []
    for _ in range(args.repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        settled(paths)
        inside.append((time.perf_counter() - wall, time.process_time() - cpu))
    decided = median(inside)
    show("  the same decision in this process", decided, None)
    print(f"{'  command minus start-up, against it':44s} x{(noop[0] - startup[0]) / decided[0]:.1f} wall, "
          f"x{(noop[1] - startup[1]) / decided[1]:.1f} CPU")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

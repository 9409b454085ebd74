"""What each user action costs on a big warehouse, through the commands people run, against the work itself.

    .venv/bin/python benchmarks/incremental.py [--etalons 2000] [--systems 25] [--documents 400] [--units 40000]
        [--work DIR]

Two copies of one evaluated warehouse take the same actions: on one, `etalon` as a person runs it (Dagster runs,
or the fast path of a human act as a separate process, start-up included); on the other, the engine's plain
functions doing the same reconcile in this process — the work itself. Printed per action: seconds of each,
their ratio, rows recomputed, runs. Actions: an update with nothing changed, a review decision, an edited
etalon, one changed corpus document, a signature.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.generate import Scale
from benchmarks.orchestration import home_for, import_all, prepare

ETALON = str(Path(sys.executable).with_name("etalon"))


def command(home: Any, *args: str) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run([ETALON, *args], env={**os.environ, "ETALON_HOME": str(home.root)}, capture_output=True,
                          text=True, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"etalon {' '.join(args)}: {done.stderr[-2000:]}")
    return time.perf_counter() - started, done.stdout + done.stderr


def plain_update(home: Any) -> tuple[float, int]:
    from evaluation.engine.run import update

    started = time.perf_counter()
    summary = update(home)
    return time.perf_counter() - started, sum(summary.recomputed().get(s, 0)
                                              for s in ("answers", "citations", "judgments", "scores"))


def runs_in(text: str) -> str:
    found = re.search(r"\((\d+) run\(s\)\)", text)
    return found.group(1) if found else "0"


def edit_one_etalon(source: Path) -> None:
    path = sorted((source / "etalons" / "scale").glob("SC-*.yaml"))[7]
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("reference_answer: ", "reference_answer: Изменено. ", 1) if "Изменено" not in text
                    else text.replace("Изменено. ", "", 1), encoding="utf-8")


def change_one_document(source: Path) -> str:
    path = sorted(p for p in (source / "corpus").rglob("*") if p.is_file() and p.suffix in (".txt", ".md"))[3]
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if len(line) > 40)
    lines[i] = lines[i] + " (в редакции поправки)"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path.name


def row(name: str, person: float, work: float, rows: int | str, runs: str) -> None:
    ratio = person / work if work else float("nan")
    print(f"{name:34s} command {person:7.2f} s   work {work:7.3f} s   ratio {ratio:6.2f}   rows {rows!s:>6}   "
          f"runs {runs}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--etalons", type=int, default=2000)
    parser.add_argument("--systems", type=int, default=25)
    parser.add_argument("--documents", type=int, default=400)
    parser.add_argument("--units", type=int, default=40_000)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="etalon-incremental-"))
    scale = Scale(documents=args.documents, units=args.units, etalons=args.etalons, systems=args.systems)
    original = prepare(work, scale)
    # One copy of the inputs: both warehouses see every edit; each keeps its own lake and instance.
    source = work / "inputs"
    if not source.exists():
        shutil.copytree(original, source)
    person_home = home_for(source, work / "person")
    import_all(person_home, source)
    started = time.perf_counter()
    _, out = command(person_home, "update")
    print(f"full evaluation through `etalon update`: {time.perf_counter() - started:.1f} s, runs {runs_in(out)}")
    work_home = home_for(source, work / "work")
    import_all(work_home, source)
    plain_update(work_home)

    person, out = command(person_home, "update")
    seconds, rows = plain_update(work_home)
    row("update, nothing changed", person, seconds, rows, runs_in(out))

    from evaluation.engine import humans
    from evaluation.engine.world import World

    items = World.open(work_home).lake.read("review_items", "scale", "00", "sys-00").to_pylist()
    item = items[0]
    os.environ["ETALON_HOME"] = str(work_home.root)
    started = time.perf_counter()
    humans.decide(World.open(work_home), item["id"], item["options"].strip('[]"').split('", "')[0], "bench")
    decided = time.perf_counter() - started
    person, out = command(person_home, "review", "decide", item["id"],
                          item["options"].strip('[]"').split('", "')[0], "--by", "bench")
    row("review decision (start-up included)", person, decided, 1, "0 (runless events)")

    edit_one_etalon(source)
    person, out = command(person_home, "update")
    seconds, rows = plain_update(work_home)
    row("an edited etalon", person, seconds, rows, runs_in(out))

    name = change_one_document(source)
    person, out = command(person_home, "update")
    seconds, rows = plain_update(work_home)
    row(f"one changed corpus document ({name[:20]})", person, seconds, rows, runs_in(out))

    code = sorted((source / "etalons" / "scale").glob("SC-*.yaml"))[11].stem
    started = time.perf_counter()
    with contextlib.suppress(humans.Refused):   # a refusal costs the same work: the sources are checked
        humans.sign(World.open(work_home), code, "bench")
    signed = time.perf_counter() - started
    person, out = command(person_home, "sign", code, "--by", "bench")
    row("a signature", person, signed, "-", "0 (runless events)")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

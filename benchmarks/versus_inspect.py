"""Etalon's cost per cell beside Inspect AI's cost per sample, measured side by side in one run.

    .venv/bin/python benchmarks/versus_inspect.py [--cells 2000] [--work DIR]

Inspect AI (installed by this script into a virtual environment of its own under the work folder — never into
Etalon's) runs `generate()` with its mock model and a `match()` scorer over N samples. Etalon evaluates N cells
end to end through its engine: one OpenAI-compatible system and a judge (two runs per element), both served by
a loopback server in a separate process, each answer's citations extracted and resolved against a corpus,
every element judged twice, the answer scored. Printed: milliseconds per sample and per cell, and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.generate import Scale, generate

INSPECT = """
import sys, tempfile, time
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.scorer import match
from inspect_ai.solver import generate
n = int(sys.argv[1])
task = Task(dataset=[Sample(input=f"Question {i}?", target="Default output from mockllm/model") for i in range(n)],
            solver=generate(), scorer=match())
started = time.perf_counter()
eval(task, model="mockllm/model", log_dir=tempfile.mkdtemp(), display="none")
print(time.perf_counter() - started)
"""

RULES = [
    {"contains": '"kind": "conclusion"', "reply": json.dumps({"verdict": "partial", "quote": None, "reason": "r"})},
    {"system_contains": "legal evaluator", "reply": json.dumps({"verdict": "no", "quote": None, "reason": "r"})},
    {"reply": "Согласно ст. 5001 Федерального закона от 01.01.2001 № 5001-ФЗ и ст. 12 того же закона, ответ таков."},
]


def inspect_seconds(work: Path, n: int) -> float:
    venv = work / "inspect-venv"
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "inspect-ai"], check=True)
    done = subprocess.run([str(python), "-c", INSPECT, str(n)], capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def etalon_seconds(work: Path, n: int) -> tuple[float, int]:
    source = work / f"etalon-input-{n}"
    if not (source / "sources.yaml").exists():
        generate(source, Scale(documents=60, units=3000, etalons=n, systems=1))
    rules = work / "rules.yaml"
    import yaml

    rules.write_text(yaml.safe_dump(RULES, allow_unicode=True), encoding="utf-8")
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "evaluation.testserver", "--port", str(port), "--rules",
                               str(rules)], cwd=Path(__file__).resolve().parents[1], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        url = f"http://127.0.0.1:{port}/v1"
        systems = source / "etalons" / "systems-llm.yaml"
        systems.write_text(yaml.safe_dump({
            "systems": [{"id": "sut", "kind": "openai", "base_url": url, "model": "sut", "concurrency": 16,
                         "retries": 0}],
            "judge": {"base_url": url, "model": "judge", "concurrency": 16, "retries": 0}}), encoding="utf-8")
        home_dir = work / "etalon-home"
        shutil.rmtree(home_dir, ignore_errors=True)
        os.environ.update(ETALON_HOME=str(home_dir), ETALON_ETALONS=str(source / "etalons"),
                          ETALON_SYSTEMS=str(systems), ETALON_SOURCES=str(source / "sources.yaml"),
                          ETALON_JOURNAL_FLUSH="off")
        from evaluation.engine.run import update
        from warehouse.home import resolve_home

        home = resolve_home(home_dir)
        # The corpus and the etalons first: Inspect's samples exist before its clock starts, so do our etalons.
        update(home, groups=("corpus", "etalons"))
        started = time.perf_counter()
        update(home, groups=("cells",))
        seconds = time.perf_counter() - started
        import duckdb

        con = duckdb.connect(str(home.catalog), read_only=True)
        calls = con.execute("SELECT count(*) FROM eval.judgments").fetchone()
        con.close()
        return seconds, int(calls[0]) if calls else 0
    finally:
        server.terminate()
        server.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cells", type=int, default=2000)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="etalon-vs-inspect-"))
    work.mkdir(parents=True, exist_ok=True)
    inspect = inspect_seconds(work, args.cells)
    etalon, judgments = etalon_seconds(work, args.cells)
    per_sample, per_cell = 1000 * inspect / args.cells, 1000 * etalon / args.cells
    print(f"Inspect AI: {args.cells} samples (mock model, generate + match) {inspect:7.1f} s = {per_sample:6.2f} ms a sample")
    print(f"Etalon:     {args.cells} cells (answer over HTTP, citations, {judgments / args.cells:.1f} judge calls "
          f"over HTTP, score) {etalon:7.1f} s = {per_cell:6.2f} ms a cell")
    print(f"ratio Etalon cell / Inspect sample: {per_cell / per_sample:.2f} (goal <= 1.00)")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

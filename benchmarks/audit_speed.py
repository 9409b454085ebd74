"""How long the audit of the judge takes over many synthetic answers: the draw, the corrected leaderboard and the
judge's error per kind (evaluation.audit.estimates), the pure functions the analytics stage runs per benchmark.

Printed as wall and CPU seconds (best of --runs) and as a ratio against a bare polars group_by mean over the same
rows, measured in the same run, so the numbers compare across machines. The same steps at a quarter and half of
the answers show how each grows: a doubling of the answers should not much more than double the time.
Usage: .venv/bin/python benchmarks/audit_speed.py [--answers 200000] [--systems 20] [--rate 0.05] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from evaluation.audit import estimates
from evaluation.audit.sample import AuditSettings, audit_hash

KINDS = ("issue", "fact", "branch", "refusal", "gross_error")


def synthetic(answers: int, systems: int, rate: float, seed: int = 0) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Answers (audit_cells joined with scores) and their judge-settled elements; a share of the drawn ones
    labelled, the judge wrong on a tenth of them."""
    rng = np.random.default_rng(seed)
    etalons = max(1, answers // systems)
    s = np.repeat(np.arange(systems), etalons)
    e = np.tile(np.arange(etalons), systems)
    total = len(s)
    codes = [f"E-{i:06d}" for i in range(etalons)]
    names = [f"sys-{i:02d}" for i in range(systems)]
    hashes = np.array([audit_hash(7, names[a], codes[b], "v1", 1) for a, b in zip(s, e, strict=True)])
    judge = np.clip(rng.normal(60, 20, total), 0, 100).round()
    labelled = hashes < rate
    human = np.where(labelled & (rng.random(total) < 0.3), np.clip(judge + 20, 0, 100), judge)
    verdict = np.where(judge >= 75, "positive", np.where(judge >= 60, "partial", "negative"))
    cells = pl.DataFrame({
        "system": pl.Series(names)[s], "benchmark": "bench", "code": pl.Series(codes)[e], "version": "v1",
        "attempt": 1, "methodology": "stielegi", "targets": 5, "kinds": json.dumps(list(KINDS)),
        "covered": np.where(labelled, 5, 0), "audit_hash": hashes, "judge_score": judge, "judge_verdict": verdict,
        "human_score": human, "human_verdict": np.where(human >= 75, "positive", np.where(human >= 60, "partial",
                                                                                          "negative")),
        "score": judge, "status": "final", "indicative": False})
    picked = cells.filter(pl.col("audit_hash") < rate * 2).select("system", "benchmark", "code", "version", "attempt")
    targets = picked.join(pl.DataFrame({"kind": list(KINDS)}), how="cross").with_columns(
        pl.col("kind").alias("target"), pl.lit('["yes", "no"]').alias("options"), pl.lit("no").alias("automatic"),
        pl.when(pl.col("code").hash(1) % 10 == 0).then(pl.lit("yes")).otherwise(pl.lit("no")).alias("human"),
        pl.lit("audit").alias("source"), pl.lit(None, dtype=pl.Utf8).alias("label_id"))
    return cells, targets


def best_of(runs: int, call: Callable[[], object]) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        call()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=200_000)
    parser.add_argument("--systems", type=int, default=20)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    settings = AuditSettings(args.rate, 5, 7)
    for share in (0.25, 0.5, 1.0):
        n = int(args.answers * share)
        measure(n, args.systems, args.rate, args.runs, settings)


def measure(n: int, systems: int, rate: float, runs: int, settings: AuditSettings) -> None:
    cells, targets = synthetic(n, systems, rate)
    base_wall, base_cpu = best_of(runs, lambda: cells.group_by("system").agg(pl.col("judge_score").mean()))
    drawn = estimates.sample(cells, settings)
    steps: dict[str, Callable[[], object]] = {
        "draw (sample)": lambda: estimates.sample(cells, settings),
        "corrected leaderboard": lambda: estimates.corrected(drawn, settings),
        "judge error per kind": lambda: estimates.judge_error("bench", drawn, targets),
    }
    print(f"{n:,} answers, {systems} systems, rate {rate}: baseline group_by mean "
          f"{base_wall * 1000:.1f} ms wall, {base_cpu * 1000:.1f} ms CPU")
    for name, call in steps.items():
        wall, cpu = best_of(runs, call)
        print(f"  {name:24s} {wall:7.3f} s wall {cpu:7.3f} s CPU  x{cpu / max(base_cpu, 1e-9):6.0f} "
              "the baseline's CPU")


if __name__ == "__main__":
    main()

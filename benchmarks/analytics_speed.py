"""How long the leaderboard, the paired table and the slices take over a million synthetic score rows.

Goal (issues #8, #9): under a second each. Printed as wall and CPU seconds (best of --runs) and as a ratio
against a bare polars group_by mean over the same rows, measured in the same run, so the numbers compare across
machines; CPU time is the steadier figure when other work shares the machine. The same steps at a quarter and
half of the rows show how each grows with its input: a doubling of the rows should not much more than double
the time.
Usage: .venv/bin/python benchmarks/analytics_speed.py [--rows 1000000] [--systems 20] [--attempts 5] [--runs 3]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from evaluation.analytics import leaderboard, paired, slices


def synthetic_scores(rows: int, benchmarks: int, systems: int, attempts: int, seed: int = 0) -> pl.DataFrame:
    etalons = max(1, rows // (benchmarks * systems * attempts))
    rng = np.random.default_rng(seed)
    shape = (benchmarks, systems, etalons, attempts)
    total = int(np.prod(shape))
    b, s, e, a = np.indices(shape).reshape(4, total)
    skill = rng.normal(0.6, 0.1, systems)[s]
    difficulty = rng.normal(0.0, 0.2, benchmarks * etalons)[b * etalons + e]
    score = np.clip(skill - difficulty + rng.normal(0, 0.2, total), 0, 1)
    status = np.where(
        rng.random(total) < 0.01, "error", np.where(rng.random(total) < 0.05, "needs_input", "final")
    )
    return pl.DataFrame(
        {
            "system": pl.Series([f"sys-{i:02d}" for i in range(systems)])[s],
            "benchmark": pl.Series([f"bench-{i}" for i in range(benchmarks)])[b],
            "code": pl.Series([f"E-{i:05d}" for i in range(etalons)])[e],
            "version": "v1",
            "attempt": a + 1,
            "methodology": "lesto",
            "score": np.where(status == "error", np.nan, score),
            "verdict": np.where(score > 0.7, "positive", np.where(score > 0.4, "partial", "negative")),
            "status": status,
            "indicative": e % 10 == 0,
            "jurisdiction": "ru",
            "branch": pl.Series(["inheritance", "labour", "contracts"])[e % 3],
            "difficulty": e % 3 + 1,
            "type": "application",
            "tokens_in": rng.integers(200, 2000, total),
            "tokens_out": rng.integers(100, 800, total),
            "cost": rng.random(total) / 100,
        }
    ).with_columns(pl.col("score").fill_nan(None))


def best_of(runs: int, call: Callable[[], object]) -> tuple[float, float]:
    """The lowest wall and the lowest CPU seconds over the runs (each the least disturbed measurement)."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        call()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


STEPS: dict[str, Callable[[pl.DataFrame], object]] = {
    "leaderboard (2000 resamples)": leaderboard,
    "paired (2000 resamples)": paired,
    "slices (2000 resamples)": slices,
}


def measure(scores: pl.DataFrame, runs: int) -> dict[str, tuple[float, float]]:
    times = {
        "baseline": best_of(runs, lambda: scores.group_by("benchmark", "system").agg(pl.col("score").mean()))
    }
    for name, step in STEPS.items():
        times[name] = best_of(runs, lambda step=step: step(scores))  # type: ignore[misc]
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--benchmarks", type=int, default=5)
    parser.add_argument("--systems", type=int, default=20)
    parser.add_argument("--attempts", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sizes = [args.rows // 4, args.rows // 2, args.rows]
    results: dict[int, dict[str, tuple[float, float]]] = {}
    for rows in sizes:
        scores = synthetic_scores(rows, args.benchmarks, args.systems, args.attempts)
        results[rows] = measure(scores, args.runs)
        if rows == args.rows:
            print(
                f"{scores.height} score rows: {args.benchmarks} benchmarks x {args.systems} systems x "
                f"{scores['code'].n_unique()} etalons x {args.attempts} attempts"
            )
    full = results[args.rows]
    baseline_wall, baseline_cpu = full["baseline"]
    print(f"baseline polars group_by mean: {baseline_wall:.3f} s wall, {baseline_cpu:.3f} s CPU")
    for name in STEPS:
        wall, cpu = full[name]
        print(
            f"{name}: {wall:.3f} s wall = {wall / baseline_wall:.1f} x baseline, {cpu:.3f} s CPU = "
            f"{cpu / baseline_cpu:.1f} x baseline ({'meets' if wall < 1.0 else 'misses'} the 1 s goal)"
        )
    print("scaling, CPU seconds at " + " / ".join(f"{rows:,}" for rows in sizes) + " rows (x per doubling):")
    for name in ["baseline", *STEPS]:
        cpus = [results[rows][name][1] for rows in sizes]
        growth = " ".join(f"x{later / max(earlier, 1e-9):.2f}" for earlier, later in itertools.pairwise(cpus))
        print(f"  {name}: " + " / ".join(f"{cpu:.3f}" for cpu in cpus) + f" ({growth})")


if __name__ == "__main__":
    main()

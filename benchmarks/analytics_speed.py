"""How long the leaderboard and the paired table take over a million synthetic score rows.

Goal (issue #8): under a second each. Printed as seconds and as a ratio against a bare polars group_by mean
over the same rows, measured in the same run, so the numbers compare across machines.
Usage: .venv/bin/python benchmarks/analytics_speed.py [--rows 1000000] [--systems 20] [--attempts 5]
"""

from __future__ import annotations

import argparse
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


def best_of(runs: int, call: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--benchmarks", type=int, default=5)
    parser.add_argument("--systems", type=int, default=20)
    parser.add_argument("--attempts", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    scores = synthetic_scores(args.rows, args.benchmarks, args.systems, args.attempts)
    print(
        f"{scores.height} score rows: {args.benchmarks} benchmarks x {args.systems} systems x "
        f"{scores['code'].n_unique()} etalons x {args.attempts} attempts"
    )
    baseline = best_of(args.runs, lambda: scores.group_by("benchmark", "system").agg(pl.col("score").mean()))
    print(f"baseline polars group_by mean: {baseline:.3f} s")
    for name, call in (
        ("leaderboard (2000 resamples)", lambda: leaderboard(scores)),
        ("paired (2000 resamples)", lambda: paired(scores)),
        ("slices (2000 resamples)", lambda: slices(scores)),
    ):
        seconds = best_of(args.runs, call)
        print(
            f"{name}: {seconds:.3f} s = {seconds / baseline:.1f} x baseline "
            f"({'meets' if seconds < 1.0 else 'misses'} the 1 s goal)"
        )


if __name__ == "__main__":
    main()

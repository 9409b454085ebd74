"""Dagster's overhead on a full evaluation of E x S cells, against the same work called as plain functions.

Usage: .venv/bin/python benchmarks/orchestration.py [--etalons 50] [--systems 4] [--documents 100]
       [--units 10000] [--runs 5] [--full] [--keep DIR]

Both sides get the same generated input (benchmarks/generate.py) in two fresh warehouses. The plain side
ingests, stores and verifies the etalons and evaluates every cell stage by stage (answers, citations, judgments,
scores over one RunContext per stage, as one Dagster step does); the Dagster side materialises the same assets
through the runner, as `etalon demo` does. The ratio of the cell stages is the orchestration's cost per cell;
`--runs` single-partition runs of `scores` against score_cell on the same cell give the fixed cost of a run.
There is no judge (judged elements wait for a human): a judge's HTTP latency would hide the orchestrator.
`--full` is issue #9's 2,000 x 25 (hours on two cores). `--postgres URL` puts Dagster's storage on PostgreSQL.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import Scale, generate  # noqa: E402

STAGES = ("answers", "citations", "judgments", "scores")


def use_home(input_dir: Path, home_dir: Path) -> Any:
    """Point every variable the CLI, the runner and the resource read at this warehouse and these inputs."""
    from warehouse.home import resolve_home

    os.environ["ETALON_HOME"] = str(home_dir)
    os.environ["ETALON_ETALONS"] = str(input_dir / "etalons")
    os.environ["ETALON_SYSTEMS"] = str(input_dir / "etalons" / "systems.yaml")
    os.environ["ETALON_SOURCES"] = str(input_dir / "sources.yaml")
    os.environ["DAGSTER_HOME"] = str(home_dir / "dagster")
    return resolve_home(home_dir)


def use_postgres(home_dir: Path, url: str) -> str:
    """A fresh database on the server at `url` for this warehouse's Dagster instance; returns its name.

    The storage block is docs/deploy.md's, with the explicit psycopg2 driver (SQLAlchemy 2 reads a bare
    postgresql:// as psycopg 3, which dagster-postgres does not install)."""
    import uuid
    from urllib.parse import urlsplit, urlunsplit

    import psycopg2

    database = f"etalon_bench_{uuid.uuid4().hex[:10]}"
    admin = psycopg2.connect(url)
    admin.autocommit = True
    with admin.cursor() as cur:
        cur.execute(f'CREATE DATABASE "{database}"')
    admin.close()
    parts = urlsplit(url)
    target = urlunsplit(("postgresql+psycopg2", parts.netloc, f"/{database}", parts.query, ""))
    dagster_home = home_dir / "dagster"
    dagster_home.mkdir(parents=True, exist_ok=True)
    os.environ["ETALON_BENCH_PG_URL"] = target
    (dagster_home / "dagster.yaml").write_text(
        "storage:\n  postgres:\n    postgres_url: {env: ETALON_BENCH_PG_URL}\ntelemetry:\n  enabled: false\n",
        encoding="utf-8")
    return database


def drop_database(url: str, database: str) -> None:
    import psycopg2

    admin = psycopg2.connect(url)
    admin.autocommit = True
    with admin.cursor() as cur:
        cur.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    admin.close()


def import_all(home: Any, input_dir: Path) -> int:
    from app.actions import import_answers

    return sum(import_answers(home, f, f.stem).imported for f in sorted((input_dir / "answers").glob("*.jsonl")))


@contextmanager
def timed(into: dict[str, float], name: str) -> Iterator[None]:
    started = time.perf_counter()
    yield
    into[name] = into.get(name, 0.0) + time.perf_counter() - started


# -- the plain side -------------------------------------------------------------------------------------

def plain_inputs(home: Any) -> list[tuple[str, str]]:
    """Corpus, etalons and verified sources, as the corpus/etalons/etalon_sources assets do; returns the cells."""
    from citations import SetLookup
    from corpus.sources import sources_for
    from corpus.store import corpus_version, current_tables, refresh_source
    from etalons import store
    from etalons.loader import load_benchmarks
    from etalons.verify import verify_sources
    from evaluation.systems import load_systems
    from pipelines.observe import store_benchmarks
    from warehouse.lake import Lake

    lake = Lake(home.lake)
    lake.ensure_schemas()
    for source in sources_for(home.sources_file, home.inbox):
        refresh_source(lake, source, home.root / "sources" / source.name)
    result = load_benchmarks(home.etalons_dir)
    store_benchmarks(lake, result)
    at = store.now()
    for item in result.etalons:
        store.refresh_etalon(lake, item.code, item, False, at)
    documents, units = current_tables(lake)
    lookup, version = SetLookup.from_tables(documents, units), corpus_version(lake)
    for item in result.etalons:
        store.write_sources(lake, item.code, verify_sources(item, lookup), version)
    systems = [s.id for s in load_systems(home.systems_file).systems]
    return [(item.code, s) for item in sorted(result.etalons, key=lambda i: i.code) for s in systems]


def run_context(home: Any) -> Any:
    from evaluation.cells import RunContext
    from evaluation.client import ModelClient
    from evaluation.systems import load_systems
    from warehouse.lake import Lake

    return RunContext(lake=Lake(home.lake), home=home, systems=load_systems(home.systems_file),
                      client=ModelClient(cache_root=home.calls_cache))


def stage_functions() -> dict[str, Callable[[Any, str, str], str]]:
    from evaluation.cells import answer_cell, cite_cell, judge_cell
    from evaluation.scoring_cell import score_cell

    return {"answers": answer_cell, "citations": cite_cell, "judgments": judge_cell, "scores": score_cell}


def plain_cells(home: Any, cells: list[tuple[str, str]]) -> dict[str, str]:
    """Every stage over every cell, a fresh RunContext per stage; returns each cell's score data version."""
    versions: dict[str, str] = {}
    for name, stage in stage_functions().items():
        ctx = run_context(home)
        for code, system in cells:
            out = stage(ctx, code, system)
            if name == "scores":
                versions[f"{code}|{system}"] = out
    return versions


# -- the Dagster side -----------------------------------------------------------------------------------

def dagster_inputs(home: Any, pooled: bool = False) -> tuple[Any, Any]:
    """`pooled`: hold storage connections open, as dagster-webserver does (dagster-postgres otherwise opens a
    connection per storage call; SQLite ignores it)."""
    from app.runner import RunLog, instance_for, materialise_all
    from pipelines.observe import observe
    from warehouse.lake import Lake

    lake = Lake(home.lake)
    lake.ensure_schemas()
    instance = instance_for(home)
    if pooled:
        instance.optimize_for_webserver(statement_timeout=0, pool_recycle=3600, max_overflow=4)
    observe(instance, home, lake)
    log = RunLog()
    materialise_all(home, instance, [0, 1], log)
    return instance, log


def dagster_cells(home: Any, instance: Any, log: Any) -> None:
    from app.runner import materialise_all

    materialise_all(home, instance, [2], log)


def dagster_rest(home: Any, instance: Any, log: Any) -> None:
    from app.runner import absorb, materialise_all
    from warehouse.catalog import build_catalog
    from warehouse.lake import Lake

    materialise_all(home, instance, [3], log)
    absorb(instance)
    build_catalog(home.catalog, Lake(home.lake))


def run_overhead(home: Any, instance: Any, cell: tuple[str, str], runs: int) -> tuple[float, float]:
    """Seconds per single-partition run of `scores`, and per plain score_cell call, on the same cell."""
    from dagster import AssetKey

    from app.runner import run_partition
    from evaluation.scoring_cell import score_cell

    key = f"{cell[0]}|{cell[1]}"
    started = time.perf_counter()
    for _ in range(runs):
        run_partition(instance, [AssetKey("scores")], key)
    dagster = (time.perf_counter() - started) / runs
    started = time.perf_counter()
    for _ in range(runs):
        score_cell(run_context(home), *cell)
    return dagster, (time.perf_counter() - started) / runs


def stored_asset_events(instance: Any) -> dict[str, int]:
    """Materialisation and planned events the instance holds for the cell assets (each a stored row)."""
    from dagster import AssetKey

    counts = {"materializations": 0, "planned": 0}
    for stage in STAGES:
        cursor = None
        while True:
            page = instance.fetch_materializations(AssetKey(stage), limit=10_000, cursor=cursor)
            counts["materializations"] += len(page.records)
            if not page.has_more:
                break
            cursor = page.cursor
        counts["planned"] += len(instance.fetch_planned_materializations(AssetKey(stage), limit=1_000_000).records)
    return counts


def lake_scores(home: Any) -> dict[str, str | None]:
    from warehouse.lake import Lake

    rows = Lake(home.lake).read_all("scores").to_pylist()
    return {f"{r['code']}|{r['system']}": r["verdict"] for r in rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--etalons", type=int, default=50)
    parser.add_argument("--systems", type=int, default=4)
    parser.add_argument("--documents", type=int, default=100)
    parser.add_argument("--units", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5, help="single-partition runs timed for the per-run cost")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--full", action="store_true", help="issue #9's 10,000 documents, 2,000 x 25 cells")
    parser.add_argument("--keep", type=Path, default=None, help="work here and keep it (default: a temp dir)")
    parser.add_argument("--postgres", default=None, metavar="URL",
                        help="Dagster storage on this PostgreSQL server (a fresh database, dropped afterwards), "
                             "e.g. the ETALON_PG_URL that `eval \"$(bash ci/postgres.sh)\"` exports")
    parser.add_argument("--pooled", action="store_true",
                        help="hold PostgreSQL connections open (webserver-style pooling; app.runner.instance_for "
                             "does so itself since commit 7cf05ea, so this now changes nothing)")
    args = parser.parse_args(argv)
    scale = Scale(10_000, 1_000_000, 2_000, 25, args.seed) if args.full else \
        Scale(args.documents, args.units, args.etalons, args.systems, args.seed)
    work = args.keep or Path(tempfile.mkdtemp(prefix="etalon-orch-"))
    database = use_postgres(work / "dagster", args.postgres) if args.postgres else None
    try:
        report = measure(work, scale, args.runs, args.pooled)
        report["pooled_connections"] = args.pooled
        report["dagster_storage"] = "postgres" if database else "sqlite (default DAGSTER_HOME)"
    finally:
        if database:
            drop_database(args.postgres, database)
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(report, indent=1))
    return 0


def measure(work: Path, scale: Scale, runs: int, pooled: bool = False) -> dict[str, Any]:
    t: dict[str, float] = {}
    inputs = work / "input"
    with timed(t, "generate"):
        generated = generate(inputs, scale)
    cells = scale.etalons * scale.systems

    plain_home = use_home(inputs, work / "plain")
    with timed(t, "plain_import"):
        import_all(plain_home, inputs)
    with timed(t, "plain_inputs"):
        cell_list = plain_inputs(plain_home)
    with timed(t, "plain_cells"):
        plain_cells(plain_home, cell_list)

    home = use_home(inputs, work / "dagster")
    with timed(t, "dagster_import"):
        import_all(home, inputs)
    with timed(t, "dagster_inputs"):
        instance, log = dagster_inputs(home, pooled)
    with timed(t, "dagster_cells"):
        dagster_cells(home, instance, log)
    with timed(t, "dagster_analytics_catalog"):
        dagster_rest(home, instance, log)
    same = lake_scores(home) == lake_scores(plain_home)
    events = stored_asset_events(instance)
    per_run, per_call = run_overhead(home, instance, cell_list[0], runs)

    overhead = t["dagster_cells"] - t["plain_cells"]
    return {
        "scale": {"documents": scale.documents, "units": generated["units"], "etalons": scale.etalons,
                  "systems": scale.systems, "cells": cells},
        "seconds": {k: round(v, 2) for k, v in t.items()},
        "dagster_runs": log.runs, "failures": log.failures,
        "same_verdicts": same,
        "cells_ratio_dagster_over_plain": round(t["dagster_cells"] / t["plain_cells"], 2),
        "inputs_ratio_dagster_over_plain": round(t["dagster_inputs"] / t["plain_inputs"], 2),
        "overhead_ms_per_cell": round(1000 * overhead / cells, 2),
        "overhead_ms_per_partition_materialisation": round(1000 * overhead / (cells * len(STAGES)), 2),
        "stored_events_per_partition_materialisation": round(
            (events["materializations"] + events["planned"]) / (cells * len(STAGES)), 2),
        "single_partition_run_s": round(per_run, 3), "plain_score_cell_s": round(per_call, 4),
        "overhead_s_per_run": round(per_run - per_call, 3),
    }


if __name__ == "__main__":
    sys.exit(main())

"""Assembling the report from the warehouse: the analytics tables plus the evaluation passport."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from evaluation.report import render_report, write_report
from warehouse.catalog import memory_catalog, query
from warehouse.home import Home
from warehouse.lake import Lake


def _frame(lake: Lake, table: str) -> pl.DataFrame:
    data = lake.read_all(table)
    frame = pl.from_arrow(data)
    assert isinstance(frame, pl.DataFrame)
    return frame


def passport(home: Home, lake: Lake) -> dict[str, Any]:
    """What a reader needs to trust the numbers: which etalons, which systems, which judge, when, at what cost."""
    from evaluation.engine.stages.judgments import _prompt_files_hash
    from evaluation.observe_systems import systems_summary

    con = memory_catalog(lake)
    try:
        etalons = query(con, "SELECT benchmark, status, count(*) AS n FROM bench.etalons GROUP BY ALL ORDER BY ALL")
        versions = query(con, "SELECT benchmark, string_agg(code || ':' || version, ',' ORDER BY code) AS v "
                              "FROM bench.etalons GROUP BY benchmark")
        spend = query(con, "SELECT system, sum(tokens_in) AS tokens_in, sum(tokens_out) AS tokens_out, "
                           "sum(cost) AS cost, min(created_at) AS first, max(created_at) AS last "
                           "FROM eval.answers GROUP BY system ORDER BY system")
    finally:
        con.close()
    return {
        "benchmarks": {
            row["benchmark"]: {"version": hashlib.sha256(row["v"].encode()).hexdigest()[:12]}
            for row in versions.iter_rows(named=True)
        },
        "etalons": {f"{r['benchmark']} {r['status']}": r["n"] for r in etalons.iter_rows(named=True)},
        "systems": systems_summary(home),
        "judge prompts": _prompt_files_hash()[:12],
        "answers and spend": {r["system"]: {k: r[k] for k in ("tokens_in", "tokens_out", "cost", "first", "last")}
                              for r in spend.iter_rows(named=True)},
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def build_report(home: Home, lake: Lake) -> Path:
    html = render_report(
        leaderboard=_frame(lake, "leaderboard"),
        paired=_frame(lake, "paired"),
        passport=passport(home, lake),
        slices=_frame(lake, "slices"),
        judge_agreement=_frame(lake, "judge_agreement"),
        pass_at_k=_frame(lake, "pass_at_k"),
        calibration=_frame(lake, "calibration"),
    )
    target = home.report_dir / "index.html"
    write_report(target, html)
    return target

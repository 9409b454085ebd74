"""`etalon demo`: the whole pipeline, through Dagster, on the embedded sample.

The sample corpus, the 24 sample etalons, three systems' recorded answers, the sample signatures and the
sample reviewer's decisions go into $ETALON_HOME; every asset is materialised; the leaderboard is printed.
Running it again refreshes everything (idempotently: nothing is duplicated) while analysts keep querying.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import yaml

from app.actions import Refused, apply_sample_decisions, import_answers, sign
from app.runner import RunLog, absorb, instance_for, materialise_all
from pipelines.observe import observe
from warehouse.catalog import build_catalog, connect
from warehouse.home import SAMPLE_ANSWERS, SAMPLE_DECISIONS, SAMPLE_ETALONS, Home, resolve_home
from warehouse.lake import Lake

SAMPLE_SIGNATURES = SAMPLE_DECISIONS.parent / "signatures.yaml"


def demo_home(root: Path | None) -> Home:
    """The demo reads the embedded sample, whatever etalons or systems the current directory has."""
    os.environ["ETALON_ETALONS"] = str(SAMPLE_ETALONS)
    os.environ["ETALON_SYSTEMS"] = str(SAMPLE_ETALONS / "systems.yaml")
    return resolve_home(root)


def run_demo(root: Path | None, echo: Callable[[str], None]) -> RunLog:
    """Everything, explicitly, in stage order; then one automation tick absorbs it, so that a later
    `etalon update` (or `dagster dev`) starts from a settled state and requests only what changes next."""
    home = demo_home(root)
    lake = Lake(home.lake)
    lake.ensure_schemas()
    instance = instance_for(home)
    log = RunLog()
    echo(f"warehouse: {home.root}")
    for answers in sorted(SAMPLE_ANSWERS.glob("*.jsonl")):
        summary = import_answers(home, answers, answers.stem)
        problems = f", {len(summary.errors)} problem(s)" if summary.errors else ""
        echo(f"imported {summary.imported} answer(s) of {answers.stem}{problems}")
    added, skipped = apply_sample_decisions(lake, SAMPLE_DECISIONS, home.etalons_dir) \
        if SAMPLE_DECISIONS.exists() else (0, [])
    for problem in skipped:
        echo(f"sample decision skipped: {problem}")
    echo(f"recorded {added} new sample reviewer decision(s)")
    observe(instance, home, lake)
    materialise_all(home, instance, [0, 1], log, echo)          # corpus, etalons, verified sources
    _sign_sample(home, lake, echo)
    materialise_all(home, instance, [2, 3], log, echo)          # cells, then analytics and the report
    absorb(instance)
    build_catalog(home.catalog, lake)
    return log


def _sign_sample(home: Home, lake: Lake, echo: Callable[[str], None]) -> None:
    signed = {(s["code"], s["version"]) for s in lake.read_all("signatures").to_pylist()}
    data = yaml.safe_load(SAMPLE_SIGNATURES.read_text(encoding="utf-8")) or {}
    from etalons.store import current

    for item in data.get("signatures", []):
        stored = current(lake, item["code"])
        if stored is None or (item["code"], stored[0]["version"]) in signed:
            continue
        try:
            sign(home, item["code"], item["by"])
        except Refused as exc:
            echo(f"not signed: {exc}")


def leaderboard_text(home: Home) -> str:
    con = connect(home.catalog)
    try:
        rows = con.execute("""
            SELECT benchmark, system, n, round(mean_score, 1), round(ci_low, 1), round(ci_high, 1),
                   positive, partial, negative, needs_input
            FROM eval.leaderboard ORDER BY benchmark, mean_score DESC NULLS LAST""").fetchall()
    finally:
        con.close()
    header = ("benchmark", "system", "n", "mean", "ci_low", "ci_high", "pos", "part", "neg", "open")
    table = [header, *[tuple("" if v is None else str(v) for v in r) for r in rows]]
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in table)

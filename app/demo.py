"""`etalon demo`: the whole pipeline, through Dagster, on the embedded sample.

The sample corpus, the 24 sample etalons, three systems' recorded answers, the sample signatures and the
sample reviewer's decisions go into $ETALON_HOME; every asset is materialised; the leaderboard is printed.
Running it again refreshes everything (idempotently: nothing is duplicated) while analysts keep querying.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.actions import apply_sample_decisions, import_answers
from app.runner import RunLog, update
from evaluation.engine.world import World
from warehouse.catalog import connect
from warehouse.home import SAMPLE_ANSWERS, SAMPLE_DECISIONS, SAMPLE_ETALONS, Home, resolve_home
from warehouse.lake import Lake

SAMPLE_SIGNATURES = SAMPLE_DECISIONS.parent / "signatures.yaml"


def demo_home(root: Path | None) -> Home:
    """The demo reads the embedded sample, whatever etalons or systems the current directory has."""
    os.environ["ETALON_ETALONS"] = str(SAMPLE_ETALONS)
    os.environ["ETALON_SYSTEMS"] = str(SAMPLE_ETALONS / "systems.yaml")
    return resolve_home(root)


def run_demo(root: Path | None, echo: Callable[[str], None], progress: Any = None) -> RunLog:
    """The sample's inputs, then one update: the corpus first (signing checks sources against it), the sample
    signatures, then everything else. Running it again changes nothing and says so."""
    home = demo_home(root)
    lake = Lake(home.lake)
    lake.ensure_schemas()
    echo(f"warehouse: {home.root}")
    for answers in sorted(SAMPLE_ANSWERS.glob("*.jsonl")):
        summary = import_answers(home, answers, answers.stem)
        problems = f", {len(summary.errors)} problem(s)" if summary.errors else ""
        echo(f"imported {summary.imported} answer(s) of {answers.stem}{problems}")
    _advance(progress, "sample decisions")
    added, skipped = apply_sample_decisions(home, SAMPLE_DECISIONS) \
        if SAMPLE_DECISIONS.exists() else (0, [])
    for problem in skipped:
        echo(f"sample decision skipped: {problem}")
    echo(f"recorded {added} new sample reviewer decision(s)")
    _register_sample(home, echo)
    _advance(progress, "update")
    # One update; the sample signatures go in once the corpus is current (signing checks sources against it).
    return update(home, echo, progress=progress, after={"corpus": lambda world: _sign_sample(world, lake, echo)})


def _register_sample(home: Home, echo: Callable[[str], None]) -> None:
    """The demo is the one command that asks for the embedded sample: it registers it as a corpus source (at the
    sample's priority, so a document a person ingested is never shadowed by its abridged copy)."""
    from corpus.sources import ensure_sample

    source, written = ensure_sample(home.sources_file, home.inbox)
    if written:
        echo(f"registered the embedded sample as corpus source {source.name!r} in {home.sources_file}")


def _advance(progress: Any, next_step: str) -> None:
    if progress is not None:
        progress.advance()
        progress.step(next_step)


def _sign_sample(world: World, lake: Lake, echo: Callable[[str], None]) -> None:
    """The sample signatures as sealed events only: the rest of the update verifies them and refreshes the
    leaderboards once (signing one by one did that, and woke the journal flusher, 22 times)."""
    from etalons.yamlsafe import load_file
    from evaluation.engine.humans import Refused as NotSigned
    from evaluation.engine.humans import record_signature

    signed = {(s["code"], s["version"]) for s in lake.read_all("signature_ledger").to_pylist()}
    data = load_file(SAMPLE_SIGNATURES)
    versions = {e.code: e.version for e in world.loaded.etalons}
    for item in (data or {}).get("signatures", []):
        if (item["code"], versions.get(item["code"])) in signed:
            continue
        try:
            record_signature(world, item["code"], item["by"], via="sample")
        except NotSigned as exc:
            echo(f"not signed: {exc}")


def leaderboard_text(home: Home) -> str:
    """The leaderboard, one block of rows per benchmark and methodology: a lesto score and a stielegi score are
    points on two different rubrics, so a system's mean over both (eval.leaderboard's row where a benchmark
    mixes them) is never printed. The figures are the report's boards (evaluation.report.boards)."""
    from evaluation.report import ReportData, boards
    from warehouse.catalog import query

    con = connect(home.catalog)
    try:
        data = ReportData(scores=query(con, "SELECT * FROM eval.scores WHERE is_current"),
                          views={"leaderboard": query(con, "SELECT * FROM eval.leaderboard")})
    finally:
        con.close()
    header = ("benchmark", "methodology", "system", "n", "mean", "ci_low", "ci_high", "pos", "part", "neg", "open")
    table: list[tuple[str, ...]] = [header]
    for board in boards(data):
        for row in board.table("leaderboard").iter_rows(named=True):
            table.append(tuple("" if v is None else str(round(v, 1) if isinstance(v, float) else v) for v in (
                board.benchmark, board.methodology, row["system"], row["n"], row["mean_score"], row["ci_low"],
                row["ci_high"], row["positive"], row["partial"], row["negative"], row["needs_input"])))
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in table]
    return "\n".join(lines)

"""The evaluation report: one self-contained folder, `$ETALON_HOME/report/`.

`index.html` holds one board per benchmark and methodology (leaderboard with intervals, verdicts, slices,
paired comparisons, pass@k, calibration), the judge's agreement, the systems, the etalons and the evaluation
passport; `systems/*.html` and `etalons/*.html` give every cell with the rule that decided its verdict;
`report.md` has the boards' tables in Markdown. Links are relative, nothing is loaded from the network, every
text from the data is escaped, and the folder is replaced whole (`write_site`).

    build_report(home, lake)                       # read the catalog views, write the folder
    render_site(data) -> {relative path: text}     # the pages, from a ReportData (read() or from_scores())
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from evaluation.report.boards import Board, boards
from evaluation.report.common import Links
from evaluation.report.data import ReportData, from_scores, passport, read
from evaluation.report.markdown import markdown_report
from evaluation.report.pages_detail import etalon_page, system_page
from evaluation.report.pages_index import index_page
from evaluation.report.site import write_site
from warehouse.home import Home
from warehouse.lake import Lake

__all__ = ["Board", "ReportData", "boards", "build_report", "from_scores", "markdown_report", "read",
           "render_site", "write_site"]

TITLE = "Etalon evaluation report"


def render_site(data: ReportData, *, title: str = TITLE, generated_at: str | None = None) -> dict[str, str]:
    generated = generated_at or datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    board_list = boards(data)
    scores = data.scores
    systems = sorted({str(s) for s in scores["system"].to_list()}) if scores.height else []
    etalon_rows: dict[str, dict[str, Any]] = {}
    if data.etalons.height:
        for row in data.etalons.iter_rows(named=True):
            etalon_rows[str(row["code"])] = row
    for row in scores.select("benchmark", "code", "methodology").unique().iter_rows(named=True) \
            if scores.height else []:
        etalon_rows.setdefault(str(row["code"]), row)
    links = Links.of(systems, etalon_rows)
    info = data.passport.get("systems") if isinstance(data.passport.get("systems"), dict) else {}
    assert isinstance(info, dict)
    files = {"index.html": index_page(data, board_list, links, title=title, generated=generated),
             "report.md": f"# {title}\n\nGenerated {generated}.\n\n"
                          + markdown_report(board_list, data.view("judge_agreement"))}
    for system in systems:
        files[f"systems/{links.systems[system]}"] = system_page(system, scores, board_list, links, etalon_rows,
                                                                data.answers, info.get(system))
    # One pass per table instead of one filter per etalon: a benchmark of 100,000 etalons stays linear.
    by_code = {name: _by_code(frame) for name, frame in (("scores", scores), ("sources", data.sources),
               ("answers", data.answers), ("citations", data.citations), ("review", data.review))}
    for code, etalon in etalon_rows.items():
        mine = {name: parts.get(code, pl.DataFrame()) for name, parts in by_code.items()}
        files[f"etalons/{links.etalons[code]}"] = etalon_page(
            code, etalon, mine["scores"], board_list, links, mine["sources"], mine["answers"], mine["citations"],
            mine["review"])
    return files


def _by_code(frame: pl.DataFrame) -> dict[str, pl.DataFrame]:
    if frame.is_empty() or "code" not in frame.columns:
        return {}
    return {str(key[0]): part for key, part in frame.partition_by("code", as_dict=True).items()}


def build_report(home: Home, lake: Lake) -> Path:
    """Read the catalog's views and write `home.report_dir` whole; returns the path of index.html."""
    from evaluation.observe_systems import systems_summary
    from warehouse.catalog import memory_catalog

    con = memory_catalog(lake)
    try:
        data = read(con)
        data = replace(data, passport=passport(con, systems_summary(home)))
    finally:
        con.close()
    folder = write_site(Path(home.report_dir), render_site(data))
    return folder / "index.html"

"""The evaluation report: one self-contained folder, `$ETALON_HOME/report/`.

`index.html` holds one board per benchmark and methodology (leaderboard with intervals, verdicts, slices,
paired comparisons, pass@k, calibration), the judge's agreement, the systems, the etalons and the evaluation
passport; `systems/*.html` and `etalons/*.html` give every cell with the rule that decided its verdict;
`report.md` has the boards' tables in Markdown. Links are relative, nothing is loaded from the network, every
text from the data is escaped, and the folder is replaced whole (`write_site`).

    build_report(home, lake)                       # read the catalog views, write the folder
    render_site(data) -> {relative path: text}     # the pages, from a ReportData (read() or from_scores())

A page per etalon and per system means the site grows with the cells; after one decision or one edited etalon
only a few pages differ. `render_site` therefore takes `reuse(path, key)`: each etalon and system page has a
key, the digest of everything it is drawn from, and a page whose key is unchanged is taken from the previous
build instead of drawn again (build_report keeps the keys in `state/report-pages.json`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from evaluation.report.boards import Board, boards
from evaluation.report.common import Links
from evaluation.report.data import ReportData, from_scores, passport, read
from evaluation.report.markdown import markdown_report
from evaluation.report.pages.detail import etalon_page, system_page
from evaluation.report.pages.index import index_page
from evaluation.report.site import write_site
from warehouse.home import Home
from warehouse.lake import Lake

__all__ = ["Board", "ReportData", "boards", "build_report", "from_scores", "markdown_report", "read",
           "render_site", "write_site"]

TITLE = "Etalon evaluation report"


Reuse = Callable[[str, str], "str | None"]


def _no_reuse(path: str, key: str) -> str | None:
    return None


def _frame_key(frame: pl.DataFrame) -> str:
    """Order-independent digest of a frame's rows (and its columns): equal content, equal key."""
    if frame.is_empty():
        return f"empty:{','.join(frame.columns)}"
    return f"{frame.height}:{','.join(frame.columns)}:{int(frame.hash_rows(seed=7).sum())}"


def _page_key(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, default=str, sort_keys=True).encode("utf-8")).hexdigest()[:24]


def _summaries(boards: Sequence[Board], system: str) -> list[Any]:
    """The system's leaderboard row on each board: its page shows the mean and the interval."""
    out = []
    for board in boards:
        table = board.table("leaderboard")
        if table.height and "system" in table.columns:
            out.append(table.filter(pl.col("system") == system).rows())
    return out


def _bands(boards: Sequence[Board]) -> list[Any]:
    return [(b.benchmark, b.methodology, repr(b.bands)) for b in boards]


def render_site(data: ReportData, *, title: str = TITLE, generated_at: str | None = None,
                reuse: Reuse = _no_reuse, keys: dict[str, str] | None = None) -> dict[str, str]:
    """Every page; `reuse(path, key)` may return a page drawn before from the same inputs, and `keys`
    (when given) receives each etalon and system page's key."""
    keys = {} if keys is None else keys
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
    bands = _bands(board_list)
    shared = (bands, sorted(links.systems.items()), sorted(links.etalons.items()))
    by_system = {name: _by(frame, "system") for name, frame in (("scores", scores), ("answers", data.answers))}
    for system in systems:
        path = f"systems/{links.systems[system]}"
        mine_s = {name: parts.get(system, pl.DataFrame()) for name, parts in by_system.items()}
        codes = sorted({str(c) for c in mine_s["scores"]["code"].to_list()}) if mine_s["scores"].height else []
        key = keys[path] = _page_key("system", system, shared, info.get(system), _frame_key(mine_s["scores"]),
                                     _frame_key(mine_s["answers"].select([c for c in ("code", "attempt", "error")
                                                                          if c in mine_s["answers"].columns])),
                                     [etalon_rows.get(c) for c in codes], _summaries(board_list, system))
        files[path] = reuse(path, key) or system_page(system, mine_s["scores"], board_list, links, etalon_rows,
                                                      mine_s["answers"], info.get(system))
    # One pass per table instead of one filter per etalon: a benchmark of 100,000 etalons stays linear.
    by_code = {name: _by(frame, "code") for name, frame in (("scores", scores), ("sources", data.sources),
               ("answers", data.answers), ("citations", data.citations), ("review", data.review))}
    for code, etalon in etalon_rows.items():
        path = f"etalons/{links.etalons[code]}"
        mine = {name: parts.get(code, pl.DataFrame()) for name, parts in by_code.items()}
        key = keys[path] = _page_key("etalon", code, etalon, shared, [_frame_key(f) for f in mine.values()])
        files[path] = reuse(path, key) or etalon_page(
            code, etalon, mine["scores"], board_list, links, mine["sources"], mine["answers"], mine["citations"],
            mine["review"])
    return files


def _by(frame: pl.DataFrame, column: str) -> dict[str, pl.DataFrame]:
    if frame.is_empty() or column not in frame.columns:
        return {}
    return {str(key[0]): part for key, part in frame.partition_by(column, as_dict=True).items()}


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
    folder = Path(home.report_dir)
    manifest = Path(home.root) / "state" / "report-pages.json"
    try:
        before: dict[str, str] = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        before = {}

    def reuse(path: str, key: str) -> str | None:
        if before.get(path) != key:
            return None
        try:
            return (folder / path).read_text(encoding="utf-8")
        except OSError:
            return None

    keys: dict[str, str] = {}
    files = render_site(data, reuse=reuse, keys=keys)
    manifest.unlink(missing_ok=True)     # never a manifest that vouches for pages the folder does not hold
    write_site(folder, files)
    manifest.parent.mkdir(parents=True, exist_ok=True)
    tmp = manifest.with_suffix(".tmp")
    tmp.write_text(json.dumps(keys, sort_keys=True), encoding="utf-8")
    tmp.replace(manifest)
    return folder / "index.html"

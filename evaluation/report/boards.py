"""One board per benchmark and methodology: scores of different methodologies are never averaged together.

A lesto score and a știeLegi score are points on two different rubrics, so a mean over both answers no question
anyone asks. `eval.leaderboard` is per benchmark; where a benchmark holds one methodology (the usual case) the
board shows the view's rows as they are. Where it mixes several, each methodology gets its own board, computed
from `eval.scores` by the very functions behind the views, and the page says that the view's figure for that
benchmark mixes rubrics.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from evaluation import analytics
from evaluation.report.data import ReportData
from evaluation.report.format import slug
from evaluation.report.rules import Bands, bands_for

PER_BENCHMARK = ("leaderboard", "slices", "paired", "pass_at_k", "calibration")


@dataclass(frozen=True)
class Board:
    benchmark: str
    methodology: str
    mixed_with: tuple[str, ...]        # the benchmark's other methodologies (empty: it holds only this one)
    scores: pl.DataFrame               # this board's current scores
    tables: dict[str, pl.DataFrame]    # leaderboard, slices, paired, pass_at_k, calibration of this board
    bands: Bands | None                # score bands behind the verdicts; None: not known here, not guessed

    @property
    def anchor(self) -> str:
        return "board-" + slug(f"{self.benchmark}-{self.methodology}")

    @property
    def title(self) -> str:
        return f"{self.benchmark} · {self.methodology}"

    def table(self, name: str) -> pl.DataFrame:
        return self.tables.get(name, pl.DataFrame())


def _of_benchmark(frame: pl.DataFrame, benchmark: str) -> pl.DataFrame:
    if frame.is_empty() or "benchmark" not in frame.columns:
        return frame
    return frame.filter(pl.col("benchmark") == benchmark)


def _computed(scores: pl.DataFrame) -> dict[str, pl.DataFrame]:
    return {
        "leaderboard": analytics.leaderboard(scores),
        "slices": analytics.slices(scores),
        "paired": analytics.paired(scores),
        "pass_at_k": analytics.pass_at_k(scores),
        "calibration": analytics.calibration(scores),
    }


def boards(data: ReportData) -> list[Board]:
    scores = data.scores
    if scores.is_empty() or "methodology" not in scores.columns:
        return []
    pairs = scores.select("benchmark", "methodology").unique().sort("benchmark", "methodology", nulls_last=True)
    out = []
    for benchmark in pairs["benchmark"].unique(maintain_order=True).to_list():
        methodologies = pairs.filter(pl.col("benchmark") == benchmark)["methodology"].to_list()
        for methodology in methodologies:
            mine = scores.filter((pl.col("benchmark") == benchmark) & (pl.col("methodology") == methodology))
            if len(methodologies) == 1:
                tables = {name: _of_benchmark(data.view(name), benchmark) for name in PER_BENCHMARK}
            else:
                tables = _computed(mine)
            for name in ("leaderboard_corrected", "judge_error"):   # per methodology already, or per kind
                tables[name] = _of_benchmark(data.view(name), benchmark)
            overrides = None if data.overrides is None else data.overrides.get(str(benchmark), {})
            bands = None if data.overrides is None else bands_for(str(methodology), overrides)
            others = tuple(str(m) for m in methodologies if m != methodology)
            out.append(Board(str(benchmark), str(methodology), others, mine, tables, bands))
    return out

"""The boards' tables as Markdown (for Dagster asset metadata and `report.md` in the folder), with the view
columns' own names, so that an analyst can take any figure straight to SQL."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from evaluation.report.boards import Board
from evaluation.report.format import DASH, missing

LEADERBOARD_COLUMNS = ("system", "n", "mean_score", "ci_low", "ci_high", "positive", "partial", "negative",
                       "needs_input", "errors", "positive_rate", "positive_low", "positive_high")
PAIRED_COLUMNS = ("system_a", "system_b", "n", "both", "only_a", "only_b", "neither", "mcnemar_p", "diff",
                  "diff_low", "diff_high")
CORRECTED_COLUMNS = ("system", "indicative", "n", "judged", "audited", "too_few_audit", "mean_score_judge",
                     "ci_low_judge", "ci_high_judge", "mean_score_corrected", "ci_low_corrected", "ci_high_corrected",
                     "positive_rate_judge", "positive_rate_corrected", "half_width", "half_width_if_doubled")
ERROR_COLUMNS = ("kind", "elements", "audited", "too_few_audit", "error_rate", "error_low", "error_high",
                 "judge_yes_human_no", "judge_no_human_yes")
JUDGE_COLUMNS = ("kind", "elements", "missing_verdicts", "run_pairs", "run_agreement", "run_kappa",
                 "human_pairs", "human_agreement", "human_kappa")


def _cell(value: object) -> str:
    if missing(value):
        return DASH
    if isinstance(value, float):
        if 0 < abs(value) < 0.001:
            return f"{value:.1e}"  # a p-value of 3e-9 is not "0.000"
        return f"{value:.3f}" if abs(value) < 1000 else f"{value:,.0f}"
    # Markdown renderers pass HTML through: untrusted text becomes entities, so it shows and never runs.
    text = str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(frame: pl.DataFrame, columns: Sequence[str]) -> str:
    columns = [c for c in columns if c in frame.columns]
    if not columns or frame.is_empty():
        return ""
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in frame.select(columns).iter_rows(named=True):
        lines.append("| " + " | ".join(_cell(row[c]) for c in columns) + " |")
    return "\n".join(lines)


def markdown_report(boards: Sequence[Board], judge_agreement: pl.DataFrame | None = None) -> str:
    sections = []
    for board in boards:
        text = f"### {_cell(board.title)}\n\n" + markdown_table(board.table("leaderboard"), LEADERBOARD_COLUMNS)
        if board.mixed_with:
            text += (f"\n\nComputed from eval.scores for {board.methodology} alone: eval.leaderboard's row for "
                     f"{board.benchmark} also averages {', '.join(board.mixed_with)}.")
        corrected = board.table("leaderboard_corrected")
        if corrected.height and "methodology" in corrected.columns:
            mine = corrected.filter(pl.col("methodology") == board.methodology)
            if mine.height and int(mine["judged"].sum()):
                text += "\n\nCorrected for the judge's errors (eval.leaderboard_corrected)\n\n" + markdown_table(
                    mine, CORRECTED_COLUMNS)
                errors = markdown_table(board.table("judge_error"), ERROR_COLUMNS)
                if errors:
                    text += "\n\nThe judge's measured error per element kind (eval.judge_error)\n\n" + errors
        pairs = markdown_table(board.table("paired"), PAIRED_COLUMNS)
        if pairs:
            text += "\n\nPaired comparisons\n\n" + pairs
        sections.append(text)
    if judge_agreement is not None and judge_agreement.height:
        sections.append("### Judge agreement\n\n" + markdown_table(judge_agreement, JUDGE_COLUMNS))
    return "\n\n".join(sections) + "\n"

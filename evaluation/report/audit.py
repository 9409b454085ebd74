"""The board's section beside the leaderboard: the figures corrected for the judge's errors.

Each system's mean score and positive rate as the judge gives them and corrected with the audit sample's labels
(eval.leaderboard_corrected), how many answers were audited, a plain marking where too few were for the
corrected figure to mean anything, the judge's measured error per element kind (eval.judge_error), and the
planner's sentence: what more audited answers would buy.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from evaluation.report.boards import Board
from evaluation.report.common import Column, Links, Row, mean_with_interval, rate_with_interval, rows, table
from evaluation.report.format import esc, num, pct, words


def _mine(frame: pl.DataFrame, board: Board) -> pl.DataFrame:
    if frame.is_empty() or "benchmark" not in frame.columns:
        return pl.DataFrame()
    out = frame.filter(pl.col("benchmark") == board.benchmark)
    if "methodology" in out.columns:
        out = out.filter(pl.col("methodology") == board.methodology)
    return out


def _audited(row: Row) -> str:
    judged, audited = int(row.get("judged") or 0), int(row.get("audited") or 0)
    if judged == 0:
        return "<span class='sub'>nothing the judge settled</span>"
    body = f"<span class='mean'>{esc(num(audited))}</span><span class='ci'>of {esc(num(judged))} judged</span>"
    if row.get("too_few_audit"):
        return (f"<span class='few' data-testid='too-few' title='fewer than 10 audited answers'>{body}"
                "<span class='ci'><b>too few</b></span></span>")
    return body


def _corrected(row: Row) -> str:
    if row.get("mean_score_corrected") is None:
        return "–" if int(row.get("judged") or 0) else mean_with_interval(
            "mean_score_judge", "ci_low_judge", "ci_high_judge", None)(row)
    shown = mean_with_interval("mean_score_corrected", "ci_low_corrected", "ci_high_corrected", None)(row)
    if row.get("too_few_audit"):
        return f"<span class='few' title='too few audited answers for this figure to mean much'>{shown}</span>"
    return shown


def _plan(row: Row) -> str | None:
    """The planner's sentence for one system, or None when there is nothing to plan from."""
    audited, half = int(row.get("audited") or 0), row.get("half_width")
    if not audited or half is None:
        return None
    name = esc(row["system"])
    target, more = row.get("target_half_width"), row.get("more_audited_for_target")
    if target is not None:
        if more is None:
            return (f"{name}: no number of audited answers brings ±{esc(num(half))} to ±{esc(num(target))}: the "
                    "etalons' own spread is wider; more etalons are needed.")
        if more == 0:
            return f"{name}: ±{esc(num(half))} already meets the target ±{esc(num(target))}."
        return (f"{name}: {esc(num(more))} more audited answers would bring ±{esc(num(half))} to the target "
                f"±{esc(num(target))}.")
    doubled = row.get("half_width_if_doubled")
    if doubled is None:
        return None
    return f"{name}: {esc(num(audited))} more audited answers would bring ±{esc(num(half))} to ±{esc(num(doubled))}."


def corrected_section(board: Board, corrected: pl.DataFrame, errors: pl.DataFrame, links: Links) -> str:
    frame = _mine(corrected, board)
    if frame.is_empty():
        return ("<p class='note'>No corrected figures for this board: eval.leaderboard_corrected has no row for it "
                "(no scored answer yet).</p>")
    signed = frame.filter(~pl.col("indicative"))
    shown = signed if signed.height else frame.filter(pl.col("indicative"))
    board_rows = rows(shown.sort("mean_score_judge", "system", descending=[True, False], nulls_last=True))
    if not any(int(r.get("judged") or 0) for r in board_rows):
        return ("<p class='note'>Nothing here was settled by the judge alone (every judged element was decided by a "
                "lawyer, or no judge is configured): the leaderboard's figures need no correction.</p>")
    intro = ("<p class='note'>Every figure above leans on the judge wherever lawyers have not decided. Here the same "
             "means and positive rates as the judge gives them, and corrected for the judge's errors measured on a "
             "random sample of what it settled, labelled blind by lawyers (prediction-powered inference, PPI++): "
             "the corrected 95% interval accounts for both the sampling of etalons and the judge's error.")
    if not signed.height:
        intro += " No etalon is signed yet: the figures are over the unsigned (indicative) ones."
    intro += "</p>"
    if all(int(r.get("sampled") or 0) == 0 and r.get("mean_score_corrected") is None for r in board_rows):
        intro += ("<p class='warn' data-testid='no-audit'>No audit sample yet: add <code>audit: {rate: 0.05, "
                  "min_per_stratum: 5, seed: …}</code> to benchmark.yaml and label the items of situation "
                  "<code>audit</code> in <code>etalon review list</code>. Until then there is no corrected figure: "
                  "the judge-only one is all there is.</p>")
    columns = [
        Column("System", lambda r: links.system(r["system"]), source="system"),
        Column("Judge-only mean, 95%", mean_with_interval("mean_score_judge", "ci_low_judge", "ci_high_judge", None),
               True, "mean_score_judge, ci_low_judge, ci_high_judge"),
        Column("Corrected mean, 95%", _corrected, True, "mean_score_corrected, ci_low_corrected, ci_high_corrected"),
        Column("Audited answers", _audited, True, "audited, judged, too_few_audit"),
        Column("Positive, judge-only", rate_with_interval("positive_rate_judge", "positive_low_judge",
                                                          "positive_high_judge"), True, "positive_rate_judge"),
        Column("Positive, corrected", rate_with_interval("positive_rate_corrected", "positive_low_corrected",
                                                         "positive_high_corrected"), True, "positive_rate_corrected"),
        Column("Negative, judge-only → corrected", lambda r: esc(f"{pct(r.get('negative_rate_judge'))} → "
                                                               f"{pct(r.get('negative_rate_corrected'))}"),
               True, "negative_rate_judge, negative_rate_corrected"),
    ]
    out = intro + table(board_rows, columns, "corrected")
    few = [r for r in board_rows if r.get("too_few_audit")]
    if few:
        out += ("<p class='warn' data-testid='too-few-note'>Too few audit labels for the corrected figure to mean "
                "anything (under 10 audited answers): " + ", ".join(esc(r["system"]) for r in few)
                + ". Label more items of situation <code>audit</code>.</p>")
    plans = [p for p in (_plan(r) for r in board_rows) if p]
    if plans:
        out += ("<p class='note' data-testid='planner'>What more audit labels buy (the corrected interval's "
                "half-width, in points): " + " ".join(plans) + "</p>")
    out += _errors(board, errors)
    return out


def _errors(board: Board, errors: pl.DataFrame) -> str:
    frame = errors.filter(pl.col("benchmark") == board.benchmark) if errors.height and "benchmark" in \
        errors.columns else pl.DataFrame()
    if frame.is_empty():
        return ""
    def rate(key: str) -> Any:
        return lambda r: esc(pct(r.get(key), 1))

    columns = [
        Column("Element kind", lambda r: esc(words(r["kind"])), source="kind"),
        Column("Settled by the judge", lambda r: esc(num(r.get("elements"))), True, "elements"),
        Column("Audited", lambda r: esc(num(r.get("audited"))) + (
            " <b class='few' data-testid='too-few-kind'>too few</b>" if r.get("too_few_audit") else ""),
            True, "audited, too_few_audit"),
        Column("Judge wrong, 95%", rate_with_interval("error_rate", "error_low", "error_high"), True,
               "error_rate, error_low, error_high"),
        Column("Judge yes, lawyer no", rate("judge_yes_human_no"), True, "judge_yes_human_no"),
        Column("Judge no, lawyer yes", rate("judge_no_human_yes"), True, "judge_no_human_yes"),
    ]
    return ("<h4>The judge's measured error per element kind</h4><p class='note'>Over the audited elements, each "
            "weighted by the inverse of its answer's chance of being drawn; \"judge no, lawyer yes\" is the omission "
            "no other review sees (for a grade: the judge gave a lower one).</p>"
            + table(rows(frame), columns, "judge-error"))

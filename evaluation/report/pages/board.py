"""One board of the main page: a benchmark under one methodology, plots first, every number with its interval.

Each part is always there, with a sentence saying why when it has nothing to show (a single attempt has no
pass@k; answers without a stated confidence have no calibration), so a reader never wonders whether a
section was forgotten.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from evaluation.analytics import SLICE_DIMENSIONS, both_orientations
from evaluation.report.audit import corrected_section
from evaluation.report.boards import Board
from evaluation.report.common import (
    Column,
    Links,
    Row,
    mean_with_interval,
    number,
    rate_with_interval,
    rows,
    section,
    table,
)
from evaluation.report.format import MIN_N, esc, interval, missing, num, p_value, pct, signed, words
from evaluation.report.svg import (
    IntervalRow,
    ReliabilityPoint,
    VerdictRow,
    interval_plot,
    reliability_plot,
    verdict_stacks,
)

SYSTEMS_PER_TABLE = 4   # slice and matrix tables split their system columns so they never scroll sideways


def board_section(board: Board, links: Links) -> str:
    board_rows = rows(board.table("leaderboard"))
    systems = [str(r["system"]) for r in board_rows]
    parts = [_preamble(board)]
    parts.append(section(f"{board.anchor}-leaderboard", "Leaderboard", _leaderboard(board, board_rows, links), 3))
    parts.append(section(f"{board.anchor}-corrected", "Corrected for the judge's errors", corrected_section(
        board, board.table("leaderboard_corrected"), board.table("judge_error"), links), 3))
    parts.append(section(f"{board.anchor}-verdicts", "Verdicts per system", _verdicts(board, board_rows), 3))
    parts.append(section(f"{board.anchor}-slices", "Slices", _slices(board, systems), 3))
    parts.append(section(f"{board.anchor}-paired", "Paired comparisons", _paired(board, systems, links), 3))
    parts.append(section(f"{board.anchor}-pass-at-k", "Several attempts: pass@k", _pass_at_k(board, links), 3))
    parts.append(section(f"{board.anchor}-calibration", "Calibration", _calibration(board, links), 3))
    return f"<section class='board' id='{esc(board.anchor)}'><h2>{esc('Benchmark ' + board.title)}</h2>" \
           + "".join(parts) + "</section>"


def _preamble(board: Board) -> str:
    text = (f"Etalons of benchmark <code>{esc(board.benchmark)}</code> scored by the "
            f"<code>{esc(board.methodology)}</code> methodology, on its 0–100 scale.")
    if board.bands is not None:
        text += (f" Verdicts: negative below {num(board.bands.negative_below, 0)}, positive from "
                 f"{num(board.bands.positive_at, 0)}, partial in between, unless a rule of the methodology "
                 "decides first (a confirmed critical or gross error, a missing mandatory source).")
    out = f"<p class='note'>{text}</p>"
    if board.mixed_with:
        others = ", ".join(f"<code>{esc(m)}</code>" for m in board.mixed_with)
        out += (f"<p class='warn'>This benchmark also holds etalons scored by {others}: those scores are points on "
                "another rubric and have their own board. The figures here are computed from "
                "<code>eval.scores</code> for this methodology alone; the row of <code>eval.leaderboard</code> "
                "for this benchmark averages both rubrics and is not shown.</p>")
    return out


def _leaderboard(board: Board, board_rows: list[dict[str, Any]], links: Links) -> str:
    if not board_rows:
        return "<p class='note'>No scored answers yet.</p>"
    plot = interval_plot([IntervalRow(str(r["system"]), r.get("mean_score"), r.get("ci_low"), r.get("ci_high"),
                                      int(r.get("etalons") or r.get("n") or 0)) for r in board_rows],
                         f"{board.anchor}-interval", f"Mean score with 95% interval, {board.title}",
                         None if board.bands is None else (board.bands.negative_below, board.bands.positive_at))
    columns = [
        Column("System", lambda r: links.system(r["system"]), source="system"),
        Column("Etalons", _etalons_and_answers, True, "etalons (n: scored answers)"),
        Column("Mean score, 95% interval", mean_with_interval(), True, "mean_score, ci_low, ci_high"),
        Column("Positive", number("positive"), True, "positive"),
        Column("Partial", number("partial"), True, "partial"),
        Column("Negative", number("negative"), True, "negative"),
        Column("Waiting for a human", number("needs_input"), True, "needs_input"),
        Column("Failed calls", number("errors"), True, "errors"),
        Column("Positive rate, 95% interval", rate_with_interval(), True, "positive_rate, positive_low, "
               "positive_high"),
        Column("Cost", number("cost", 2), True, "cost"),
    ]
    note = (f"<p class='note'>Intervals are 95% bootstrap intervals resampling whole etalons (Wilson intervals for "
            f"rates). Systems whose intervals overlap are not shown to differ by this run; a system with fewer "
            f"than {MIN_N} etalons is drawn hollow and greyed: too few to rank. A verdict that waits for a human "
            "may still change.</p>")
    out = plot + note + table(board_rows, columns, "leaderboard")
    unsigned = [r for r in board_rows if (r.get("ind_n") or 0) > 0]
    if unsigned:
        out += "<h4>Unsigned etalons (indicative, kept out of the ranking)</h4>" + table(unsigned, [
            Column("System", lambda r: links.system(r["system"]), source="system"),
            Column("Etalons", number("ind_etalons"), True, "ind_etalons"),
            Column("Mean score, 95% interval", mean_with_interval("ind_mean_score", "ind_ci_low", "ind_ci_high",
                                                                  "ind_etalons"), True, "ind_mean_score"),
            Column("Positive", number("ind_positive"), True, "ind_positive"),
            Column("Partial", number("ind_partial"), True, "ind_partial"),
            Column("Negative", number("ind_negative"), True, "ind_negative"),
        ], "indicative")
    return out


def _etalons_and_answers(row: Row) -> str:
    etalons, answers = row.get("etalons"), row.get("n")
    out = f"<span class='mean'>{esc(num(etalons))}</span>"
    if isinstance(answers, int) and answers != etalons:
        out += f"<span class='ci'>{esc(num(answers))} answers</span>"
    return out


def _verdicts(board: Board, board_rows: list[dict[str, Any]]) -> str:
    if not board_rows:
        return "<p class='note'>No verdicts yet.</p>"
    stacks = [VerdictRow(str(r["system"]), int(r.get("positive") or 0), int(r.get("partial") or 0),
                         int(r.get("negative") or 0), int(r.get("errors") or 0),
                         max(0, int(r.get("n") or 0) - int(r.get("positive") or 0) - int(r.get("partial") or 0)
                             - int(r.get("negative") or 0)))
              for r in board_rows]
    return verdict_stacks(stacks, f"{board.anchor}-verdict-stacks", f"Verdicts per system, {board.title}")


def _chunks(items: list[str]) -> list[list[str]]:
    return [items[i:i + SYSTEMS_PER_TABLE] for i in range(0, len(items), SYSTEMS_PER_TABLE)] or [[]]


def _blue(value: float) -> str:
    """Light to mid blue on the fixed 0–100 scale: dark text stays readable on every cell."""
    t = max(0.0, min(1.0, value / 100.0))
    r, g, b = int(247 + (120 - 247) * t), int(251 + (170 - 251) * t), int(255 + (220 - 255) * t)
    return f"rgb({r},{g},{b})"


def _slices(board: Board, systems: list[str]) -> str:
    frame = board.table("slices")
    if frame.is_empty() or not systems:
        return "<p class='note'>No slices: no scored answers on signed etalons yet.</p>"
    lookup = {(r["slice"], r["value"], r["system"]): r for r in rows(frame)}
    dimensions: list[tuple[str, list[str]]] = []
    single: list[tuple[str, list[str]]] = []
    for dim in [d for d in SLICE_DIMENSIONS if d in set(frame["slice"].to_list())]:
        values = sorted({str(v) for v in frame.filter(pl.col("slice") == dim)["value"].to_list() if v is not None})
        (dimensions if len(values) > 1 else single).append((dim, values))
    out = (f"<p class='note'>Mean score per system within each slice, with its 95% interval and the number of "
           f"etalons n. Striped grey cells have fewer than {MIN_N} etalons: an interval over so few says "
           "little, and a single etalon gives no interval at all.</p>")
    if single:
        out += "<p class='note'>Shared by every etalon of this board: " + "; ".join(
            f"{esc(words(d))} {esc(words(v[0]))}" for d, v in single if v) + ".</p>"
    if not dimensions:
        return out
    for chunk in _chunks(systems):
        head = "<th scope='col' class='text'>Slice</th>" + "".join(
            f"<th scope='col' class='num name'>{esc(s)}</th>" for s in chunk)
        body = []
        for dim, values in dimensions:
            body.append(f"<tr class='group'><th scope='rowgroup' colspan='{len(chunk) + 1}'>{esc(words(dim))}</th></tr>")
            for value in values:
                cells = "".join(_slice_cell(lookup.get((dim, value, s))) for s in chunk)
                body.append(f"<tr><th scope='row' class='text'>{esc(words(value))}</th>{cells}</tr>")
        out += f"<table class='slices'><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    return out


def _slice_cell(row: Row | None) -> str:
    if row is None or missing(row.get("mean_score")):
        return "<td class='cell'>–</td>"
    n = int(row.get("etalons") or row.get("n") or 0)
    span = interval(row.get("ci_low"), row.get("ci_high"))
    ci = f"<span class='ci'>{esc(span)} · n = {n}</span>" if span and n > 1 else f"<span class='ci'>n = {n}</span>"
    content = f"<span class='mean'>{esc(num(row['mean_score']))}</span>{ci}"
    if n < MIN_N:
        return f"<td class='cell few' title='only {n} etalon(s)'>{content}</td>"
    return f"<td class='cell' style='background:{_blue(float(row['mean_score']))}'>{content}</td>"


def _paired(board: Board, systems: list[str], links: Links) -> str:
    frame = board.table("paired")
    if frame.is_empty():
        return "<p class='note'>Needs at least two systems that answered the same signed etalons.</p>"
    both = {(r["system_a"], r["system_b"]): r for r in rows(both_orientations(frame))}
    out = ("<p class='note'>Score difference, row system minus column system, on the etalons both answered. "
           "* marks a difference whose 95% paired-bootstrap interval excludes 0; green: the row system scores "
           "higher.</p>")
    for chunk in _chunks(systems):
        head = "<th scope='col' class='text'>Row − column</th>" + "".join(
            f"<th scope='col' class='num name'>{esc(s)}</th>" for s in chunk)
        body = []
        for a in systems:
            cells = []
            for b in chunk:
                pair = both.get((a, b))
                if pair is None or missing(pair.get("diff")):
                    cells.append("<td class='cell'>–</td>")
                    continue
                sure = (pair.get("diff_low") or 0) > 0 or (pair.get("diff_high") or 0) < 0
                cells.append(f"<td class='cell' style='background:{_diverging(float(pair['diff']))}'>"
                             f"{esc(signed(pair['diff']))}{' *' if sure else ''}</td>")
            body.append(f"<tr><th scope='row' class='text'>{links.system(a)}</th>{''.join(cells)}</tr>")
        out += f"<table class='matrix'><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    columns = [
        Column("System A", lambda r: links.system(r["system_a"]), source="system_a"),
        Column("System B", lambda r: links.system(r["system_b"]), source="system_b"),
        Column("Etalons both answered", number("n"), True, "n"),
        Column("Both positive", number("both"), True, "both"),
        Column("Only A positive", number("only_a"), True, "only_a"),
        Column("Only B positive", number("only_b"), True, "only_b"),
        Column("Neither", number("neither"), True, "neither"),
        Column("McNemar p", lambda r: esc(p_value(r.get("mcnemar_p"))), True, "mcnemar_p"),
        Column("A − B, 95% interval", lambda r: f"<span class='mean'>{esc(signed(r.get('diff')))}</span>"
               f"<span class='ci'>{esc(_signed_span(r))}</span>", True, "diff, diff_low, diff_high"),
    ]
    return out + table(rows(frame), columns, "paired")


def _signed_span(row: Row) -> str:
    if missing(row.get("diff_low")) or missing(row.get("diff_high")):
        return ""
    return f"{signed(row['diff_low'])} to {signed(row['diff_high'])}"


def _diverging(value: float, limit: float = 60.0) -> str:
    t = max(-1.0, min(1.0, value / limit))
    if t >= 0:
        return f"rgb({int(255 - 95 * t)},{int(255 - 30 * t)},{int(255 - 95 * t)})"
    return f"rgb({int(255 + 10 * t)},{int(255 + 100 * t)},{int(255 + 100 * t)})"


def _pass_at_k(board: Board, links: Links) -> str:
    frame = board.table("pass_at_k")
    if frame.is_empty():
        return ("<p class='note'>Every system answered each etalon once, so there is nothing to say about several "
                "tries. Give a system <code>attempts: 3</code> (or more) in <code>systems.yaml</code> to see whether "
                "it finds a right answer in k tries (pass@k) and whether it answers right every time (pass^k).</p>")
    columns = [
        Column("System", lambda r: links.system(r["system"]), source="system"),
        Column("k tries", number("k"), True, "k"),
        Column("Etalons", number("tasks"), True, "tasks"),
        Column("Etalons with fewer than k attempts", number("tasks_too_few"), True, "tasks_too_few"),
        Column("pass@k: right at least once", lambda r: esc(pct(r.get("pass_at_k"), 1)), True, "pass_at_k"),
        Column("pass^k: right every time", lambda r: esc(pct(r.get("pass_hat_k"), 1)), True, "pass_hat_k"),
    ]
    return table(rows(frame), columns, "pass-at-k")


def _calibration(board: Board, links: Links) -> str:
    frame = board.table("calibration")
    stated = "confidence" in board.scores.columns and board.scores["confidence"].is_not_null().any()
    if frame.is_empty() and stated:
        return ("<p class='note'>Answers state a confidence, but none on a signed etalon with a verdict: "
                "calibration, like the ranking, counts signed etalons only. It appears once their etalons are "
                "signed (<code>etalon sign</code>).</p>")
    if frame.is_empty():
        return ("<p class='note'>No system stated a confidence with its answers, so there is no calibration to "
                "show. Imported answers carry one in the optional <code>confidence</code> field (a number from 0 "
                "to 1); a system of kind <code>openai</code> reports one when its entry in "
                "<code>systems.yaml</code> sets <code>confidence: json</code> or <code>confidence: logprobs</code>."
                "</p>")
    out = ("<p class='note'>Whether a system's own confidence can decide when to hand a question to a lawyer, "
           "over its answers on signed etalons. "
           "The Brier score is the mean squared gap between the stated confidence and the outcome (a positive "
           "verdict): 0 is perfect, 0.25 is what always saying 50% earns. Keeping only answers stated at or above "
           "a threshold keeps that share of answers (coverage) with that share of them not positive (risk).</p>")
    out += reliability_plot(_reliability(board), f"{board.anchor}-reliability",
                            f"Stated confidence against positive verdicts, {board.title}")
    thresholds = sorted(set(frame["threshold"].to_list()))
    per_system = {s: {r["threshold"]: r for r in rows(frame.filter(pl.col("system") == s))}
                  for s in frame["system"].unique(maintain_order=True).to_list()}
    head = ("<th scope='col' class='text'>System</th><th scope='col' class='num'>Answers</th>"
            "<th scope='col' class='num' title='brier'>Brier score</th>" + "".join(
                f"<th scope='col' class='num' title='coverage, risk'>At {esc(pct(t))} or more</th>"
                for t in thresholds))
    body = []
    for system, by_threshold in per_system.items():
        first = next(iter(by_threshold.values()))
        cells = "".join(
            f"<td class='cell'><span class='mean'>kept {esc(pct(r.get('coverage')))}</span>"
            f"<span class='ci'>not positive {esc(pct(r.get('risk')))}</span></td>"
            if (r := by_threshold.get(t)) is not None else "<td class='cell'>–</td>" for t in thresholds)
        body.append(f"<tr><td class='text'>{links.system(system)}</td><td class='num'>{esc(num(first.get('n')))}"
                    f"</td><td class='num'>{esc(num(first.get('brier'), 3))}</td>{cells}</tr>")
    return out + f"<table class='calibration'><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _reliability(board: Board, bins: int = 10) -> list[ReliabilityPoint]:
    scores = board.scores
    if scores.is_empty() or "confidence" not in scores.columns:
        return []
    used = scores.filter(pl.col("confidence").is_not_null() & pl.col("verdict").is_not_null()
                         & (pl.col("status") != "error") & ~pl.col("indicative").fill_null(False))
    if used.is_empty():
        return []
    grouped = (
        used.with_columns((pl.col("confidence") * bins).floor().clip(0, bins - 1).alias("_bin"),
                          (pl.col("verdict") == "positive").cast(pl.Float64).alias("_y"))
        .group_by("system", "_bin")
        .agg(pl.col("confidence").mean().alias("q"), pl.col("_y").mean().alias("y"), pl.len().alias("n"))
        .sort("system", "_bin")
    )
    return [ReliabilityPoint(str(r["system"]), float(r["q"]), float(r["y"]), int(r["n"])) for r in rows(grouped)]

"""The static evaluation report: one self-contained HTML page, and the same tables as Markdown.

People decide from this page, so every number appears with its interval and the plots come first; the passport
(seeds/002, section 17) says exactly what was measured, under which protocol, by which judge and at what cost.
The page loads nothing from the network: styles, plots (inline SVG) and the render check are all inline.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from string import Template
from typing import Any

import polars as pl

from evaluation.analytics_paired import both_orientations
from evaluation.report_svg import agreement_bars, heatmap, interval_bars, verdict_stacks

TEMPLATE = Path(__file__).with_name("report_template.html")

LEADERBOARD_COLUMNS = (
    "system",
    "n",
    "mean_score",
    "ci_low",
    "ci_high",
    "positive",
    "partial",
    "negative",
    "needs_input",
    "errors",
    "positive_rate",
    "positive_low",
    "positive_high",
    "cost",
    "ind_n",
    "ind_mean_score",
)
PAIRED_COLUMNS = (
    "system_a",
    "system_b",
    "n",
    "both",
    "only_a",
    "only_b",
    "neither",
    "mcnemar_p",
    "diff",
    "diff_low",
    "diff_high",
)
JUDGE_COLUMNS = (
    "kind",
    "elements",
    "missing_verdicts",
    "run_pairs",
    "run_agreement",
    "run_kappa",
    "human_pairs",
    "human_agreement",
    "human_kappa",
)


def _cell(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, float):
        if 0 < abs(value) < 0.001:
            return f"{value:.1e}"  # a p-value of 3e-9 is not "0.000"
        return f"{value:.3f}" if abs(value) < 1000 else f"{value:,.0f}"
    return str(value)


def html_table(frame: pl.DataFrame, columns: Sequence[str]) -> str:
    columns = [c for c in columns if c in frame.columns]
    head = "".join(
        f"<th class='{'text' if frame.schema[c] == pl.Utf8 else ''}'>{escape(c)}</th>" for c in columns
    )
    rows = []
    for row in frame.select(columns).iter_rows(named=True):
        cells = "".join(
            f"<td class='{'text' if isinstance(row[c], str) else ''}'>{escape(_cell(row[c]))}</td>"
            for c in columns
        )
        rows.append(f"<tr>{cells}</tr>")
    body = "".join(rows)
    return f"<div class='scroll'><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"


def markdown_table(frame: pl.DataFrame, columns: Sequence[str]) -> str:
    columns = [c for c in columns if c in frame.columns]
    if not columns:
        return ""
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in frame.select(columns).iter_rows(named=True):
        lines.append("| " + " | ".join(_cell(row[c]).replace("|", "\\|") for c in columns) + " |")
    return "\n".join(lines)


def _passport_html(value: Any) -> str:
    """Nested mappings become nested definition lists, sequences comma lists: the passport's shape is free."""
    if isinstance(value, Mapping):
        items = "".join(f"<dt>{escape(str(k))}</dt><dd>{_passport_html(v)}</dd>" for k, v in value.items())
        return f"<dl class='passport'>{items}</dl>"
    if isinstance(value, (list, tuple)):
        if any(isinstance(v, Mapping) for v in value):
            return "".join(_passport_html(v) for v in value)
        return escape(", ".join(str(v) for v in value))
    return escape(_cell(value))


def _paired_matrix(paired: pl.DataFrame, benchmark: str, plot_id: str) -> str:
    rows = both_orientations(paired.filter(pl.col("benchmark") == benchmark))
    if rows.height == 0:
        return ""
    systems = sorted(set(rows["system_a"].to_list()))
    cells = rows.select(
        pl.col("system_a").alias("row"),
        pl.col("system_b").alias("column"),
        pl.col("diff").alias("value"),
        pl.format(
            "{}{}",
            pl.col("diff").round(2),
            pl.when((pl.col("diff_low") > 0) | (pl.col("diff_high") < 0))
            .then(pl.lit(" *"))
            .otherwise(pl.lit("")),
        ).alias("label"),
    )
    return heatmap(
        cells,
        systems,
        systems,
        "value",
        "label",
        plot_id,
        f"Paired score difference (row − column), {benchmark}",
        diverging=True,
        note="* the 95% paired-bootstrap interval excludes 0; green: the row system scores higher",
    )


def _slice_heatmap(slices: pl.DataFrame, benchmark: str, plot_id: str) -> str:
    rows = slices.filter((pl.col("benchmark") == benchmark) & pl.col("value").is_not_null())
    if rows.height == 0:
        return ""
    rows = rows.with_columns(pl.format("{}: {}", "slice", "value").alias("column"))
    columns = rows.select("slice", "value", "column").unique().sort("slice", "value")["column"].to_list()
    systems = sorted(set(rows["system"].to_list()))
    cells = rows.select(
        pl.col("system").alias("row"),
        "column",
        pl.col("mean_score").alias("value"),
        pl.format("{} (n={})", pl.col("mean_score").round(2), "n").alias("label"),
    )
    return heatmap(cells, systems, columns, "value", "label", plot_id, f"Mean score by slice, {benchmark}")


def render_report(
    *,
    leaderboard: pl.DataFrame,
    paired: pl.DataFrame,
    passport: Mapping[str, Any],
    slices: pl.DataFrame | None = None,
    judge_agreement: pl.DataFrame | None = None,
    pass_at_k: pl.DataFrame | None = None,
    calibration: pl.DataFrame | None = None,
    title: str = "Etalon evaluation report",
    generated_at: str | None = None,
) -> str:
    """The whole report page as HTML text (tables from evaluation.analytics, passport as a free-form dict)."""
    stamp = generated_at or datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts = [
        f"<h1>{escape(title)}</h1>",
        f"<p class='lead'>Generated {escape(stamp)}.</p>",
        "<p class='note'>Means come with 95% bootstrap intervals resampling whole etalons; positive rates "
        "with Wilson intervals; systems are compared on the same etalons (McNemar exact test, paired "
        "bootstrap). "
        "Systems whose intervals overlap are not shown to differ by this run.</p>",
    ]
    benchmarks = sorted(set(leaderboard["benchmark"].to_list()))
    for index, benchmark in enumerate(benchmarks):
        board = leaderboard.filter(pl.col("benchmark") == benchmark)
        parts.append(f"<h2>Benchmark {escape(benchmark)}</h2>")
        parts.append("<h3>Leaderboard</h3>" + interval_bars(board, benchmark, f"leaderboard-{index}"))
        parts.append(html_table(board, LEADERBOARD_COLUMNS))
        parts.append("<h3>Verdicts per system</h3>" + verdict_stacks(board, benchmark, f"verdicts-{index}"))
        if slices is not None:
            plot = _slice_heatmap(slices, benchmark, f"slices-{index}")
            if plot:
                parts.append("<h3>Slices</h3>" + plot)
        plot = _paired_matrix(paired, benchmark, f"paired-{index}")
        if plot:
            parts.append("<h3>Paired comparisons</h3>" + plot)
            parts.append(html_table(paired.filter(pl.col("benchmark") == benchmark), PAIRED_COLUMNS))
        for name, table in (("pass@k and pass^k", pass_at_k), ("Calibration", calibration)):
            if table is not None and table.height and benchmark in table["benchmark"].to_list():
                selected = table.filter(pl.col("benchmark") == benchmark).drop("benchmark")
                parts.append(f"<h3>{escape(name)}</h3>" + html_table(selected, selected.columns))
    if judge_agreement is not None and judge_agreement.height:
        parts.append("<h2>Judge agreement</h2>" + agreement_bars(judge_agreement, "judge-agreement"))
        parts.append(html_table(judge_agreement, JUDGE_COLUMNS))
    parts.append("<h2>Evaluation passport</h2>" + _passport_html(passport))
    template = Template(TEMPLATE.read_text(encoding="utf-8"))
    return template.substitute(title=escape(title), body="\n".join(parts))


def markdown_report(
    *,
    leaderboard: pl.DataFrame,
    paired: pl.DataFrame,
    judge_agreement: pl.DataFrame | None = None,
) -> str:
    """The report's tables as Markdown, for Dagster asset metadata (MetadataValue.md)."""
    sections = []
    for benchmark in sorted(set(leaderboard["benchmark"].to_list())):
        board = leaderboard.filter(pl.col("benchmark") == benchmark)
        sections.append(f"### {benchmark}\n\n" + markdown_table(board, LEADERBOARD_COLUMNS[:12]))
        pairs = paired.filter(pl.col("benchmark") == benchmark)
        if pairs.height:
            sections.append("Paired comparisons\n\n" + markdown_table(pairs, PAIRED_COLUMNS))
    if judge_agreement is not None and judge_agreement.height:
        sections.append("### Judge agreement\n\n" + markdown_table(judge_agreement, JUDGE_COLUMNS))
    return "\n\n".join(sections)


def write_report(path: Path, html: str) -> Path:
    """Write atomically (temporary file in the same folder, then rename): a reader never sees half a page."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(html)
        os.chmod(temporary, 0o644)  # mkstemp creates 0600; the report is for everyone who can read the home
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path

"""Inline SVG plots for the static report, drawn directly so the page needs no plotting library and no
network.

Each function takes an analytics table and returns one `<svg>` element as text (empty string when there is
nothing to draw). Every text that came from data is escaped: system names and etalon branches are user input.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

import polars as pl

FONT = "font-family='system-ui, sans-serif' font-size='12'"
VERDICT_COLOURS = (
    ("positive", "#2e7d32"),
    ("partial", "#f9a825"),
    ("negative", "#c62828"),
    ("errors", "#616161"),
    ("unjudged", "#bdbdbd"),
)


def _svg(width: float, height: float, body: list[str], plot_id: str, title: str) -> str:
    return (
        f"<svg id='{escape(plot_id)}' class='plot' xmlns='http://www.w3.org/2000/svg' width='{width:.0f}' "
        f"height='{height:.0f}' viewBox='0 0 {width:.0f} {height:.0f}' role='img' "
        f"aria-label='{escape(title)}'>"
        f"<title>{escape(title)}</title>{''.join(body)}</svg>"
    )


def _text(x: float, y: float, text: str, anchor: str = "start", extra: str = "") -> str:
    return f"<text x='{x:.1f}' y='{y:.1f}' text-anchor='{anchor}' {FONT} {extra}>{escape(text)}</text>"


def _fmt(value: float | None, digits: int = 2) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{digits}f}"


def _sequential(value: float, low: float, high: float) -> str:
    """White to deep blue: one hue, so darker reads as higher without a legend lookup."""
    t = 0.0 if high <= low else min(1.0, max(0.0, (value - low) / (high - low)))
    r, g, b = (int(247 + (8 - 247) * t), int(251 + (69 - 251) * t), int(255 + (148 - 255) * t))
    return f"rgb({r},{g},{b})"


def _diverging(value: float, limit: float) -> str:
    """Red (row system worse) through white to green (row system better)."""
    t = 0.0 if limit <= 0 else max(-1.0, min(1.0, value / limit))
    if t >= 0:
        r, g, b = int(255 + (46 - 255) * t), int(255 + (125 - 255) * t), int(255 + (50 - 255) * t)
    else:
        r, g, b = int(255 + (198 - 255) * -t), int(255 + (40 - 255) * -t), int(255 + (40 - 255) * -t)
    return f"rgb({r},{g},{b})"


def interval_bars(board: pl.DataFrame, benchmark: str, plot_id: str) -> str:
    """Mean score with its bootstrap interval per system: overlapping bars are a ranking the data cannot
    make."""
    rows = board.filter((pl.col("benchmark") == benchmark) & pl.col("mean_score").is_not_null())
    if rows.height == 0:
        return ""
    top = max(1.0, float(rows["ci_high"].fill_null(0).max() or 0))  # type: ignore[arg-type]
    left, row_h = 170.0, 26.0
    width, plot_w = 720.0, 720.0 - 170.0 - 30.0
    height = 40 + row_h * rows.height

    def x(v: float) -> float:
        return left + plot_w * v / top

    body = [
        f"<line x1='{x(t):.1f}' y1='20' x2='{x(t):.1f}' y2='{height - 16:.0f}' stroke='#eee'/>"
        + _text(x(t), height - 4, _fmt(t), "middle")
        for t in [top * i / 4 for i in range(5)]
    ]
    for i, row in enumerate(rows.iter_rows(named=True)):
        y = 30 + i * row_h
        low = row["ci_low"] if row["ci_low"] is not None else row["mean_score"]
        high = row["ci_high"] if row["ci_high"] is not None else row["mean_score"]
        body.append(_text(left - 8, y + 4, str(row["system"]), "end"))
        body.append(
            f"<rect class='bar' x='{x(low):.1f}' y='{y - 5:.1f}' width='{max(2.0, x(high) - x(low)):.1f}' "
            f"height='10' fill='#90caf9'/>"
        )
        body.append(f"<circle cx='{x(row['mean_score']):.1f}' cy='{y:.1f}' r='5' fill='#0d47a1'/>")
        body.append(
            _text(
                x(high) + 6,
                y + 4,
                f"{_fmt(row['mean_score'])} [{_fmt(low)}; {_fmt(high)}] n={row['n']}",
                extra="fill='#555' font-size='11'",
            )
        )
    return _svg(width + 120, height, body, plot_id, f"Mean score with 95% interval, {benchmark}")


def verdict_stacks(board: pl.DataFrame, benchmark: str, plot_id: str) -> str:
    """Share of each verdict per system, errors included, so a system that fails often cannot hide."""
    rows = board.filter(pl.col("benchmark") == benchmark)
    if rows.height == 0:
        return ""
    left, width, row_h = 170.0, 520.0, 26.0
    height = 50 + row_h * rows.height
    body: list[str] = []
    for i, row in enumerate(rows.iter_rows(named=True)):
        y = 20 + i * row_h
        counts = {
            "positive": row["positive"],
            "partial": row["partial"],
            "negative": row["negative"],
            "errors": row["errors"],
            "unjudged": max(0, row["n"] - row["positive"] - row["partial"] - row["negative"]),
        }
        total = sum(counts.values()) or 1
        body.append(_text(left - 8, y + 13, str(row["system"]), "end"))
        offset = left
        for name, colour in VERDICT_COLOURS:
            share = counts[name] / total
            if share <= 0:
                continue
            body.append(
                f"<rect class='bar' x='{offset:.1f}' y='{y:.1f}' width='{width * share:.1f}' height='18' "
                f"fill='{colour}'><title>{escape(name)}: {counts[name]}</title></rect>"
            )
            offset += width * share
    legend_y = height - 14
    for j, (name, colour) in enumerate(VERDICT_COLOURS):
        body.append(
            f"<rect x='{left + j * 100:.0f}' y='{legend_y - 10:.0f}' width='12' height='12' fill='{colour}'/>"
        )
        body.append(_text(left + j * 100 + 16, legend_y, name))
    return _svg(left + width + 20, height, body, plot_id, f"Verdicts per system, {benchmark}")


def heatmap(
    cells: pl.DataFrame,
    rows: Sequence[str],
    columns: Sequence[str],
    value: str,
    label: str,
    plot_id: str,
    title: str,
    diverging: bool = False,
    note: str | None = None,
) -> str:
    """A grid of coloured cells with their values written in; `cells` has columns row, column, value,
    label."""
    if not rows or not columns:
        return ""
    left, top, cell_w, cell_h = 170.0, 110.0, 92.0, 30.0
    width = max(
        720.0, left + cell_w * len(columns) + 110
    )  # room for the last rotated column label and the note
    height = top + cell_h * len(rows) + 30
    values = [v for v in cells[value].to_list() if v is not None]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    limit = max(abs(low), abs(high))
    lookup = {(r["row"], r["column"]): r for r in cells.iter_rows(named=True)}
    body: list[str] = []
    for j, column in enumerate(columns):
        cx = left + j * cell_w + cell_w / 2
        body.append(_text(cx, top - 8, column, "start", f"transform='rotate(-35 {cx:.1f} {top - 8:.1f})'"))
    for i, row_name in enumerate(rows):
        y = top + i * cell_h
        body.append(_text(left - 8, y + cell_h / 2 + 4, row_name, "end"))
        for j, column in enumerate(columns):
            cell = lookup.get((row_name, column))
            x = left + j * cell_w
            v = None if cell is None else cell[value]
            fill = (
                "#fafafa" if v is None else (_diverging(v, limit) if diverging else _sequential(v, low, high))
            )
            body.append(
                f"<rect class='cell' x='{x:.1f}' y='{y:.1f}' width='{cell_w - 2:.1f}' "
                f"height='{cell_h - 2:.1f}' fill='{fill}'/>"
            )
            if cell is not None:
                dark = not diverging and v is not None and high > low and (v - low) / (high - low) > 0.6
                body.append(
                    _text(
                        x + cell_w / 2,
                        y + cell_h / 2 + 3,
                        str(cell[label]),
                        "middle",
                        "fill='#fff'" if dark else "",
                    )
                )
    if note:
        body.append(_text(left, height - 8, note, extra="fill='#555' font-size='11'"))
    return _svg(width, height, body, plot_id, title)


def agreement_bars(agreement: pl.DataFrame, plot_id: str) -> str:
    """Run-vs-run and judge-vs-human agreement per element kind, kappa written next to each bar."""
    if agreement.height == 0:
        return ""
    left, width, group_h = 150.0, 400.0, 44.0
    height = 40 + group_h * agreement.height
    body: list[str] = []
    for i, row in enumerate(agreement.iter_rows(named=True)):
        y = 16 + i * group_h
        body.append(_text(left - 8, y + 16, str(row["kind"]), "end"))
        for j, (prefix, colour, name) in enumerate(
            (("run", "#5c6bc0", "runs"), ("human", "#26a69a", "human"))
        ):
            rate = row[f"{prefix}_agreement"]
            by = y + j * 16
            if rate is not None:
                body.append(
                    f"<rect class='bar' x='{left:.0f}' y='{by:.0f}' width='{max(1.0, width * rate):.1f}' "
                    f"height='13' fill='{colour}'/>"
                )
            body.append(
                _text(
                    left + width + 8,
                    by + 11,
                    f"{name}: {_fmt(rate)} (κ {_fmt(row[f'{prefix}_kappa'])}, n={row[f'{prefix}_pairs']})",
                    extra="font-size='11'",
                )
            )
    return _svg(left + width + 230, height, body, plot_id, "Judge agreement per element kind")

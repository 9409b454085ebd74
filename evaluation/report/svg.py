"""Inline SVG plots for the report, drawn directly so the folder needs no plotting library and no network.

An SVG text never wraps, so every plot measures its labels first (`format.text_width`, a generous estimate)
and makes room for them, shortening only names longer than a column can hold (the full name is in a
<title>). Plots stay within 760 px, the text column of an 800 px window, so they are never scaled down to an
unreadable size. Scores are drawn on their own scale, 0 to 100, not stretched to the data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evaluation.report.format import MIN_N, esc, fit, interval, missing, num, pct, text_width

FONT = "font-family='system-ui, sans-serif'"
MAX_WIDTH = 760.0
LABEL_MAX = 190.0
VERDICT_COLOURS = (
    ("positive", "#2e7d32"),
    ("partial", "#f9a825"),
    ("negative", "#c62828"),
    ("error", "#616161"),
    ("no verdict", "#bdbdbd"),
)
SERIES = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442")


def _svg(width: float, height: float, body: list[str], plot_id: str, title: str) -> str:
    return (
        f"<svg id='{esc(plot_id)}' class='plot' xmlns='http://www.w3.org/2000/svg' width='{width:.0f}' "
        f"height='{height:.0f}' viewBox='0 0 {width:.0f} {height:.0f}' role='img' aria-label='{esc(title)}'>"
        f"<title>{esc(title)}</title>{''.join(body)}</svg>"
    )


def _text(x: float, y: float, text: str, anchor: str = "start", size: float = 12, extra: str = "",
          full: str | None = None) -> str:
    tip = f"<title>{esc(full)}</title>" if full is not None and full != text else ""
    return (f"<text class='label' x='{x:.1f}' y='{y:.1f}' text-anchor='{anchor}' {FONT} font-size='{size:g}' "
            f"{extra}>{tip}{esc(text)}</text>")


def _label_column(names: Sequence[str], size: float = 12) -> float:
    return min(LABEL_MAX, max([text_width(n, size) for n in names] + [40.0])) + 12


@dataclass(frozen=True)
class IntervalRow:
    name: str
    mean: float | None
    low: float | None
    high: float | None
    n: int


def interval_plot(rows: Sequence[IntervalRow], plot_id: str, title: str,
                  bands: tuple[float, float] | None = None) -> str:
    """Mean score with its 95% interval per system on the 0–100 scale; overlapping intervals are a ranking the
    data cannot make. Systems with fewer than MIN_N etalons are drawn hollow and say so."""
    rows = [r for r in rows if not missing(r.mean)]
    if not rows:
        return ""
    left = _label_column([r.name for r in rows])
    notes = [_interval_note(r) for r in rows]
    right = max(text_width(n, 11) for n in notes) + 16
    plot_w = max(240.0, min(420.0, MAX_WIDTH - left - right - 10))
    width = left + plot_w + right + 10
    row_h, top = 26.0, 34.0
    height = top + row_h * len(rows) + 28

    def x(v: float) -> float:
        return left + plot_w * max(0.0, min(100.0, v)) / 100.0

    body: list[str] = []
    if bands is not None:
        negative_below, positive_at = bands
        for start, end, name, colour in ((0, negative_below, "negative", "#fdecea"),
                                         (negative_below, positive_at, "partial", "#fff8e1"),
                                         (positive_at, 100, "positive", "#e8f5e9")):
            if end > start:
                body.append(f"<rect x='{x(start):.1f}' y='{top - 14:.0f}' width='{x(end) - x(start):.1f}' "
                            f"height='{row_h * len(rows) + 14:.0f}' fill='{colour}'/>")
                if text_width(name, 11) < x(end) - x(start) - 4:
                    body.append(_text((x(start) + x(end)) / 2, top - 18, name, "middle", 11, "fill='#555'"))
    for tick in (0, 25, 50, 75, 100):
        body.append(f"<line x1='{x(tick):.1f}' y1='{top - 14:.0f}' x2='{x(tick):.1f}' "
                    f"y2='{top + row_h * len(rows):.0f}' stroke='#ddd'/>")
        body.append(_text(x(tick), height - 10, str(tick), "middle", 11, "fill='#555'"))
    for i, (row, note) in enumerate(zip(rows, notes, strict=True)):
        y = top + 8 + i * row_h
        few = row.n < MIN_N
        label = fit(row.name, left - 12)
        body.append(_text(left - 8, y + 4, label, "end", full=row.name))
        assert row.mean is not None
        low = row.low if not missing(row.low) else row.mean
        high = row.high if not missing(row.high) else row.mean
        assert low is not None and high is not None
        body.append(f"<rect class='bar' x='{x(low):.1f}' y='{y - 5:.1f}' width='{max(2.0, x(high) - x(low)):.1f}' "
                    f"height='10' fill='{'#e0e0e0' if few else '#90caf9'}'/>")
        body.append(f"<circle cx='{x(row.mean):.1f}' cy='{y:.1f}' r='5' "
                    + ("fill='#fff' stroke='#757575' stroke-width='2'/>" if few else "fill='#0d47a1'/>"))
        body.append(_text(left + plot_w + 16, y + 4, note, size=11, extra="fill='#333'"))
    return _svg(width, height, body, plot_id, title)


def _interval_note(row: IntervalRow) -> str:
    span = interval(row.low, row.high)
    text = f"{num(row.mean)}" + (f" [{span}]" if span else "") + f", n = {row.n}"
    return text + (" – too few" if row.n < MIN_N else "")


@dataclass(frozen=True)
class VerdictRow:
    name: str
    positive: int
    partial: int
    negative: int
    errors: int
    unjudged: int   # answered, but no verdict yet


def verdict_stacks(rows: Sequence[VerdictRow], plot_id: str, title: str) -> str:
    """Share of each verdict per system, failed calls included, so a system that fails often cannot hide."""
    if not rows:
        return ""
    left = _label_column([r.name for r in rows])
    bar_w = min(420.0, MAX_WIDTH - left - 20)
    row_h = 26.0
    legend = [(name, colour) for name, colour in VERDICT_COLOURS]
    legend_rows, x_pos, legend_layout = 1, left, []
    for name, colour in legend:
        item_w = 18 + text_width(name, 12) + 18
        if x_pos + item_w > left + bar_w and x_pos > left:
            legend_rows, x_pos = legend_rows + 1, left
        legend_layout.append((x_pos, legend_rows, name, colour))
        x_pos += item_w
    height = 14 + row_h * len(rows) + 22 * legend_rows + 8
    body: list[str] = []
    for i, row in enumerate(rows):
        y = 10 + i * row_h
        counts = {"positive": row.positive, "partial": row.partial, "negative": row.negative,
                  "error": row.errors, "no verdict": row.unjudged}
        total = sum(counts.values()) or 1
        body.append(_text(left - 8, y + 13, fit(row.name, left - 12), "end", full=row.name))
        offset = left
        for name, colour in VERDICT_COLOURS:
            share = counts[name] / total
            if share <= 0:
                continue
            body.append(f"<rect class='bar' x='{offset:.1f}' y='{y:.1f}' width='{bar_w * share:.1f}' height='18' "
                        f"fill='{colour}'><title>{esc(name)}: {counts[name]}</title></rect>")
            offset += bar_w * share
    base = 14 + row_h * len(rows)
    for x_pos, line, name, colour in legend_layout:
        y = base + 22 * (line - 1)
        body.append(f"<rect x='{x_pos:.0f}' y='{y:.0f}' width='12' height='12' fill='{colour}'/>")
        body.append(_text(x_pos + 18, y + 11, name))
    return _svg(left + bar_w + 20, height, body, plot_id, title)


@dataclass(frozen=True)
class ReliabilityPoint:
    series: str
    confidence: float   # mean stated confidence of the bin
    observed: float     # share of positive verdicts in the bin
    n: int


def reliability_plot(points: Sequence[ReliabilityPoint], plot_id: str, title: str) -> str:
    """Stated confidence against the observed rate of positive verdicts: a calibrated system lies on the
    diagonal; each point is one bin of answers, its size the number of answers."""
    if not points:
        return ""
    series = sorted({p.series for p in points})
    size, left, top = 300.0, 48.0, 26.0
    legend_w = min(MAX_WIDTH - left - size - 30, max(text_width(s, 12) for s in series) + 30)
    width, height = left + size + 24 + legend_w, top + size + 46

    def px(v: float) -> float:
        return left + size * v

    def py(v: float) -> float:
        return top + size * (1 - v)

    body = [f"<rect x='{left:.0f}' y='{top:.0f}' width='{size:.0f}' height='{size:.0f}' fill='none' stroke='#ccc'/>",
            f"<line x1='{px(0):.0f}' y1='{py(0):.0f}' x2='{px(1):.0f}' y2='{py(1):.0f}' stroke='#999' "
            "stroke-dasharray='4 3'/>"]
    for tick, anchor in ((0.0, "start"), (0.5, "middle"), (1.0, "end")):
        body.append(_text(px(tick), top + size + 18, pct(tick), anchor, 11, "fill='#555'"))
        body.append(_text(left - 8, py(tick) + 4, pct(tick), "end", 11, "fill='#555'"))
    body.append(_text(left + size / 2, top + size + 38, "stated confidence", "middle", 11))
    body.append(_text(left, top - 10, "positive verdicts", "start", 11))
    largest = max(p.n for p in points)
    for index, name in enumerate(series):
        colour = SERIES[index % len(SERIES)]
        mine = sorted((p for p in points if p.series == name), key=lambda p: p.confidence)
        path = " ".join(f"{px(p.confidence):.1f},{py(p.observed):.1f}" for p in mine)
        body.append(f"<polyline points='{path}' fill='none' stroke='{colour}' stroke-width='1.5'/>")
        for p in mine:
            radius = 3 + 5 * (p.n / largest) ** 0.5
            body.append(f"<circle cx='{px(p.confidence):.1f}' cy='{py(p.observed):.1f}' r='{radius:.1f}' "
                        f"fill='{colour}' fill-opacity='0.7'><title>{esc(name)}: {p.n} answers, stated "
                        f"{pct(p.confidence)}, positive {pct(p.observed)}</title></circle>")
        ly = top + 12 + index * 20
        body.append(f"<rect x='{left + size + 24:.0f}' y='{ly - 9:.0f}' width='12' height='12' fill='{colour}'/>")
        body.append(_text(left + size + 42, ly + 2, fit(name, legend_w - 22), full=name))
    return _svg(width, height, body, plot_id, title)


@dataclass(frozen=True)
class AgreementRow:
    kind: str
    run: float | None
    run_kappa: float | None
    run_pairs: int
    human: float | None
    human_kappa: float | None
    human_pairs: int


def agreement_bars(rows: Sequence[AgreementRow], plot_id: str, title: str) -> str:
    """Agreement of the judge's two runs, and of the judge with humans, per element kind (0–100%)."""
    if not rows:
        return ""
    left = _label_column([r.kind for r in rows])
    notes = [f"{label}: {pct(rate)} (κ {num(kappa, 2)}, n = {pairs})"
             for r in rows for label, rate, kappa, pairs in (("runs", r.run, r.run_kappa, r.run_pairs),
                                                              ("human", r.human, r.human_kappa, r.human_pairs))]
    right = max(text_width(n, 11) for n in notes) + 12
    bar_w = max(160.0, min(360.0, MAX_WIDTH - left - right - 10))
    group_h = 44.0
    height = 16 + group_h * len(rows)
    body: list[str] = []
    for i, row in enumerate(rows):
        y = 8 + i * group_h
        body.append(_text(left - 8, y + 16, fit(row.kind, left - 12), "end", full=row.kind))
        for j, (rate, colour) in enumerate(((row.run, "#5c6bc0"), (row.human, "#26a69a"))):
            by = y + j * 16
            body.append(f"<rect x='{left:.0f}' y='{by:.0f}' width='{bar_w:.0f}' height='13' fill='#f3f3f3'/>")
            if not missing(rate):
                assert rate is not None
                body.append(f"<rect class='bar' x='{left:.0f}' y='{by:.0f}' width='{max(1.0, bar_w * rate):.1f}' "
                            f"height='13' fill='{colour}'/>")
            body.append(_text(left + bar_w + 8, by + 11, notes[2 * i + j], size=11))
    return _svg(left + bar_w + right + 10, height, body, plot_id, title)

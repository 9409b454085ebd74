"""What every page of the report shares: the template, tables with words for headers, links between pages.

Tables never scroll sideways: they take the text column's width, headers are words that wrap, long names
break anywhere, and each header's tooltip names the view column it comes from, for analysts who go on in SQL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from string import Template
from typing import Any

import polars as pl

from evaluation.report.format import MIN_N, esc, interval, link, missing, num, pct, slug

TEMPLATE = Path(__file__).with_name("template.html")
VERDICT_CSS = {"positive": "v-pos", "partial": "v-part", "negative": "v-neg"}

Row = Mapping[str, Any]


@dataclass(frozen=True)
class Column:
    title: str
    render: Callable[[Row], str]   # the cell's HTML, escaped by the renderer
    numeric: bool = False
    source: str | None = None      # the view column(s) behind it, shown as the header's tooltip
    word: bool = False             # short words (a priority, a status): never broken inside


def table(rows: Iterable[Row], columns: Sequence[Column], css: str = "", caption: str | None = None) -> str:
    head = "".join(
        f"<th scope='col' class='{'num' if c.numeric else 'text'}'"
        + (f" title='{esc(c.source)}'" if c.source else "") + f">{esc(c.title)}</th>"
        for c in columns
    )
    body = "".join(
        "<tr>" + "".join(f"<td class='{'num' if c.numeric else 'text word' if c.word else 'text'}'>"
                         f"{c.render(row)}</td>" for c in columns)
        + "</tr>"
        for row in rows
    )
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    return f"<table class='{esc(css)}'>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def text(key: str) -> Callable[[Row], str]:
    return lambda row: esc(row.get(key))


def number(key: str, digits: int = 1) -> Callable[[Row], str]:
    return lambda row: esc(num(row.get(key), digits))


def mean_with_interval(mean: str = "mean_score", low: str = "ci_low", high: str = "ci_high",
                       n: str | None = "etalons") -> Callable[[Row], str]:
    """The mean, its 95% interval under it; greyed, with the reason, when there are too few etalons."""
    def render(row: Row) -> str:
        if missing(row.get(mean)):
            return "–"
        span = interval(row.get(low), row.get(high))
        count = row.get(n) if n else None
        few = isinstance(count, int) and count < MIN_N
        body = f"<span class='mean'>{esc(num(row.get(mean)))}</span>"
        if span:
            body += f"<span class='ci'>{esc(span)}</span>"
        if few:
            return f"<span class='few' title='only {count} etalon(s): too few to rank on'>{body}</span>"
        return body
    return render


def rate_with_interval(rate: str = "positive_rate", low: str = "positive_low",
                       high: str = "positive_high") -> Callable[[Row], str]:
    def render(row: Row) -> str:
        if missing(row.get(rate)):
            return "–"
        span = interval(row.get(low), row.get(high), percent=True)
        return f"<span class='mean'>{esc(pct(row.get(rate)))}</span>" + (
            f"<span class='ci'>{esc(span)}</span>" if span else "")
    return render


def verdict_badge(verdict: object, status: object = None) -> str:
    """The verdict as a coloured word; "open" when items of it wait for a human (it may still change)."""
    if status == "error":
        return "<span class='badge v-err'>error</span>"
    if verdict is None:
        return "<span class='badge v-none'>no verdict</span>"
    css = VERDICT_CSS.get(str(verdict), "v-none")
    if status == "needs_input":
        return (f"<span class='badge {css} open' title='items wait for a human decision: it may change'>"
                f"{esc(verdict)}, open</span>")
    return f"<span class='badge {css}'>{esc(verdict)}</span>"


def rows(frame: pl.DataFrame) -> list[dict[str, Any]]:
    return list(frame.iter_rows(named=True)) if frame.height else []


@dataclass
class Links:
    """File names of the system and etalon pages, unique even when two ids slug alike."""

    systems: dict[str, str] = field(default_factory=dict)
    etalons: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def _unique(names: Iterable[str]) -> dict[str, str]:
        out: dict[str, str] = {}
        taken: set[str] = set()
        for name in sorted(set(names)):
            base = candidate = slug(name)
            counter = 2
            while candidate.lower() in taken:  # case-insensitive file systems
                candidate, counter = f"{base}-{counter}", counter + 1
            taken.add(candidate.lower())
            out[name] = candidate + ".html"
        return out

    @classmethod
    def of(cls, systems: Iterable[str], codes: Iterable[str]) -> Links:
        return cls(cls._unique(systems), cls._unique(codes))

    def system(self, name: object, root: str = "") -> str:
        key = str(name)
        return link(f"{root}systems/{self.systems[key]}", key) if key in self.systems else esc(key)

    def etalon(self, code: object, root: str = "", label: str | None = None) -> str:
        key = str(code)
        return link(f"{root}etalons/{self.etalons[key]}", label or key) if key in self.etalons else esc(key)


def page(title: str, body: str, root: str = "", subtitle: str = "") -> str:
    """A whole page; `root` is "" for index.html and "../" for the pages in systems/ and etalons/."""
    nav = (f"<nav class='top'>{link(root + 'index.html', 'Report')} · "
           f"{link(root + 'index.html#systems', 'Systems')} · {link(root + 'index.html#etalons', 'Etalons')} · "
           f"{link(root + 'index.html#judge-agreement', 'Agreement')} · "
           f"{link(root + 'index.html#passport', 'Passport')}</nav>")
    head = f"<h1>{esc(title)}</h1>" + (f"<p class='lead'>{esc(subtitle)}</p>" if subtitle else "")
    template = Template(TEMPLATE.read_text(encoding="utf-8"))
    return template.substitute(title=esc(title), body=nav + head + body)


def section(anchor: str, heading: str, content: str, level: int = 2) -> str:
    return f"<section id='{esc(anchor)}'><h{level}>{esc(heading)}</h{level}>{content}</section>"


def sentence(text_: str) -> str:
    return f"<p class='note'>{esc(text_)}</p>"

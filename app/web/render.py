"""Pure helpers for the pages: where a judge's quote sits in an answer, a diff of two etalon versions.

They return plain segments and lines; the templates escape every piece of text (answers and etalons are
untrusted), so nothing here ever builds HTML.
"""

from __future__ import annotations

import difflib
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass

import yaml

from evaluation.quotes import normalise

_QUOTES = set("«»“”„‟‘’‚‛‹›\"'`´″")
_DASHES = set("‐‑‒–—―−﹘﹣－-")


@dataclass(frozen=True)
class Segment:
    text: str
    marks: tuple[int, ...] = ()      # indexes of the quotes covering this piece


def _normalised_with_map(text: str) -> tuple[str, list[int]]:
    """The text normalised as quotes.normalise does (whitespace, quote marks, dashes), with, for each of its
    characters, the index of the original character it came from."""
    out: list[str] = []
    where: list[int] = []
    in_space = False
    for i, ch in enumerate(text):
        if ch.isspace():
            if not in_space and out:
                out.append(" ")
                where.append(i)
            in_space = True
            continue
        in_space = False
        out.append('"' if ch in _QUOTES else "-" if ch in _DASHES else ch)
        where.append(i)
    while out and out[-1] == " ":
        out.pop()
        where.pop()
    return "".join(out), where


def quote_spans(text: str, quotes: Sequence[str | None]) -> list[tuple[int, int, int] | None]:
    """Per quote, (start, end, quote index) of its first occurrence in `text`, or None when it is not there."""
    flat, where = _normalised_with_map(text)
    spans: list[tuple[int, int, int] | None] = []
    for n, quote in enumerate(quotes):
        needle = normalise(quote or "")
        at = flat.find(needle) if needle else -1
        spans.append(None if at < 0 else (where[at], where[at + len(needle) - 1] + 1, n))
    return spans


def highlight(text: str, quotes: Sequence[str | None]) -> list[Segment]:
    """The answer cut into segments, each knowing which quotes cover it."""
    spans = [s for s in quote_spans(text, quotes) if s is not None]
    cuts = sorted({0, len(text), *(s[0] for s in spans), *(s[1] for s in spans)})
    segments = []
    for a, b in itertools.pairwise(cuts):
        if a == b:
            continue
        marks = tuple(n for s, e, n in spans if s <= a and b <= e)
        segments.append(Segment(text[a:b], marks))
    return segments


def etalon_yaml(content: str) -> str:
    """A stored version's content (JSON) as the YAML a lawyer reads, keys in the file's usual order."""
    data = json.loads(content) if content else {}
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=110)


@dataclass(frozen=True)
class DiffLine:
    kind: str          # "add" | "del" | "ctx" | "hunk"
    text: str


def diff(old: str, new: str, old_name: str, new_name: str) -> list[DiffLine]:
    lines = []
    for line in difflib.unified_diff(old.splitlines(), new.splitlines(), old_name, new_name, lineterm="", n=2):
        if line.startswith(("---", "+++")):
            continue
        kind = "hunk" if line.startswith("@@") else "add" if line.startswith("+") else \
            "del" if line.startswith("-") else "ctx"
        lines.append(DiffLine(kind, line))
    return lines


def excerpt(text: str, line: int, around: int = 3) -> list[tuple[int, str, bool]]:
    """Numbered lines around `line` (1-based), the line itself flagged: where an error sits in a file."""
    lines = text.splitlines()
    first, last = max(1, line - around), min(len(lines), line + around)
    return [(n, lines[n - 1], n == line) for n in range(first, last + 1)]


_DECIDING = ("negative:", "not positive:", "confirmed gross error", "confirmed refusal")


def verdict_rule(verdict: str | None, score: float | None, notes: Sequence[str], negative_below: float,
                 positive_at: float) -> str:
    """In words, the rule that decided a verdict: the methodology's own deciding note when one applied
    (a confirmed error, a missing mandatory source, a gross error, a refusal), else the score band."""
    deciding = [n for n in notes if n.startswith(_DECIDING)]
    if deciding:
        return deciding[0]
    if verdict is None or score is None:
        return "no verdict: the answer could not be scored"
    if verdict == "negative":
        return f"negative: score {score:g} below {negative_below:g}"
    if verdict == "positive":
        return f"positive: score {score:g} at least {positive_at:g}, no mandatory source missing"
    return f"partial: score {score:g} between {negative_below:g} and {positive_at:g}"

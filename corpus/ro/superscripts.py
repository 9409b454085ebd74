"""Superscript indexes a PDF conversion printed as plain digits, put back.

Consolidated Romanian codes number inserted units with a superscript index (art. 15^1, alin. (1^1), pct. 20^1,
lit. a^1)); converted to Markdown, the index lands on the base ("Articolul 151", "(11" with ")" on the next line;
"a", "1" and ")" on three lines or "m1" then ")" for a letter).
A number is read as base^index only where the text proves it: the previous marker of its kind is the base, or the
article sequence runs 15, 151, 152, 16.
"""

from __future__ import annotations

import re

_WRAPPED_CLOSE = re.compile(r"\n[).]")
_FLAT_ALINEAT = re.compile(r"\((\d{2,3})$")
_FLAT_LETTER = re.compile(r"\n([a-zăâîșț])\n(\d{1,2})$")
_FLAT_LETTER_LINE = re.compile(r"\n([a-zăâîșț])(\d{1,2})$")  # "m1" then ")": the index on the letter's line
_FLAT_POINT = re.compile(r"\n(\d{2,4})$")
_ALINEAT_BEFORE = re.compile(r"\n\((\d+)(?:\^\d+)?(?:\)|\n\))")
_POINT_BEFORE = re.compile(r"\n(\d+)(?:\^\d+)?(?:\.|\n\.)[^\S\n]")


def _split_index(digits: str, base: str | None) -> str:
    """``digits`` as base^index: after the marker ``base`` (the previous one of its kind) "11" is 1^1 and
    "110" is 1^10; without one, the index is the last digit."""
    if base and len(digits) > len(base) and digits.startswith(base) and digits[len(base)] != "0":
        return base + "^" + digits[len(base) :]
    return digits[:-1] + "^" + digits[-1]


def _previous_base(text: str, end: int, before: re.Pattern[str], resolved: dict[int, str]) -> str | None:
    """The number of the last marker matching ``before`` in the 3,000 characters before ``end`` (one put
    back together already counts with its base)."""
    last = None
    for m in before.finditer(text, max(0, end - 3000), end):
        last = m
    if last is None:
        return None
    return resolved.get(last.start() + 1, last.group(1))


def join_superscripts(text: str) -> str:
    """Put the markers whose superscript index the PDF wrapped back together."""
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement) in text order
    resolved: dict[int, str] = {}  # where a marker was put back together: its base
    for wrapped in _WRAPPED_CLOSE.finditer(text):
        pos = wrapped.start()
        if wrapped.group() == "\n)":
            letter = (_FLAT_LETTER.search(text, max(0, pos - 6), pos)
                      or _FLAT_LETTER_LINE.search(text, max(0, pos - 4), pos))
            if letter is not None:
                edits.append((letter.start() + 1, pos + 2, f"{letter.group(1)}^{letter.group(2)})"))
                continue
            alineat = _FLAT_ALINEAT.search(text, max(0, pos - 4), pos)
            if alineat is None:
                continue
            at = alineat.start()
            line_start = at > 0 and text[at - 1] == "\n"  # a marker, not a reference "alin. (52\n)"
            base = _previous_base(text, at - 1, _ALINEAT_BEFORE, resolved) if line_start else None
            number = _split_index(alineat.group(1), base)
            if line_start:
                resolved[at] = number.partition("^")[0]
            edits.append((at, pos + 2, "(" + number + ")"))
        elif text[pos + 2 : pos + 3] in (" ", "\t"):
            point = _FLAT_POINT.search(text, max(0, pos - 6), pos)
            if point is not None:
                at = point.start() + 1
                number = _split_index(point.group(1), _previous_base(text, at - 1, _POINT_BEFORE, resolved))
                resolved[at] = number.partition("^")[0]
                edits.append((at, pos + 2, number + "."))
    if not edits:
        return text
    out: list[str] = []
    done = 0
    for start, end, replacement in edits:
        out.append(text[done:start])
        out.append(replacement)
        done = end
    out.append(text[done:])
    return "".join(out)


def unflatten_articles(articles: list[tuple[str, str, str | None, str | None]]) -> None:
    """Article headings whose superscript index the PDF printed as plain digits: "15", "151", "152", "16" are
    15, 15^1, 15^2, 16. A number is read so only where the sequence proves it: it extends the previous
    article's number, and the next article that does not is between the two."""
    numbers = [a[0] for a in articles]
    for k in range(1, len(numbers)):
        n = numbers[k]
        base = numbers[k - 1].partition("^")[0]
        if not (n.isdecimal() and base.isdecimal() and len(n) > len(base) and n.startswith(base)
                and n[len(base)] != "0"):
            continue
        following = next((m.partition("^")[0] for m in numbers[k + 1 : k + 40]
                          if not (m.isdecimal() and len(m) > len(base) and m.startswith(base))), None)
        if following is not None and following.isdecimal() and int(base) < int(following) < int(n):
            numbers[k] = base + "^" + n[len(base) :]
            _n, _written, heading, context = articles[k]
            articles[k] = (numbers[k], numbers[k], heading, context)

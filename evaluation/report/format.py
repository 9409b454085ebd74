"""How numbers, names and links are written on the report's pages.

Every string that reaches a page passes through `esc` (answers, etalon texts and system names are untrusted),
every link is built by `link` from a file name this package made (`slug`), so nothing from the data can become
markup, an event attribute or a `javascript:` address. Widths of SVG labels are estimated here, generously,
because an SVG text never wraps: a label the plot did not leave room for is cut off.
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from html import escape

DASH = "–"
MIN_N = 5  # below this many etalons a mean or a slice is shown as too few to say anything


def esc(value: object) -> str:
    return escape("" if value is None else str(value), quote=True)


def missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def num(value: object, digits: int = 1) -> str:
    """A score on the 0–100 scale, a count or an amount, never with more digits than the data can carry."""
    if missing(value):
        return DASH
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}".replace(",", " ")
    if isinstance(value, float):
        value = value + 0.0  # -0.0 (a penalty of nothing) is written 0.0
        return f"{value:,.{digits}f}".replace(",", " ")
    return str(value)


def words(name: object) -> str:
    """A field or category name as words ("next_steps" -> "next steps", "tokens_in" -> "tokens in")."""
    return "" if name is None else str(name).replace("_", " ")


def signed(value: object, digits: int = 1) -> str:
    if missing(value):
        return DASH
    assert isinstance(value, (int, float))
    return ("+" if value > 0 else "−" if value < 0 else "") + f"{abs(value):.{digits}f}"


def pct(value: object, digits: int = 0) -> str:
    """A rate in [0, 1] as a percentage."""
    if missing(value):
        return DASH
    assert isinstance(value, (int, float))
    return f"{100 * value:.{digits}f}%"


def interval(low: object, high: object, digits: int = 1, percent: bool = False) -> str:
    if missing(low) or missing(high):
        return ""
    if percent:
        assert isinstance(low, (int, float)) and isinstance(high, (int, float))
        return f"{100 * low:.0f}{DASH}{100 * high:.0f}%"
    return f"{num(low, digits)}{DASH}{num(high, digits)}"


def p_value(value: object) -> str:
    """A p-value of 3e-9 is not "0.000"; one of 0.4 needs no more than two digits."""
    if missing(value):
        return DASH
    assert isinstance(value, (int, float))
    if value < 0.001:
        return "< 0.001"
    return f"{value:.3f}" if value < 0.1 else f"{value:.2f}"


def slug(text: str) -> str:
    """A file name for a system id or an etalon code: safe characters only, and a short hash whenever
    anything had to change, so two different ids never share a page."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "-", plain).strip("-")[:60] or "item"
    if cleaned != text:
        cleaned += "-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
    return cleaned


def link(href: str, text: str, css: str = "") -> str:
    """A relative link inside the report folder; `href` is always built from `slug` by this package."""
    if not re.fullmatch(r"(\.\./)?[A-Za-z0-9_./#-]+", href) or ":" in href or href.startswith("/"):
        raise ValueError(f"not a relative link inside the report: {href!r}")
    attr = f" class='{esc(css)}'" if css else ""
    return f"<a href='{esc(href)}'{attr}>{esc(text)}</a>"


_NARROW = set("iljtfr.,:;|!'`()[] ")
_WIDE = set("mwMWШЩЖЮФшщжюфМ%@—")


def text_width(text: str, size: float = 12.0) -> float:
    """A generous estimate of the drawn width of `text` in a sans-serif font of `size` px (DejaVu Sans, the
    widest common default, is the yardstick)."""
    total = 0.0
    for char in text:
        if char in _NARROW:
            total += 0.36
        elif char in _WIDE:
            total += 0.98
        elif char.isupper():
            total += 0.76
        else:
            total += 0.64
    return total * size


def fit(text: str, width: float, size: float = 12.0) -> str:
    """`text` shortened with an ellipsis until its estimated width fits (the full text goes in a title)."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"

"""Equal-length normalisation, dates and numbers shared by both grammars.

Every span we report must index the ORIGINAL text, so the grammars run on a copy of exactly the same length:
lower case, one kind of dash, quote and space, and Romanian letters without diacritics (comma, cedilla or none
all fold to the bare letter), so one pattern covers every spelling found in real answers.
"""

from __future__ import annotations

import re
from functools import lru_cache

_FOLD = {
    "ё": "е",
    "ș": "s",
    "ş": "s",
    "ț": "t",
    "ţ": "t",
    "ă": "a",
    "â": "a",
    "î": "i",
    "\u00a0": " ",
    "\u202f": " ",
    "\u2009": " ",
    "\u2007": " ",
    "\t": " ",
    "\u2013": "-",
    "\u2014": "-",
    "\u2012": "-",
    "\u2011": "-",
    "\u2010": "-",
    "\u2212": "-",
    "«": '"',
    "»": '"',
    "„": '"',
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
    "`": "'",
}
_FOLD_ITEMS = tuple(_FOLD.items())
# Rare in answers, so tested for once, together: line ends other than "\n" (CRLF, a lone CR, Unicode line and
# paragraph separators, form feed) fold to a line end, zero-width spaces and a stray BOM to a space, and "?i" (a
# "și" whose ș a bad encoding lost) to "si".
_RARE_ITEMS = (("\u2028", "\n"), ("\u2029", "\n"), ("\x0b", "\n"), ("\x0c", "\n"), ("\x85", "\n"), ("\u200b", " "),
               ("\ufeff", " "))
_LOST_SI = re.compile(r"(?<![\w?])\?i(?![\w?])")


def fold(text: str) -> str:
    """Lower-case, diacritic-free copy of `text` with the same length (so offsets carry over unchanged)."""
    lowered = text.lower()
    if len(lowered) != len(text):  # a few letters (İ) lower to two code points: keep those as they are
        lowered = "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)
    # str.translate walks every character in Python-object land; a C-speed substring test per foldable
    # character, replacing only those present, is several times faster on real answers.
    for ch, plain in _FOLD_ITEMS:
        if ch in lowered:
            lowered = lowered.replace(ch, plain)
    if not (
        "\r" in lowered or "?" in lowered or "\u2028" in lowered or "\u2029" in lowered or "\x0b" in lowered
        or "\x0c" in lowered or "\x85" in lowered or "\u200b" in lowered or "\ufeff" in lowered
    ):
        return lowered  # one C-speed test each, inline: a regex class or a generator costs several times more
    for ch, plain in _RARE_ITEMS:
        if ch in lowered:
            lowered = lowered.replace(ch, plain)
    if "?i" in lowered:  # "art. 3 alin. 1 ?i 2": "și" whose ș a bad encoding turned into "?"
        lowered = _LOST_SI.sub("si", lowered)
    if "\r" in lowered:  # CRLF and a lone CR (old Mac files) end a line as "\n" does, in as many characters
        lowered = lowered.replace("\r\n", " \n").replace("\r", "\n")
    return lowered


_MONTHS = {
    # Russian genitive month names and Romanian month names (folded) -> month number
    "январ": 1, "феврал": 2, "март": 3, "апрел": 4, "ма": 5, "июн": 6, "июл": 7, "август": 8,
    "сентябр": 9, "октябр": 10, "ноябр": 11, "декабр": 12,
    "ianuarie": 1, "februarie": 2, "martie": 3, "aprilie": 4, "mai": 5, "iunie": 6, "iulie": 7,
    "august": 8, "septembrie": 9, "octombrie": 10, "noiembrie": 11, "decembrie": 12,
}  # fmt: skip

MONTH_WORD = (
    r"(?:январ[яь]|феврал[яь]|марта?|апрел[яь]|ма[яй]|июн[яь]|июл[яь]|августа?|сентябр[яь]|октябр[яь]"
    r"|ноябр[яь]|декабр[яь]|ianuarie|februarie|martie|aprilie|mai|iunie|iulie|august|septembrie"
    r"|octombrie|noiembrie|decembrie)"
)
DATE = rf"(?:\d{{1,2}}\.\d{{1,2}}\.(?:\d{{4}}|\d{{2}}(?!\d))|\d{{1,2}}\s+{MONTH_WORD}\s+\d{{4}})(?:\s*(?:г\.|года|г\b))?"
_DATE_RE = re.compile(rf"(\d{{1,2}})(?:\.(\d{{1,2}})\.|\s+({MONTH_WORD})\s+)(\d{{4}})")


@lru_cache(maxsize=4096)
def iso_date(folded: str) -> str | None:
    """ISO date from the first date written in `folded` (dd.mm.yyyy or '21 января 2016'), or None."""
    m = _DATE_RE.search(folded)
    if m is None:
        return None
    day, month_num, month_word, year = m.groups()
    if month_num is not None:
        month = int(month_num)
    else:
        month = next((n for stem, n in _MONTHS.items() if month_word.startswith(stem)), 0)
        if month_word in ("ма", "мая", "май"):
            month = 5
        if month_word.startswith("март"):
            month = 3
    if not (1 <= month <= 12 and 1 <= int(day) <= 31):
        return None
    return f"{year}-{month:02d}-{int(day):02d}"


def is_cyrillic_text(text: str) -> bool:
    """Whether a text is mostly Cyrillic: the `auto` jurisdiction of an answer.

    Counted through the UTF-8 length (done in C): Cyrillic letters take two bytes, Latin ones one, and the
    Romanian diacritics are too sparse to pass for Cyrillic.
    """
    sample = text[:2000]
    return len(sample.encode("utf-8")) - len(sample) > len(sample) // 4


def search_back(
    scan: re.Pattern[str], not_after: frozenset[str], text: str, lo: int, pos: int
) -> re.Match[str] | None:
    """The leftmost match of `scan` in text[lo:pos] that no character of `not_after` stands before, or None.

    For the patterns read backwards from a keyword ("п. 1 ч. 2 " before "ст. 81", "п. 34 " before
    "постановления"): a word-start look-behind in front of them would keep the regex engine from skipping, in
    C, to the positions their first letters stand at, so it is checked here on each hit instead, moving on to
    the next one; the match found is the one the look-behind pattern would find.
    """
    at = lo
    while True:
        m = scan.search(text, at, pos)
        if m is None:
            return None
        start = m.start()
        if not start or text[start - 1] not in not_after:
            return m
        at = start + 1


TRAILING = frozenset(" \t\r\n,;:\u00a0")


def trim_end(text: str, start: int, end: int) -> int:
    """`end` moved back over trailing spaces and punctuation, never before `start`: a citation's span."""
    if end <= start or text[end - 1] not in TRAILING:
        return end
    while end > start and text[end - 1] in TRAILING:
        end -= 1
    return end

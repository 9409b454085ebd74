"""Romanian text repair and article structure shared by the Markdown codes and the web-service records.

Romanian has two spellings of ş/ţ (legacy cedilla and correct comma below); both are unified to the
comma forms so a search for "soţ" finds "soț". The web service replaces diacritics it cannot encode
with '?'; where the same word appears intact elsewhere in the record it is restored from there.
"""

from __future__ import annotations

import re

from corpus.model import IN_FORCE, REPEALED, Draft
from corpus.numbering import normalise_ro

_DIACRITICS = "ăâîșțĂÂÎȘȚşţŞŢ"
_QWORD = re.compile(r"[\wăâîșțĂÂÎȘȚ]*\?[\w?ăâîșțĂÂÎȘȚ]*")
# an inserted alineat is printed (2^1) or, in some consolidations, (2.1): both are alin. (2^1)
ALINEAT = re.compile(r"^\((\d+(?:[\^.]\d+)?)\)\s*")
# after z) a list goes on aa), bb), ...
LITERA = re.compile(r"^((?P<letter>[a-zăâîșț])(?P=letter)?(?:\^\d+)?)\)\s*")
# points keep their dotted sub-numbers ("pct. 6.1", as citations write them)
PUNCT = re.compile(r"^(\d+(?:[\^.]\d+)*)\.\s+")
MARKER_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzăâîșț")
AFTER_MARKER_LETTER = frozenset(")^")
# "Abrogat.", "(abrogat)", "[textul din ... a fost abrogat", "- *** A B R O G A T ***" (letter-spaced) or
# "*** Abrogată", "28/07/2022 - litera a fost abrogată prin ..." (a consolidation's note standing for the text)
REPEAL_RO = re.compile(r"^\s*(?:[-–]\s*)?(?:\[?textul din\b.*\ba fost abrogat|\(?abrogat[ăa]?\b"
                       r"|\*+\s*(?:a b r o g a t|abrogat[ăa]?)\b"
                       r"|\d\d/\d\d/\d{4} - \w+ a fost abrogat)", re.I | re.S)
_REPEAL_AT = re.compile(REPEAL_RO.pattern[1:], re.I | re.S)  # REPEAL_RO from a position, no slice copied


def _may_repeal(line: str) -> bool:
    """A short unit that names its repeal: substring checks rule out most units before _REPEAL_AT runs."""
    return len(line) < 300 and ("brog" in line or "B R O G" in line or "BROG" in line)


def unify(text: str) -> str:
    # chained str.replace runs in C over the whole text; str.translate with a dict is ~10x slower
    return text.replace("ş", "ș").replace("Ş", "Ș").replace("ţ", "ț").replace("Ţ", "Ț")


def repair_question_marks(value: str, reference: str) -> str:
    """Restore '?' inside words from an intact spelling in ``reference`` (case-insensitive)."""
    if "?" not in value:
        return value

    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        if word.strip("?") == "":
            return word
        pattern = "".join(f"[{_DIACRITICS}]" if c == "?" else re.escape(c) for c in word)
        found = re.search(r"(?<!\w)" + pattern + r"(?!\w)", reference, re.I)
        if not found:
            return word
        good = found.group(0)
        out = [
            (g.upper() if w == "?" and i > 0 and word[i - 1].isupper() and (i + 1 >= len(word) or not word[i + 1].islower())
             else g.lower() if w == "?" else w)
            for i, (w, g) in enumerate(zip(word, good, strict=True))
        ]
        return unify("".join(out))

    return _QWORD.sub(fix, value)


def article_units(article: str, written: str, heading: str | None, body: list[str], context: str | None,
                  seen: set[str], out: list[Draft]) -> None:
    """One article with its alineate ``(1)``, litere ``a)`` and puncte ``1.``.

    Under an alineat (or an article without alineate) the kind of marker that comes first is its own level
    and the other kind nests under the last of those: "1. ...:" then "a)" is pct. 1 lit. a) (``N/1/a``),
    "a) ...:" then "1." is lit. a) pct. 1 (``N/a/1``), and the next "2." or "b)" is back on the first level."""
    text = "\n".join(body).strip()
    path = article
    if path in seen:  # amending acts quote articles of other acts: keep every one, addressable
        n = 2
        while path in seen:
            path = f"{article}~{n}"
            n += 1
    seen.add(path)
    # repealed: a short text saying so, or no text under a heading that does ("Articolul 236 — Abrogat")
    status = (REPEALED if (text and len(text) < 300 and REPEAL_RO.search(text))
              or (not text and heading and REPEAL_RO.match(heading)) else IN_FORCE)
    out.append([article, path, "article", written, heading, text, status, context])  # drafts as list literals
    alin: str | None = None
    first_kind: str | None = None  # the kind of the first point or letter under the current alineat
    top = path  # the last unit of that first kind: where a unit of the other kind belongs
    for line in body:
        # most lines open with a capital and are no marker: the first characters rule the regexes out
        first = line[:1]
        if first == "(":
            m = ALINEAT.match(line)
            if m is None:
                continue
            number = m.group(1)
            alin = number if number.isdecimal() else normalise_ro(number.replace(".", "^"))
            sub = path + "/" + alin
            first_kind = None
            if sub not in seen:
                seen.add(sub)
                st = REPEALED if _may_repeal(line) and _REPEAL_AT.match(line, m.end()) else IN_FORCE
                out.append([article, sub, "paragraph", "(" + number + ")", None, line, st, context])
            continue
        if first.isdigit():
            m = PUNCT.match(line)
            kind = "point"
        elif first in MARKER_LETTERS and (line[1:2] in AFTER_MARKER_LETTER
                                          or (line[1:2] == first and line[2:3] in AFTER_MARKER_LETTER)):
            m = LITERA.match(line)
            kind = "letter"
        else:
            continue
        if m is None:
            continue
        number = m.group(1)
        if first_kind is None:
            first_kind = kind
        if kind == first_kind:
            sub = top = f"{path}/{alin}/{number}" if alin else f"{path}/{number}"
        else:
            sub = top + "/" + number
        if sub not in seen:
            seen.add(sub)
            st = REPEALED if _may_repeal(line) and _REPEAL_AT.match(line, m.end()) else IN_FORCE
            out.append([article, sub, kind, m.group(0).strip(), None, line, st, context])

"""How a Russian act writes the markers of its units and the repeal of them.

Parts "1.", points "1)", letters "а)", ranges of repealed ones ("2 - 3. Утратили силу.", "Статьи 181 - 182.
Утратили силу.") and the placeholder a consolidated text leaves for a repealed unit. corpus.ru.structure walks an
article with these; here is what each marker looks like, in one place.
"""

from __future__ import annotations

import re

from corpus.model import IN_FORCE, OMITTED, REPEALED, is_omission
from corpus.numbering import normalise_ru

PART = re.compile(r"^(\d+(?:[.\-]\d+)*)\.(?:\s+|(?=[^\d\s]))")
POINT = re.compile(r"^(\d+(?:[.\-]\d+)*)\)\s*")
# a letter inserted later carries the portal's superscript as ".1": "б.1)" (Constitution art. 83 «б¹»)
LETTER = re.compile(r"^([а-яё](?:\.\d+)?)\)\s*")
REPEAL = re.compile(r"утратил[аио]?\s+силу|не\s+подлежащ\w*\s+применени|признан[аоы]?\s+утратившим|исключен[аоы]?\b|не\s+применя", re.I)

# "Утратил силу", "пункт утратил силу", and a placeholder naming what it was: "Часть вторая. - Утратила силу.",
# "Абзац - Утратил силу.", "Абзацы четвертый - пятый. - Утратили силу."
REPEALED_BODY = re.compile(
    r"^(?:\(?(?:дополнение\s+\w+\s*-[^)]*\)\s*)?\(?\s*"
    r"(?:(?:пункт|подпункт|част|абзац|стать|глав)[а-яё]*(?:\s+[а-яё\d.]+(?:\s*[-–—]\s*[а-яё\d.]+)?)??"
    r"\.?\s*(?:[-–—]\s*)?)?"
    r"(?:утратил[аио]?\s+силу|исключен[аоы]?|не\s+применя\w+))",
    re.I,
)
# Repealed articles written as one range: "Статьи 181 - 182. Утратили силу. - Федеральный закон ..."
ARTICLE_RANGE = re.compile(r"^Статьи\s+(\d+(?:[.\-]\d+)*)\s*[-–—]\s*(\d+(?:[.\-]\d+)*)\.\s*(.+)$", re.S)
# Repealed parts or points written as one range: "2 - 3. Утратили силу. - Федеральный закон ...", "5 - 7) утратили силу"
# ("2.-4. Части утратили силу.", "6-7). Пункты утратили силу." in some exports)
RANGE = re.compile(r"^(\d+(?:\.\d+)*)\.?\s*[-–—]\s*(\d+(?:\.\d+)*)([.)])\.?\s")


def hyphen_range(number: str) -> bool:
    """Whether a hyphenated marker is a range ("6-7)") rather than an inserted number ("2.1-1.", "6-1)")."""
    head, _, tail = number.rpartition("-")
    return head.isdecimal() and tail.isdecimal() and int(tail) > int(head)


def only_repeal(text: str) -> bool:
    """True when a unit's whole text is an editorial repeal note ("3) (Утратил силу - ...)")."""
    if len(text) > 320 or not ("сил" in text or "ключ" in text or "примен" in text):
        return False
    m = RANGE.match(text) or PART.match(text) or POINT.match(text) or LETTER.match(text)
    rest = text[m.end() :] if m else text
    rest = rest.strip().lstrip("(").strip()
    return len(rest) < 300 and REPEALED_BODY.match(rest) is not None


def range_numbers(first: str, last: str) -> list[str]:
    """The numbers a range names: 181 - 183 -> 181, 182, 183; 183.1 - 183.4 -> 183.1 ... 183.4; else both ends."""
    a, b = normalise_ru(first), normalise_ru(last)
    head_a, _, tail_a = a.rpartition(".")
    head_b, _, tail_b = b.rpartition(".")
    if head_a == head_b and tail_a.isdecimal() and tail_b.isdecimal() and 0 < int(tail_b) - int(tail_a) < 100:
        prefix = f"{head_a}." if head_a else ""
        return [f"{prefix}{n}" for n in range(int(tail_a), int(tail_b) + 1)]
    return [a, b]


def unit_status(text: str) -> str:
    # the checks only_repeal opens with, made here in C before a Python call for every unit
    if len(text) <= 320 and ("сил" in text or "ключ" in text or "примен" in text) and only_repeal(text):
        return REPEALED
    if len(text) < 200 and "опущен" in text and is_omission(text):
        return OMITTED
    return IN_FORCE

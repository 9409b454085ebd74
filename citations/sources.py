"""Body text versus a separate list of sources at the end of an answer.

Methodologies credit a norm applied in the reasoning differently from one only listed at the bottom
("Источники:", "Temei legal:"), so every citation is marked with whether it sits in the body.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citations.model import Citation
from citations.text import fold

_HEADING = re.compile(
    r"(?m)^[ \t#*_>-]*(?:источники|список\s+источников|список\s+(?:нормативных\s+)?(?:актов|литературы)|"
    r"нормативн[а-я]*\s+(?:база|акты|основани[а-я]*)|правов[а-я]*\s+(?:основани[а-я]*|база)|ссылки|"
    r"surse|surse\s+legale|baza\s+legala|temei(?:ul)?\s+legal|referinte|legislatie\s+relevanta|"
    r"sources|references|legal\s+basis)[ \t*_]*:?[ \t*_]*$|"
    r"^[ \t#*_>-]*(?:источники|surse|temei\s+legal|baza\s+legala|sources)[ \t*_]*:"
)


def sources_start(text: str) -> int | None:
    """Offset where a trailing sources list begins (a heading in the last half of the answer), else None."""
    folded = fold(text)
    last = None
    for m in _HEADING.finditer(folded):
        last = m
    if last is None or last.start() < len(text) // 2:
        return None
    return last.start()


def in_body(citations: Sequence[Citation], text: str) -> list[bool]:
    """For each citation, whether it is in the body (True) or only in the trailing sources list (False)."""
    start = sources_start(text)
    return [start is None or c.start < start for c in citations]

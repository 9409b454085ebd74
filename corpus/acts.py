"""Document -> canonical act key, through the one registry the citations library also reads.

``citations/data/acts.yaml`` decides what "ГК РФ" or "Codul civil" means everywhere; this module only
composes a document's own words (type, number, title) into a phrase the registry can read.
"""

from __future__ import annotations

import re

_ROMAN = {"I": "1", "II": "2", "III": "3"}


def act_for_name(name: str, jurisdiction: str) -> str | None:
    """The act a document's title or header names, or None when the registry does not know it."""
    if not name.strip():
        return None
    from citations.registry import default_registry  # imported late: the registry is the citations package's
    from citations.text import fold

    reg = default_registry()
    key = reg.key_for(name, jurisdiction)
    if key is not None:
        return key
    for match in reg.find_all(fold(name), jurisdiction):
        if match.key is not None:
            return match.key
    return None


def ru_law_number(number: str) -> str:
    """``2300-I`` (Roman suffix of pre-1993 laws) -> ``2300-1`` as citations write it."""
    head, _, tail = number.partition("-")
    tail = _ROMAN.get(tail.upper(), tail)
    return f"{head}-{tail}" if tail else head


def act_for_ru_law(kind_word: str, number: str | None, title: str) -> str | None:
    parts = [kind_word.lower() or "закон"]
    if number:
        parts.append(f"№ {ru_law_number(number).lower()}")
    if title:
        parts.append(title.lower())
    key = act_for_name(" ".join(parts), "ru")
    if key is None and number and re.fullmatch(r"\d+-фз", number.lower()):
        key = f"ru/fz-{number.split('-')[0]}"
    return key

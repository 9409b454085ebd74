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


def ro_act_written(line: str) -> tuple[int, str, str] | None:
    """(where, act key, "number/year") of the first Romanian act a line names by its type and number."""
    from citations.registry import default_registry
    from citations.text import fold

    return default_registry().ro_law_in(fold(line))


def enacted_in_parts(act: str) -> bool:
    """Whether the act is one of those enacted as several laws (citations/data/parts.yaml: ГК, НК)."""
    from citations.parts import parted_acts

    return act in parted_acts()


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


# How the registry writes each Romanian act type; the web service's TipAct is mapped to these slugs first.
_RO_PHRASE = {
    "lege": "Legea", "oug": "Ordonanța de urgență a Guvernului", "og": "Ordonanța Guvernului",
    "hg": "Hotărârea Guvernului", "decret": "Decretul",
}


def act_for_ro_act(slug: str | None, number: str | None, year: str | None, title: str) -> str | None:
    """A Romanian act's key: the registry's answer first, ``ro/<type>-<number>-<year>`` only when it has none.

    The registry is asked about the record's own name only (its title as a whole, then its type, number
    and year as a citation writes them), never about the acts a title mentions: "LEGE nr. 87/2026 pentru
    completarea Ordonanței ... nr. 119/2006" is law 87/2026, not the ordinance it amends.
    """
    from citations.registry import default_registry

    reg = default_registry()
    key = reg.key_for(title, "ro") if title.strip() else None
    if key is None and slug in _RO_PHRASE and number and year:
        key = reg.key_for(f"{_RO_PHRASE[slug]} nr. {number}/{year}", "ro")
    if key is None and slug and number and year:
        key = f"ro/{slug}-{number}-{year}".lower()
    return key


def is_code(key: str | None) -> bool:
    """Whether the registry files an act as a code: a law that enacts one (Law 53/2003) is read as the code."""
    from citations.registry import default_registry

    return key is not None and default_registry().kind_of(key) == "code"

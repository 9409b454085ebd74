"""Resolutions of the Russian Government, and the rules they approve, as documents of their own.

A decree ("ПРАВИТЕЛЬСТВО РОССИЙСКОЙ ФЕДЕРАЦИИ / ПОСТАНОВЛЕНИЕ / от 6 мая 2011 г. N 354") has a few numbered
points; what answers cite are the rules it approves, printed after it under "УТВЕРЖДЕНЫ постановлением ..."
and numbered afresh ("п. 9.10 ПДД", "п. 31 Правил № 354"). Read as one text, the second "1." would fold every
rule into the decree's last point, so the decree and each approved annex are split apart here and each keeps
its own points, sequenced as the Plenum reader sequences them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from corpus.ru.resolution import PLENUM
from corpus.ru.structure import Line, clean

ISSUER = "Правительство Российской Федерации"
_GOVERNMENT = re.compile(r"правительств\w*\s+(?:российской\s+федерации|рф)(?![а-яё])", re.I)
# "УТВЕРЖДЕНЫ", "Утверждены", "УТВЕРЖДЕНО постановлением ...": the approval stamp over an annex
APPROVED = re.compile(r"^(?:УТВЕРЖДЕН[ЫАО]?|Утвержден[ыао]?)(?![а-яёА-ЯЁ])")
# the stamp's own lines, before the annex's title: "постановлением Правительства", "Российской Федерации",
# "от 6 мая 2011 г. N 354"
_STAMP_LINE = re.compile(r"^(?:постановлени|Постановлени|Правительств|Российской|Совета|от\s|\(|приказ|распоряж)")


@dataclass(frozen=True)
class Annex:
    title: str
    lines: list[Line]


# the decree's own heading: "ПОСТАНОВЛЕНИЕ" on its line, or the export's "Постановление Правительства РФ от ..."
_DECREE_LINE = re.compile(r"^(?:ПОСТАНОВЛЕНИЕ\s*$|Постановление\s+Правительства\s)", re.M)


def looks_like_government_resolution(head: str) -> bool:
    return (_DECREE_LINE.search(head) is not None and _GOVERNMENT.search(head) is not None
            and PLENUM.search(head) is None)


def split_annexes(lines: Sequence[Line]) -> tuple[list[Line], list[Annex]]:
    """The decree's own lines, and each approved annex with its title (its capitalised heading lines)."""
    cuts = [i for i, ln in enumerate(lines) if APPROVED.match(ln.text)]
    bounds = [*cuts, len(lines)]
    annexes = [Annex(_title(lines[start:end]), list(lines[start:end])) for start, end in pairwise(bounds)]
    return list(lines[: cuts[0] if cuts else len(lines)]), annexes


def _title(piece: Sequence[Line]) -> str:
    caps: list[str] = []
    for ln in piece[1:40]:
        t = ln.text
        if not t or (not caps and _STAMP_LINE.match(t)):
            continue
        if t.isupper():
            caps.append(t)
        elif caps:
            break
    return clean(" ".join(caps))

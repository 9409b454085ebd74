"""Article numbers as citations write them, so a corpus unit and a cited article compare as strings.

Conventions shared with the citations library: Russian dotted articles stay dotted (``12.8``) and a
portal superscript (``390<sup>1</sup>``) becomes ``390.1``; Romanian thousands dots vanish
(``1.272`` -> ``1272``) and index articles keep a caret (``471^1``, also when printed ``471¹``).
"""

from __future__ import annotations

import re

_RO_THOUSANDS = re.compile(r"^(\d{1,3})\.(\d{3})$")
_SUPERSCRIPTS = "¹²³⁴⁵⁶⁷⁸⁹⁰"
_RO_SUPERSCRIPT = re.compile(f"[{_SUPERSCRIPTS}]+$")
_FROM_SUPERSCRIPT = str.maketrans(_SUPERSCRIPTS, "1234567890")
_SPACES = re.compile(r"\s+")


def normalise_ru(number: str) -> str:
    if number.isdecimal():
        return number  # the common case, once per unit: no regex needed
    n = _SPACES.sub("", number).strip(".").replace("-", ".").replace("^", ".")
    return n


def normalise_ro(number: str) -> str:
    if number.isdecimal():
        return number
    n = _SPACES.sub("", number).strip(".")
    n = n.replace("ˆ", "^")
    if n[-1:] in _SUPERSCRIPTS and "^" not in n:  # a printed index: "8¹" is "8^1"
        n = _RO_SUPERSCRIPT.sub(lambda m: "^" + m.group().translate(_FROM_SUPERSCRIPT), n)
    base, caret, index = n.partition("^")
    m = _RO_THOUSANDS.match(base)
    if m:
        base = m.group(1) + m.group(2)
    return base + (caret + index if caret else "")


def normalise(number: str, jurisdiction: str) -> str:
    return normalise_ro(number) if jurisdiction == "ro" else normalise_ru(number)

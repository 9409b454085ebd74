"""Folding: one spelling for every light disguise of a word, with a map back to the original text.

An instruction to the judge stays an instruction when it is written `IGNORE`, `ignoră`/`ignora`, `Ignоre`
with a Cyrillic `о`, `оцeнщик` with a Latin `e`, `i g n o r e`, `ig*nore`, `1gn0re`, in full-width or
mathematical letters, or with zero-width characters inside. Folding undoes all of these before any
pattern or template is matched, so the registry is written once in plain words:

- NFKD, then combining marks dropped (Romanian diacritics, й→и, ё→е), format characters (zero-width
  spaces, soft hyphens) dropped, case folded;
- per word, letters that look alike in Latin and Cyrillic are rewritten into the word's own script
  (decided by the letters only one script has; a tie keeps the majority);
- in a word mixing letters and digits, look-alike digits become letters (0→o, 1→i, 3→e, ...);
- letters spelled out one by one (`i g n o r e`, `I.G.N.O.R.E`) are joined, junk inside a word (`ig*nore`)
  is dropped, a hyphen between letters becomes a space;
- any other punctuation becomes a space, except `,` `:` `/` `%` (vocatives, labels, `10/10`, `100%`).

`Folded.index[i]` is the offset in the original text of folded character i, so a match maps back to the
passage a reviewer reads.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# Look-alike pairs (Latin, Cyrillic), lower case; upper-case pairs fold to these after case folding.
_PAIRS = ("aа", "cс", "eе", "oо", "pр", "xх", "yу", "iі", "jј", "sѕ", "dԁ", "hһ", "qԛ", "wԝ", "kк", "mм",
          "bв", "hн", "tт")
_TO_CYR = {pair[0]: pair[1] for pair in _PAIRS}
_TO_LAT = {pair[1]: pair[0] for pair in _PAIRS}
_GREEK = {"α": "a", "ε": "e", "ο": "o", "ρ": "p", "ι": "i", "κ": "k", "ν": "v", "τ": "t", "υ": "u", "χ": "x"}
_LEET_LAT = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
_LEET_CYR = {"0": "о", "3": "з", "4": "ч", "6": "б", "@": "а"}
_KEEP = frozenset(",:/%")
_SPELLED = re.compile(r"(?<![^\W\d_])(?:[^\W\d_][ .\-_*·/]{1,2}){2,}[^\W\d_](?![^\W\d_])")
_JUNK = re.compile(r"(?<=[^\W\d_])[*_'’`·•|~^+]+(?=[^\W\d_])")
_WORD = re.compile(r"(?:[^\W_]|[@$])+")


@dataclass(frozen=True)
class Folded:
    text: str
    index: tuple[int, ...]   # original offset of each folded character

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of folded[start:end]."""
        if not self.index:
            return 0, 0
        start = min(max(start, 0), len(self.index) - 1)
        last = min(max(end - 1, start), len(self.index) - 1)
        return self.index[start], self.index[last] + 1


def fold(text: str) -> Folded:
    chars: list[tuple[str, int]] = []
    for i, ch in enumerate(text):
        for out in _fold_char(ch):
            chars.append((out, i))
    chars = _drop(chars, _SPELLED)
    chars = _drop(chars, _JUNK)
    chars = _scripts(chars)
    chars = _punctuation(chars)
    return Folded("".join(c for c, _ in chars), tuple(i for _, i in chars))


@lru_cache(maxsize=8192)
def _fold_char(ch: str) -> str:
    if unicodedata.category(ch) == "Cf":
        return ""
    decomposed = unicodedata.normalize("NFKD", ch)
    base = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return "".join(_GREEK.get(c, c) for c in base)


def _drop(chars: list[tuple[str, int]], pattern: re.Pattern[str]) -> list[tuple[str, int]]:
    """The non-letters inside each match dropped: `i g n o r e` -> `ignore`, `ig*nore` -> `ignore`."""
    text = "".join(c for c, _ in chars)
    drop: set[int] = set()
    for m in pattern.finditer(text):
        drop.update(i for i in range(m.start(), m.end()) if not text[i].isalpha())
    return [c for i, c in enumerate(chars) if i not in drop] if drop else chars


def _scripts(chars: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Look-alike letters and digits rewritten into the script of the word they stand in."""
    text = "".join(c for c, _ in chars)
    out = list(chars)
    for m in _WORD.finditer(text):
        word = m.group(0)
        cyr_only = sum(1 for c in word if _cyrillic(c) and c not in _TO_LAT)
        lat_only = sum(1 for c in word if c.isascii() and c.isalpha() and c not in _TO_CYR)
        if cyr_only > lat_only:
            script = "cyr"
        elif lat_only > cyr_only:
            script = "lat"
        else:
            cyr = sum(1 for c in word if _cyrillic(c))
            lat = sum(1 for c in word if c.isascii() and c.isalpha())
            script = "cyr" if cyr > lat else "lat"
        letters = any(c.isalpha() for c in word)
        mapping = _TO_CYR if script == "cyr" else _TO_LAT
        leet = (_LEET_CYR if script == "cyr" else _LEET_LAT) if letters and not word.isdigit() else {}
        for k in range(m.start(), m.end()):
            c, i = out[k]
            out[k] = (mapping.get(c) or leet.get(c) or c, i)
    return out


def _punctuation(chars: list[tuple[str, int]]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for c, i in chars:
        if c.isalnum() or c in _KEEP:
            out.append((c, i))
        elif out and out[-1][0] != " ":
            out.append((" ", i))
    while out and out[-1][0] == " ":
        out.pop()
    return out


def _cyrillic(c: str) -> bool:
    return "\u0400" <= c <= "\u04ff"

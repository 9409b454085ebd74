"""Which unit inside an article a citation's subdivision points to ("п. 3 ч. 1" -> 81/1/3).

The corpus addresses units by position ("81/1/3": article 81, its first part, the third point of it) while a
citation names each level by a word whose meaning depends on the act: in the Civil Code a numbered paragraph
"1." is a пункт (п. 2 ст. 1152 -> 1152/2), in the Labour Code plain paragraphs are части and "1)" items are
пункты (п. 3 ч. 1 ст. 81 -> 81/1/3), and writers routinely drop the part when only one part has points
(п. 3 ст. 81 -> 81/1/3). So every corpus unit carries the word a citation would use for it, and a citation's
levels are walked down the tree, outermost first, stopping at the deepest level that matches: a resolved
citation then shows the exact text it cites, never a sibling unit that merely has the same number.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# The part words the extractor writes (citations.grammar.ru.part_name, citations.grammar.ro.sub_parts).
_LEVEL = re.compile(r"(пп|п|ч|абз|alin|lit|pct|par)\.\s*\(?([^\s()]+?)\)?(?=\s|$)")
_RU_RANK = {"ч": 0, "п": 1, "пп": 2}
_PART_WORDS = ("ч", "п")
# A Russian part whose text opens with its number and a dot is a numbered пункт (Civil, Tax Code), not a часть.
NUMBERED_TEXT = r"^\d+(?:\.\d+)*\.(?:\s|[^\d\s])"


def part_levels(part: str | None) -> list[tuple[str, str]]:
    """A citation's normalised `part` as (word, value) levels, outermost first.

    Russian writes the innermost level first ("п. 3 ч. 1"), Romanian the outermost ("alin. (2) lit. a)");
    an абзац (a plain paragraph, never a unit of its own) is dropped, so its enclosing unit is the answer.
    """
    if not part:
        return []
    levels = [(m.group(1), m.group(2)) for m in _LEVEL.finditer(part)]
    if any(word in _RU_RANK or word == "абз" for word, _ in levels):
        return sorted(((w, v) for w, v in levels if w in _RU_RANK), key=lambda level: _RU_RANK[level[0]])
    return sorted(levels, key=lambda level: level[0] != "alin")  # stable: the rest keep their written order


def cited_as(kind: str | None, jurisdiction: str, numbered: bool, parent_numbered: bool,
             parent_is_part: bool = False) -> str | None:
    """The word a citation uses for a unit of this kind, or None when any word may name it.

    A letter is a подпункт, except directly under a plain part (a часть): writers call it that part's пункт
    ("п. «б» ст. 83 Конституции", the one part left out) as often as a подпункт, so either word names it.
    Under a part the citation calls "ч." where the corpus numbers it "1." (the Criminal Code), UnitTree.deepest
    decides."""
    if jurisdiction == "ru":
        if kind == "part":
            return "п" if numbered else "ч"
        if kind == "point":
            return "пп" if parent_numbered else "п"
        if kind == "letter":
            return None if parent_is_part and not parent_numbered else "пп"
        return None
    return {"paragraph": "alin", "letter": "lit", "point": "pct"}.get(kind or "")


@dataclass(frozen=True, slots=True)
class UnitTree:
    """The addressable units of one document: what a citation calls each path, and each path's children."""

    names: dict[str, str | None]
    children: dict[str, tuple[str, ...]]

    def __contains__(self, path: str) -> bool:
        return path in self.names

    def deepest(self, base: str, levels: Sequence[tuple[str, str]]) -> str:
        """The deepest unit under `base` that the levels lead to; `base` itself when the first level is absent.

        A level missing at one depth is looked for one depth further down (the part left out of "п. 3 ст. 81")
        but only when exactly one unit there fits: a guess between two parts would show the wrong text. Last,
        a part written "ч." where the corpus numbers its parts like пункты (or the reverse) is still that part:
        telling the two apart from the text alone is a heuristic, the position is not (unless a point
        further down could be meant as well).
        """
        path = base
        previous = ""
        for word, value in levels:
            direct = f"{path}/{value}"
            # under a part the citation calls "ч." (the Criminal Code numbers its части "1.", "2."), a letter
            # is that part's пункт: "п. «в» ч. 2 ст. 105 УК"
            if self._fits(direct, word) or (previous == "ч" and word == "п" and self.names.get(direct) == "пп"):
                path, previous = direct, word
                continue
            previous = word
            below = [c for k in self.children.get(path, ()) if self._fits(c := f"{k}/{value}", word)]
            if len(below) == 1:
                path = below[0]
            elif not below and word in _PART_WORDS and self.names.get(direct, "") in _PART_WORDS:
                path = direct
            else:
                break
        return path

    def _fits(self, path: str, word: str) -> bool:
        if path not in self.names:
            return False
        name = self.names[path]
        return name is None or name == word


EMPTY = UnitTree({}, {})


def build_trees(rows: Iterable[tuple[str, str, str | None, str, bool]]) -> dict[str, UnitTree]:
    """Trees from (doc_id, path, kind, jurisdiction, text opens with 'N.') rows, one tree per document."""
    kinds: dict[str, dict[str, tuple[str | None, str, bool]]] = defaultdict(dict)
    for doc_id, path, kind, jurisdiction, numbered in rows:
        kinds[doc_id][path] = (kind, jurisdiction, numbered)
    trees: dict[str, UnitTree] = {}
    for doc_id, units in kinds.items():
        names: dict[str, str | None] = {}
        children: dict[str, list[str]] = defaultdict(list)
        for path, (kind, jurisdiction, numbered) in units.items():
            parent, _, _ = path.rpartition("/")
            parent_unit = units.get(parent)
            parent_numbered = parent_unit is not None and parent_unit[0] == "part" and parent_unit[2]
            names[path] = cited_as(kind, jurisdiction, numbered and kind == "part", parent_numbered,
                                   parent_unit is not None and parent_unit[0] == "part")
            if parent:
                children[parent].append(path)
        trees[doc_id] = UnitTree(names, {p: tuple(c) for p, c in children.items()})
    return trees

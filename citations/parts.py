"""Codes enacted in parts with one numbering (the Civil and the Tax Code): which part an article is in.

The corpus may hold ГК part one and part three but not part two. "ст. 808 ГК РФ" is then neither found nor
invented: the resolver must not call a real article of a missing part `not_found`, which a methodology scores as
an invented citation. The ranges are data (citations/data/parts.yaml), with examples a test checks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).resolve().parent / "data" / "parts.yaml"
_LEADING_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class Part:
    name: str
    first: int
    last: int


@dataclass(frozen=True, slots=True)
class PartedAct:
    act: str
    parts: tuple[Part, ...]
    examples: tuple[tuple[str, str], ...]

    def part_of(self, article: str) -> Part | None:
        """The part whose range holds the article's leading number ("152.1" is in the part holding 152)."""
        n = leading_number(article)
        if n is None:
            return None
        return next((p for p in self.parts if p.first <= n <= p.last), None)


def leading_number(article: str) -> int | None:
    """An article number's integer part, by which the ranges of parts are written: "152.1" -> 152."""
    m = _LEADING_NUMBER.match(article)
    return int(m.group()) if m is not None else None


def load(path: Path = DATA) -> dict[str, PartedAct]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    items = data.get("parts") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise ValueError(f"{path}: expected a top-level 'parts:' list")
    return {act.act: act for act in (_act(item, path, i) for i, item in enumerate(items))}


def _act(item: Any, path: Path, index: int) -> PartedAct:
    try:
        parts = tuple(Part(str(r["part"]), int(r["first"]), int(r["last"])) for r in item["ranges"])
        examples = tuple((str(c), str(p)) for c, p in item.get("examples") or ())
        return PartedAct(str(item["act"]), parts, examples)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{path}: entry {index}: expected act, ranges of {{part, first, last}} and "
                         f"[citation, part] examples ({type(exc).__name__}: {exc})") from None


@lru_cache(maxsize=1)
def parted_acts() -> dict[str, PartedAct]:
    return load()

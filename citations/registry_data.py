"""Reading the registry's data files (citations/data/acts.yaml, courts.yaml) into typed entries.

A malformed entry is refused naming the file, the entry and the field, so whoever adds a name sees at once what
is expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True, slots=True)
class ActEntry:
    key: str
    jurisdiction: str
    title: str
    type: str
    names: tuple[str, ...]
    titles: tuple[str, ...]
    slugs: tuple[str, ...]
    examples: tuple[str, ...]
    beside_article: tuple[
        str, ...
    ] = ()  # names that are the act only next to an article ("ОСАГО", a policy alone)


@dataclass(frozen=True, slots=True)
class Court:
    court: str
    jurisdiction: str
    verifiable: bool
    pattern: str
    examples: tuple[str, ...]


def load_entries(path: Path) -> list[ActEntry]:
    return [_entry(item, path, i) for i, item in enumerate(_items(path, "acts"))]


def load_courts(path: Path) -> list[Court]:
    return [_court(item, path, i) for i, item in enumerate(_items(path, "courts"))]


def _items(path: Path, top: str) -> list[dict[str, Any]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    items = data.get(top) if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise ValueError(f"{path}: expected a top-level '{top}:' list")
    return items


def _strings(item: dict[str, Any], field: str, path: Path, index: int) -> tuple[str, ...]:
    value = item.get(field) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(
            f"{path}: entry {index} ({item.get('key') or item.get('court')}): '{field}' must be a list of strings"
        )
    return tuple(value)


def _entry(item: dict[str, Any], path: Path, index: int) -> ActEntry:
    key = item.get("key")
    if not isinstance(key, str) or not re.fullmatch(r"(ru|ro)/[a-z0-9-]+", key):
        raise ValueError(f"{path}: entry {index}: 'key' must look like ru/<slug> or ro/<slug>, got {key!r}")
    return ActEntry(
        key=key,
        jurisdiction=key[:2],
        title=str(item.get("title") or key),
        type=str(item.get("type") or "law"),
        names=_strings(item, "names", path, index),
        titles=_strings(item, "titles", path, index),
        slugs=_strings(item, "slugs", path, index),
        examples=_strings(item, "examples", path, index),
        beside_article=_strings(item, "beside_article", path, index),
    )


def _court(item: dict[str, Any], path: Path, index: int) -> Court:
    for field in ("court", "jurisdiction", "pattern"):
        if not isinstance(item.get(field), str):
            raise ValueError(f"{path}: court entry {index}: '{field}' must be a string")
    return Court(
        item["court"],
        item["jurisdiction"],
        bool(item.get("verifiable", True)),
        item["pattern"],
        _strings(item, "examples", path, index),
    )

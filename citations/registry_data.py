"""Reading the registry's data files (citations/data/acts.yaml, courts.yaml) into typed entries.

A malformed entry is refused naming the file, the entry and the field, so whoever adds a name sees at once what
is expected.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).resolve().parent / "data"
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: the same data, 8x faster


def _read(path: Path) -> Any:
    """A data file parsed once per process (acts.yaml feeds three loaders): every command that reads etalons or
    answers loads the registry, so its parse is part of each one's start-up."""
    stat = path.stat()
    return _parsed(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=8)
def _parsed(path: str, _mtime: int, _size: int) -> Any:
    return yaml.load(Path(path).read_text(encoding="utf-8"), Loader=_LOADER)


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
    languages: tuple[str, ...] = ()  # the texts its names are read in: its own jurisdiction's, or both for EU acts


@dataclass(frozen=True, slots=True)
class Court:
    court: str
    jurisdiction: str
    verifiable: bool
    pattern: str
    examples: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NumberedForm:
    """A family of acts known by type and number rather than by name (orders, government decisions, EU
    regulations): the grammar reads them; the data file documents their key and holds the examples a test checks."""

    key: str  # the key's shape, e.g. "ro/ordin-<number>-<year>"
    title: str
    examples: tuple[tuple[str, str], ...]  # (as written, the key it must map to)


def load_numbered(path: Path) -> list[NumberedForm]:
    data = _read(path)
    items = data.get("numbered") if isinstance(data, dict) else None
    if items is None:
        return []
    if not isinstance(items, list):
        raise ValueError(f"{path}: 'numbered:' must be a list")
    out = []
    for i, item in enumerate(items):
        examples = item.get("examples") if isinstance(item, dict) else None
        if not isinstance(item.get("key"), str) or not isinstance(examples, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in examples.items()
        ):
            raise ValueError(
                f"{path}: numbered form {i}: expected 'key' (a string) and 'examples' (written form: key)"
            )
        out.append(NumberedForm(item["key"], str(item.get("title") or item["key"]), tuple(examples.items())))
    return out


def load_unverifiable(path: Path) -> tuple[str, ...]:
    """Key prefixes of acts outside the corpus by design ('eu/', 'echr/', 'ru/region-')."""
    data = _read(path)
    value = data.get("unverifiable", []) if isinstance(data, dict) else []
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError(f"{path}: 'unverifiable:' must be a list of key prefixes")
    return tuple(value)


def load_entries(path: Path) -> list[ActEntry]:
    return [_entry(item, path, i) for i, item in enumerate(_items(path, "acts"))]


def load_courts(path: Path) -> list[Court]:
    return [_court(item, path, i) for i, item in enumerate(_items(path, "courts"))]


def _items(path: Path, top: str) -> list[dict[str, Any]]:
    data = _read(path)
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
    if not isinstance(key, str) or not re.fullmatch(r"(ru|ro|eu|echr)/[a-z0-9-]+", key):
        raise ValueError(
            f"{path}: entry {index}: 'key' must look like ru/<slug>, ro/<slug>, eu/<slug> or echr/<slug>, got {key!r}"
        )
    languages = _strings(item, "languages", path, index) or (key.split("/", 1)[0],)
    if not set(languages) <= {"ru", "ro"}:
        raise ValueError(f"{path}: entry {index} ({key}): 'languages' must list ru and/or ro, got {list(languages)}")
    return ActEntry(
        key=key,
        jurisdiction=languages[0],
        title=str(item.get("title") or key),
        type=str(item.get("type") or "law"),
        names=_strings(item, "names", path, index),
        titles=_strings(item, "titles", path, index),
        slugs=_strings(item, "slugs", path, index),
        examples=_strings(item, "examples", path, index),
        beside_article=_strings(item, "beside_article", path, index),
        languages=languages,
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

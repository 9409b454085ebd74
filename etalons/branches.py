"""The registry of branches of law (`branches.yaml`), read once.

Kept as data so a lawyer can add a branch without touching code; the model, the loader and the JSON Schema all
read the same list, so an editor's completion and the loader's verdict never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from etalons.yamlsafe import load_file

REGISTRY = Path(__file__).with_name("branches.yaml")


@dataclass(frozen=True)
class Branch:
    id: str
    names: dict[str, str]
    jurisdictions: tuple[str, ...]


@cache
def branches() -> dict[str, Branch]:
    """Every known branch by id, in the registry's order."""
    raw = load_file(REGISTRY)
    found: dict[str, Branch] = {}
    for entry in raw["branches"]:
        if entry["id"] in found:
            raise ValueError(f"{REGISTRY}: branch {entry['id']!r} is listed twice")
        found[entry["id"]] = Branch(
            id=entry["id"], names=dict(entry["names"]), jurisdictions=tuple(entry["jurisdictions"])
        )
    return found


def branch_ids() -> list[str]:
    return list(branches())

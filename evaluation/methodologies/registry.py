"""The methodology registry: one object per methodology, holding everything the rest of Etalon asks of it.

A methodology says which elements a judge rules on (from an etalon), which program-made candidates it accepts
(critical errors, hallucinations), what a refused answer means for each element, how the resolved elements
become a score and a verdict, and its default weights and thresholds (`defaults.yaml`). Every other module
asks the registry by name, so adding a methodology is one module that calls `@methodology(...)`, not edits in
five places.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from etalons.model import Etalon
    from evaluation.elements import Element
    from evaluation.methodologies.inputs import Context, Outcome

Scorer = Callable[["Context"], "Outcome"]


@dataclass(frozen=True)
class Methodology:
    name: str
    title: str
    elements: Callable[[Etalon], list[Element]]
    score: Scorer
    candidate_kinds: frozenset[str] = frozenset()
    refused: Mapping[str, str] = field(default_factory=dict)   # element kind -> value when the answer refuses

    @property
    def defaults(self) -> Mapping[str, Any]:
        from evaluation.methodologies.config import defaults

        return defaults()[self.name]


_REGISTRY: dict[str, Methodology] = {}


def methodology(name: str, *, title: str, elements: Callable[[Etalon], list[Element]],
                candidate_kinds: frozenset[str] = frozenset(),
                refused: Mapping[str, str] | None = None) -> Callable[[Scorer], Scorer]:
    """Register the decorated scorer as methodology `name`."""

    def register(score: Scorer) -> Scorer:
        if name in _REGISTRY:
            raise ValueError(f"methodology {name!r} registered twice")
        _REGISTRY[name] = Methodology(name, title, elements, score, candidate_kinds, dict(refused or {}))
        return score

    return register


def _load() -> dict[str, Methodology]:
    # Importing a methodology's module registers it; imports are idempotent, so this is cheap after the first.
    from evaluation.methodologies import irac, lesto, stielegi  # noqa: F401

    return _REGISTRY


def get(name: str) -> Methodology:
    """The methodology called `name`; ValueError naming the known ones otherwise."""
    found = _load().get(name)
    if found is None:
        raise ValueError(f"unknown methodology {name!r}: expected one of {', '.join(names())}")
    return found


def names() -> tuple[str, ...]:
    return tuple(sorted(_load()))

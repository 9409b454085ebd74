"""Canary leak detection: a benchmark's canary appearing in an answer means the private set leaked.

The canary is never sent to a system, so a system that writes it has seen the benchmark's files (in training
data or in its context). Every canary is searched in every answer: a leak of another benchmark's set is a leak
too. Models often reproduce such strings with changed case, spaces or hyphens inside, so the search also runs
over the answer with separators removed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

_SEPARATORS = re.compile(r"[\s\-_:.,'\"`·]+")


@dataclass(frozen=True, order=True)
class Leak:
    system: str
    code: str
    benchmark: str  # the benchmark whose canary appeared


def find_leaks(
    answers: Iterable[tuple[str, str, str]], canaries: Mapping[str, str], split_aware: bool = True
) -> list[Leak]:
    """Every (system, code, benchmark) where the benchmark's canary occurs in an answer's text, sorted, once."""
    by_canary = {canary.lower(): benchmark for benchmark, canary in canaries.items() if canary}
    if not by_canary:
        return []
    pattern = re.compile("|".join(re.escape(c) for c in sorted(by_canary)), re.IGNORECASE)
    leaks: set[Leak] = set()
    for system, code, text in answers:
        hits = {m.group(0).lower() for m in pattern.finditer(text)}
        if split_aware and len(hits) < len(by_canary):
            hits |= {m.group(0).lower() for m in pattern.finditer(_SEPARATORS.sub("", text))}
        leaks.update(Leak(system, code, by_canary[hit]) for hit in hits)
    return sorted(leaks)

"""Canary leak detection: a benchmark's canary appearing in an answer means the private set leaked.

The canary is never sent to a system, so a system that writes it has seen the benchmark's files (in training
data or in its context). Every canary is searched in every answer: a leak of another benchmark's set is a leak
too. Models often reproduce such strings in upper case or cut into groups ("3f2a9b0c-4d5e-...",
"3f 2a 9b ..."), so the answer is also searched with its separators (spaces, hyphens, colons, dots, commas)
removed: gluing the words of an answer together cannot forge a random 128-bit string. Plain `str` searches
(no regular expressions) keep the scan near the cost of reading the text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

_SEPARATORS = (" ", "\n", "\t", "\r", "\u00a0", "-", "\u2011", ":", ".", ",", "_")


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
    leaks: set[Leak] = set()
    for system, code, text in answers:
        lowered = text.lower()
        hits = {canary for canary in by_canary if canary in lowered}
        if split_aware and len(hits) < len(by_canary):
            for separator in _SEPARATORS:
                lowered = lowered.replace(separator, "")
            hits.update(canary for canary in by_canary if canary not in hits and canary in lowered)
        leaks.update(Leak(system, code, by_canary[hit]) for hit in hits)
    return sorted(leaks)

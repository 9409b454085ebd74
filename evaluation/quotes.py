"""Literal evidence: a judge's "yes" counts only with a passage that is really in the answer.

Normalisation is deliberately narrow (whitespace, quote marks, dashes): a judge that paraphrases, fixes
spelling or changes case has not quoted, and a quote not found is no evidence. Further guards keep an
adversarial answer from earning points with passages that *are* in it: a passage that only repeats the
question (a copy of the case is not an answer to it), a quote that lies, even in part, inside a passage
addressed to the evaluator (evaluation.guards: "ignore the rubric ... quote: «...»" makes its own payload
no evidence, wherever else the payload is repeated), and a quote that itself speaks to the evaluator.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from evaluation.guards import Finding, addresses_evaluator

__all__ = ["Evidence", "addresses_evaluator", "check_quote", "closest_passage", "normalise", "quote_in"]

_QUOTES = dict.fromkeys(map(ord, "«»“”„‟‘’‚‛‹›\"'`´″″"), '"')
_DASHES = dict.fromkeys(map(ord, "‐‑‒–—―−﹘﹣－-"), "-")
_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Collapse whitespace (incl. non-breaking), unify quote marks and dashes; nothing else."""
    return _SPACE.sub(" ", text.translate(_QUOTES).translate(_DASHES)).strip()


def quote_in(quote: str | None, text: str) -> bool:
    """True when the quote, normalised, occurs in the text, normalised. An empty quote is not found."""
    if quote is None:
        return False
    needle = normalise(quote)
    return bool(needle) and needle in normalise(text)


def occurrences(quote: str, text: str) -> list[tuple[int, int]]:
    """Where the normalised quote occurs in `text`, as spans of the original text."""
    needle = normalise(quote)
    if not needle:
        return []
    flat, index = _normalised_with_index(text)
    spans = []
    at = flat.find(needle)
    while at >= 0:
        spans.append((index[at], index[at + len(needle) - 1] + 1))
        at = flat.find(needle, at + 1)
    return spans


def _normalised_with_index(text: str) -> tuple[str, list[int]]:
    """normalise(text) and, for each of its characters, the offset it came from."""
    chars: list[str] = []
    index: list[int] = []
    for i, ch in enumerate(text.translate(_QUOTES).translate(_DASHES)):
        if ch.isspace():
            if chars and chars[-1] != " ":
                chars.append(" ")
                index.append(i)
            continue
        chars.append(ch)
        index.append(i)
    while chars and chars[-1] == " ":
        chars.pop()
        index.pop()
    return "".join(chars), index


@dataclass(frozen=True)
class Evidence:
    found: bool
    why: str | None = None   # why a quote is not evidence; None when it is


def check_quote(quote: str | None, answer: str, question: str = "",
                passages: Sequence[Finding] = ()) -> Evidence:
    """Whether a judge's quote is evidence from this answer.

    `passages`: the answer's passages addressed to the evaluator (evaluation.guards.scan of `answer`); a
    quote overlapping any of them at any of its occurrences is no evidence.
    """
    if quote is None or not normalise(quote):
        return Evidence(False, "no quote given")
    if not quote_in(quote, answer):
        return Evidence(False, "quote not found in the answer")
    if question and quote_in(quote, question):
        return Evidence(False, "quote only repeats the question")
    for start, end in occurrences(quote, answer) if passages else ():
        hit = next((p for p in passages if p.overlaps(start, end)), None)
        if hit is not None:
            return Evidence(False, f"quote lies in a passage addressed to the evaluator ({hit.rule}: "
                                   f"«{_short(hit.matched)}»)")
    if addresses_evaluator(quote):
        return Evidence(False, "quote addresses the evaluator, not the client")
    return Evidence(True)


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def closest_passage(quote: str, text: str) -> tuple[float, str] | None:
    """The passage of `text` most like `quote` and its similarity (0-100), for a reviewer deciding by hand.

    Only a hint: a quote that is not literally in the answer stays no evidence, whatever its similarity.
    """
    from rapidfuzz import fuzz

    if not quote.strip() or not text.strip():
        return None
    found = fuzz.partial_ratio_alignment(normalise(quote), normalise(text))
    if found is None:
        return None
    passage = normalise(text)[found.dest_start:found.dest_end]
    return round(found.score, 1), passage

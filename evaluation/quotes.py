"""Literal evidence: a judge's "yes" counts only with a passage that is really in the answer.

Normalisation is deliberately narrow (whitespace, quote marks, dashes): a judge that paraphrases, fixes
spelling or changes case has not quoted, and a quote not found is no evidence. Two further guards keep an
adversarial answer from earning points with passages that *are* in it: a passage that only repeats the
question (a copy of the case is not an answer to it), and a passage addressed to the evaluator
(instructions to the judge; patterns with examples in judge_prompts/guards.yaml).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

_QUOTES = dict.fromkeys(map(ord, "«»“”„‟‘’‚‛‹›\"'`´″″"), '"')
_DASHES = dict.fromkeys(map(ord, "‐‑‒–—―−﹘﹣－-"), "-")
_SPACE = re.compile(r"\s+")
GUARDS_FILE = Path(__file__).with_name("judge_prompts") / "guards.yaml"


def normalise(text: str) -> str:
    """Collapse whitespace (incl. non-breaking), unify quote marks and dashes; nothing else."""
    return _SPACE.sub(" ", text.translate(_QUOTES).translate(_DASHES)).strip()


def quote_in(quote: str | None, text: str) -> bool:
    """True when the quote, normalised, occurs in the text, normalised. An empty quote is not found."""
    if quote is None:
        return False
    needle = normalise(quote)
    return bool(needle) and needle in normalise(text)


@lru_cache(maxsize=1)
def _instruction_patterns() -> tuple[re.Pattern[str], ...]:
    data = yaml.safe_load(GUARDS_FILE.read_text(encoding="utf-8"))
    return tuple(re.compile(p, re.IGNORECASE) for p in data["patterns"])


def addresses_evaluator(quote: str) -> bool:
    """The passage speaks to the judge (an injected instruction), not to the client."""
    text = normalise(quote)
    return any(p.search(text) for p in _instruction_patterns())


@dataclass(frozen=True)
class Evidence:
    found: bool
    why: str | None = None   # why a quote is not evidence; None when it is


def check_quote(quote: str | None, answer: str, question: str = "") -> Evidence:
    """Whether a judge's quote is evidence from this answer."""
    if quote is None or not normalise(quote):
        return Evidence(False, "no quote given")
    if not quote_in(quote, answer):
        return Evidence(False, "quote not found in the answer")
    if question and quote_in(quote, question):
        return Evidence(False, "quote only repeats the question")
    if addresses_evaluator(quote):
        return Evidence(False, "quote addresses the evaluator, not the client")
    return Evidence(True)


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

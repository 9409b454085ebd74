"""Which rule decided a verdict, in a sentence a lawyer can check against the methodology.

The scorer writes its reasons into the score's `notes` (and the points into `components`): a confirmed critical
error or gross error, a refusal, a missing mandatory source, the IRAC grade. When none of those decided, the
score bands did, and the sentence names the band and its bounds (the methodology's thresholds, with the
benchmark's overrides when the warehouse exposes them; without them the bounds are not guessed).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from evaluation.methodologies import config_for
from evaluation.report.format import num

# Notes that decide a verdict on their own, in the order a methodology applies them.
_DECISIVE = (
    ("negative: confirmed", "failed on a confirmed critical error or hallucination"),
    ("confirmed gross error", "zero for a confirmed gross error"),
    ("confirmed refusal", "zero for an unjustified refusal"),
    ("not positive: mandatory source", "kept from positive: a mandatory source is missing"),
    ("irac:", "IRAC grade"),
)


@dataclass(frozen=True)
class Bands:
    negative_below: float
    positive_at: float


def bands_for(methodology: str, overrides: Mapping[str, Any] | None) -> Bands | None:
    """The score bands of a methodology with a benchmark's overrides; None for one without bands (irac)."""
    if methodology == "irac":
        return None
    try:
        config = config_for(methodology, overrides)
    except ValueError:
        return None
    return Bands(config.thresholds.negative_below, config.thresholds.positive_at)


def parse_notes(notes: object) -> list[str]:
    """`notes` as stored (a JSON list) or as a sequence, as a list of strings."""
    if notes is None:
        return []
    if isinstance(notes, str):
        try:
            value = json.loads(notes)
        except ValueError:
            return [notes]
        return [str(v) for v in value] if isinstance(value, list) else [str(value)]
    if isinstance(notes, Sequence):
        return [str(v) for v in notes]
    return [str(notes)]


def parse_components(components: object) -> dict[str, float]:
    if not components:
        return {}
    if isinstance(components, str):
        try:
            value = json.loads(components)
        except ValueError:
            return {}
    else:
        value = components
    if not isinstance(value, Mapping):
        return {}
    return {str(k): float(v) for k, v in value.items() if isinstance(v, (int, float))}


def deciding_rule(
    *,
    verdict: str | None,
    score: float | None,
    status: str | None,
    notes: Sequence[str],
    bands: Bands | None,
    error: str | None = None,
) -> str:
    """One sentence: the rule that gave this verdict."""
    if status == "error":
        return "no verdict: the call to the system failed" + (f" ({error})" if error else "")
    if verdict is None or score is None:
        return "no verdict yet"
    for prefix, label in _DECISIVE:
        for note in notes:
            if note.startswith(prefix):
                return f"{label}: {note}"
    if bands is None:
        return f"{verdict} by the methodology's score bands (score {num(score)})"
    if verdict == "negative":
        return f"negative: score {num(score)} is below {num(bands.negative_below, 0)}"
    if verdict == "positive":
        return f"positive: score {num(score)} reaches {num(bands.positive_at, 0)}"
    return (f"partial: score {num(score)} is from {num(bands.negative_below, 0)} "
            f"up to {num(bands.positive_at, 0)}")

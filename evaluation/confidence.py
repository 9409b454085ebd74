"""A system's own confidence in an answer, where an OpenAI-compatible endpoint gives one.

Calibration asks whether a system knows when it is right, so the number must come from the system, never
from us. `confidence:` in a system's entry of systems.yaml says where to find it:

  none      (default) no confidence.
  json      the system replies with one JSON object {"answer": "...", "confidence": 0.8} (a ```json fence
            around it is fine); the answer is its `answer` (or `text`) and the confidence its `confidence`,
            a number from 0 to 1. Ask for this shape in the system's prompt. A reply of another shape keeps
            its whole text as the answer and has no confidence: a format slip is not a model error.
  logprobs  the request asks for token log-probabilities (`logprobs: true`), and the confidence is the
            geometric mean of the reply's token probabilities, exp(mean logprob): how sure the model was
            of the words it wrote, a rough proxy for being right; endpoints that return no logprobs give none.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Literal

ConfidenceSource = Literal["none", "json", "logprobs"]
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.S)


def reported_confidence(source: ConfidenceSource, text: str, raw: str | None) -> tuple[str, float | None]:
    """(the answer's text, the confidence the system reported or None) for a reply `text` whose response
    body, as received, is `raw`."""
    if source == "json":
        return _from_json(text)
    if source == "logprobs":
        return text, _from_logprobs(raw)
    return text, None


def _probability(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value) if 0 <= value <= 1 else None


def _from_json(text: str) -> tuple[str, float | None]:
    fenced = _FENCE.match(text)
    try:
        value = json.loads(fenced.group(1) if fenced else text)
    except ValueError:
        return text, None
    if not isinstance(value, dict):
        return text, None
    answer = value.get("answer", value.get("text"))
    if not isinstance(answer, str) or not answer.strip():
        return text, None
    return answer, _probability(value.get("confidence"))


def _from_logprobs(raw: str | None) -> float | None:
    if not raw:
        return None
    try:
        body = json.loads(raw)
        tokens = body["choices"][0]["logprobs"]["content"]
        values = [float(t["logprob"]) for t in tokens]
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    if not values or not all(math.isfinite(v) and v <= 0 for v in values):
        return None
    return math.exp(sum(values) / len(values))

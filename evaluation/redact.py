"""Keys out of every message Etalon stores or prints: scrub first, then cut.

An endpoint may echo the request's Authorization header, or its own idea of our key, in an error body; that
body becomes an error message that lands in answers, judgments, scores, review items and on the terminal.
Messages are cut to a length limit, and a cut made *before* scrubbing leaves the key's first characters
behind (the key no longer matches in full), so `scrub` always runs on the whole text and `cut` only on what
it returns. Two kinds of secret are removed: the exact values we know (the keys read from the
`api_key_env` variables) and anything shaped like a credential (bearer tokens, `sk-...` keys, `api_key=...`
assignments), whatever endpoint it came from.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MASK = "***"
DEFAULT_LIMIT = 300
_MIN_KNOWN = 4  # a shorter "key" (e.g. a local server's placeholder) would mask ordinary words

# Shapes of credentials seen in provider errors and proxies. Each match is replaced whole; for an
# assignment only the value is, so the message still says which header or field carried it.
_SHAPES = (
    re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_\-]{8,}"),              # OpenAI, Anthropic, many proxies
    re.compile(r"\b(?:hf|ghp|gho|ghs|gsk|glpat|xox[abpr])[_-][A-Za-z0-9_\-]{10,}"),
    re.compile(r"\bAIza[0-9A-Za-z_\-]{20,}"),                      # Google API keys
    re.compile(r"\beyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}"),  # JWTs
)
_BEARER = re.compile(r"(?i)\b(bearer|basic|token)(\s+)[A-Za-z0-9._~+/=\-]{8,}")
_ASSIGNED = re.compile(
    r"(?i)((?:api[_-]?key|access[_-]?token|auth[_-]?token|secret|password|authorization|x-api-key)"
    r"[\"']?\s*[:=]\s*[\"']?)(?!\*\*\*)[^\s\"',;}]{6,}")


def scrub(text: str, secrets: Iterable[str | None] = ()) -> str:
    """`text` with every known secret and every credential-shaped token replaced by ***."""
    for secret in sorted({s for s in secrets if s and len(s) >= _MIN_KNOWN}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    for shape in _SHAPES:
        text = shape.sub(MASK, text)
    text = _BEARER.sub(lambda m: f"{m.group(1)}{m.group(2)}{MASK}", text)
    return _ASSIGNED.sub(lambda m: f"{m.group(1)}{MASK}", text)


def scrub_known(text: str, secrets: Iterable[str | None]) -> str:
    """Only the exact known values: for model output, where credential-looking words may be content."""
    for secret in sorted({s for s in secrets if s and len(s) >= _MIN_KNOWN}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    return text


def cut(text: str, limit: int = DEFAULT_LIMIT) -> str:
    """One line of at most `limit` characters (plus an ellipsis): for already scrubbed text only."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit] + "…"


def safe_message(text: str, secrets: Iterable[str | None] = (), limit: int = DEFAULT_LIMIT) -> str:
    """What may be stored or printed of an error: scrubbed whole, then cut."""
    return cut(scrub(str(text), secrets), limit)

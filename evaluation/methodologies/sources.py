"""Whether an answer names an expected source: a deterministic, order-independent match on parsed keys.

Matching on (act, article) rather than on strings is what gives no credit for the same article number
in another act; matching decisions only in the text is what gives no credit for a decision that sits in
the answer's source list but that the answer never relies on.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from evaluation.methodologies.inputs import AnswerCitation, ExpectedSource

EVALUABLE = "found"
_NUMBER_PART = re.compile(r"\d+")


def cites(expected: ExpectedSource, cited: Sequence[AnswerCitation], *, need_point: bool = False) -> bool:
    """True when some answer citation names the expected source.

    `need_point`: a decision expected with a point (пункт) counts only when the answer names that point
    (the lesto practice rule); otherwise the decision itself suffices.
    """
    if expected.kind == "decision":
        return any(_same_decision(expected, c, need_point) for c in cited)
    if expected.kind == "act":
        return any(c.act is not None and c.act == expected.act for c in cited)
    return any(_covers(expected, c) for c in cited)


def _same_decision(expected: ExpectedSource, c: AnswerCitation, need_point: bool) -> bool:
    if c.kind != "decision" or not c.in_text:
        return False
    if _norm(c.court) != _norm(expected.court) or _norm(c.number) != _norm(expected.number):
        return False
    if expected.court is None or expected.number is None:
        return False
    return not (need_point and expected.point is not None and _norm(c.point) != _norm(expected.point))


def _covers(expected: ExpectedSource, c: AnswerCitation) -> bool:
    """An answer article (or range) in the same act overlapping the expected article (or range)."""
    if c.kind != "article" or c.act is None or c.act != expected.act:
        return False
    if expected.article is None or c.article is None:
        return False
    want_lo, want_hi = expected.article, expected.article_to or expected.article
    got_lo, got_hi = c.article, c.article_to or c.article
    if want_lo == got_lo and want_hi == got_hi:
        return True
    keys = [_article_key(a) for a in (want_lo, want_hi, got_lo, got_hi)]
    if any(k is None for k in keys):
        return False
    wl, wh, gl, gh = keys
    assert wl is not None and wh is not None and gl is not None and gh is not None
    return gl <= wh and wl <= gh


def _article_key(article: str) -> tuple[int, ...] | None:
    """"1152" -> (1152,), "14.1" -> (14, 1), "2^1" -> (2, 1): comparable positions for ranges."""
    if not article[:1].isdigit():
        return None
    return tuple(int(n) for n in _NUMBER_PART.findall(article))


def _norm(value: str | None) -> str | None:
    return None if value is None else re.sub(r"\s+", "", value).casefold()

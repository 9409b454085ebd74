"""The elements a judge rules on, named the same way by the judge, the scorer and the review queue.

An element id is the join key between eval.judgments, eval.decisions and the scorer, so its spelling is
fixed here once: a judge that prepares "branch:2" and a scorer that reads "branch:2" must mean the same
branch of the same etalon version. Ids are positional (1-based) in the etalon's own lists, which is why a
reordering of branches makes a new etalon version anyway.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from etalons.model import Etalon

YES_NO: tuple[str, ...] = ("yes", "no")
GRADES: tuple[str, ...] = ("correct", "partial", "incorrect")
IRAC_OPTIONS: tuple[str, ...] = ("correct", "incorrect")

_GENERIC_NEXT_STEPS = "the answer tells the client what to do next: the term, where to apply, which documents"


@dataclass(frozen=True)
class Element:
    """One thing to judge. `detail` carries what the judge prompt needs beyond `text` (e.g. a quote)."""

    id: str
    kind: str
    text: str
    options: tuple[str, ...] = YES_NO
    detail: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)


def elements_for(etalon: Etalon, methodology: str, candidates: Sequence[Element] = ()) -> list[Element]:
    """The judged elements of an etalon under a methodology, in a stable order, with the candidates it accepts.

    Raises ValueError for an unknown methodology: scoring against the wrong rubric must never go silently.
    """
    from evaluation.methodologies.registry import get

    method = get(methodology)
    found = method.elements(etalon)
    found.extend(c for c in candidates if c.kind in method.candidate_kinds)
    return found


def refusal_element() -> Element:
    return Element("refusal", "refusal", "the answer refuses although the facts given suffice")


def next_steps_text(etalon: Etalon) -> str:
    return etalon.next_steps or _GENERIC_NEXT_STEPS


def gross_errors(etalon: Etalon) -> list[Element]:
    return [Element(f"gross_error:{i}", "gross_error", text) for i, text in enumerate(etalon.gross_errors, 1)]

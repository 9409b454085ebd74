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

# Candidate kinds each methodology accepts from evaluation/candidates.py; others are ignored, not errors,
# because one candidate generator serves every methodology. A hallucination candidate whose
# detail["settled"] is False is one the corpus cannot settle: it stays open for a human even when confirmed.
CANDIDATE_KINDS: Mapping[str, frozenset[str]] = {
    "stielegi": frozenset({"critical", "hallucination"}),
    "lesto": frozenset(),
    "irac": frozenset(),
}


@dataclass(frozen=True)
class Element:
    """One thing to judge. `detail` carries what the judge prompt needs beyond `text` (e.g. a quote)."""

    id: str
    kind: str
    text: str
    options: tuple[str, ...] = YES_NO
    detail: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)


def elements_for(etalon: Etalon, methodology: str, candidates: Sequence[Element] = ()) -> list[Element]:
    """The judged elements of an etalon under a methodology, in a stable order.

    Raises ValueError for an unknown methodology: scoring against the wrong rubric must never go silently.
    """
    if methodology == "stielegi":
        found = _stielegi(etalon)
    elif methodology == "lesto":
        found = _lesto(etalon)
    elif methodology == "irac":
        found = _irac(etalon)
    else:
        raise ValueError(f"unknown methodology {methodology!r}: expected stielegi, lesto or irac")
    allowed = CANDIDATE_KINDS[methodology]
    found.extend(c for c in candidates if c.kind in allowed)
    return found


def _stielegi(etalon: Etalon) -> list[Element]:
    out = [Element("issue", "issue", etalon.decisive_issue)]
    if etalon.solution_fact:
        out.append(Element("fact", "fact", etalon.solution_fact))
    out.extend(Element(f"branch:{i}", "branch", text) for i, text in enumerate(etalon.branches, start=1))
    for k, source in enumerate(etalon.sources, start=1):
        if source.priority == "conditional":
            out.append(
                Element(
                    f"condition:{k}",
                    "condition",
                    source.condition or f"the conditions for applying {source.citation} are met",
                    detail={"citation": source.citation},
                )
            )
    out.append(Element("refusal", "refusal", "the answer refuses although the facts given suffice"))
    out.extend(_gross_errors(etalon))
    return out


def _lesto(etalon: Etalon) -> list[Element]:
    out = [
        Element("conclusion", "conclusion", etalon.reference_answer, options=GRADES,
                detail={"decisive_issue": etalon.decisive_issue}),
    ]
    # Always judged: the methodology asks whether the answer says what to do next (term, where, which
    # documents) even when the etalon spells out no particular steps.
    out.append(Element("next_steps", "next_steps", etalon.next_steps or _GENERIC_NEXT_STEPS))
    out.append(Element("refusal", "refusal", "the answer refuses although the facts given suffice"))
    out.extend(_gross_errors(etalon))
    return out


def _irac(etalon: Etalon) -> list[Element]:
    return [
        Element("irac", "irac", etalon.reference_answer, options=IRAC_OPTIONS,
                detail={"decisive_issue": etalon.decisive_issue}),
    ]


def _gross_errors(etalon: Etalon) -> list[Element]:
    return [Element(f"gross_error:{i}", "gross_error", text) for i, text in enumerate(etalon.gross_errors, 1)]

from __future__ import annotations

import pytest
from scoring_cases import etalon

from evaluation.elements import Element, elements_for

TWO_SOURCES = [
    {"citation": "art. 1 of act X", "priority": "mandatory"},
    {"citation": "art. 2 of act X", "priority": "conditional", "condition": "the term was missed"},
]


@pytest.mark.parametrize(
    ("methodology", "changes", "expected"),
    [
        ("stielegi", {}, ["issue", "fact", "branch:1", "branch:2", "refusal", "gross_error:1"]),
        ("stielegi", {"solution_fact": None}, ["issue", "branch:1", "branch:2", "refusal", "gross_error:1"]),
        ("stielegi", {"sources": TWO_SOURCES},
         ["issue", "fact", "branch:1", "branch:2", "condition:2", "refusal", "gross_error:1"]),
        ("lesto", {}, ["conclusion", "next_steps", "refusal", "gross_error:1"]),
        ("lesto", {"next_steps": None, "gross_errors": []}, ["conclusion", "next_steps", "refusal"]),
        ("irac", {}, ["irac"]),
    ],
)
def test_each_methodology_names_its_elements_in_a_stable_order(
    methodology: str, changes: dict[str, object], expected: list[str]
) -> None:
    assert [e.id for e in elements_for(etalon(methodology, **changes), methodology)] == expected


@pytest.mark.parametrize(
    ("methodology", "element", "options"),
    [
        ("stielegi", "issue", ("yes", "no")),
        ("lesto", "conclusion", ("correct", "partial", "incorrect")),
        ("irac", "irac", ("correct", "incorrect")),
    ],
)
def test_graded_elements_offer_their_grades(methodology: str, element: str, options: tuple[str, ...]) -> None:
    found = {e.id: e for e in elements_for(etalon(methodology), methodology)}
    assert found[element].options == options


@pytest.mark.parametrize(("methodology", "kept"), [("stielegi", 2), ("lesto", 0)])
def test_critical_and_hallucination_candidates_join_only_the_stielegi_elements(methodology: str, kept: int) -> None:
    candidates = [Element("critical:1", "critical", "inverse rule"), Element("hallucination:1", "hallucination", "x")]
    found = elements_for(etalon(methodology), methodology, candidates)
    assert sum(e.kind in ("critical", "hallucination") for e in found) == kept


def test_an_unknown_methodology_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'rubric9'"):
        elements_for(etalon(), "rubric9")

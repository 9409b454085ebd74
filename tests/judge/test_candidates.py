"""Candidates the program prepares for the judge to confirm."""

from __future__ import annotations

from typing import Any

import pytest

from etalons.model import Etalon
from evaluation.candidates import build_candidates

EXPECTED = [{"citation": "ст. 1154 ГК РФ", "act": "ru/gk", "article": "1154", "priority": "mandatory"}]
TEXTS = {"ru/gk 1154": "Наследство может быть принято в течение шести месяцев со дня открытия наследства."}


def cite(text: str, act: str | None, article: str | None, status: str, kind: str = "article",
         start: int = 0) -> dict[str, Any]:
    return {"text": text, "act": act, "article": article, "status": status, "kind": kind,
            "start": start, "end": start + len(text), "act_text": text}


def categories(etalon: Etalon, answer: str, citations: list[dict[str, Any]], **kw: Any) -> list[tuple[str, str]]:
    out = build_candidates(etalon, answer, citations, TEXTS, expected=EXPECTED, **kw)
    return [(c.kind, str(c.detail["category"])) for c in out]


@pytest.mark.parametrize(("status", "kind", "category"), [
    ("not_found", "article", "nonexistent_source"),
    ("unknown_act", "article", "nonexistent_source"),
    ("not_found", "decision", "invented_case_law"),
])
def test_a_source_missing_from_the_corpus_is_a_hallucination_candidate(
        etalon: Etalon, status: str, kind: str, category: str) -> None:
    found = categories(etalon, "См. ст. 9999 ГК РФ.", [cite("ст. 9999 ГК РФ", "ru/gk", "9999", status, kind, 4)])
    assert ("hallucination", category) in found


def test_a_found_source_is_no_hallucination_candidate(etalon: Etalon) -> None:
    found = categories(etalon, "См. ст. 1154 ГК РФ.", [cite("ст. 1154 ГК РФ", "ru/gk", "1154", "found", start=4)])
    assert [c for c in found if c[0] == "hallucination"] == []


def test_the_expected_article_under_another_act_is_a_wrong_attribution(etalon: Etalon) -> None:
    found = categories(etalon, "См. ст. 1154 ТК РФ.", [cite("ст. 1154 ТК РФ", "ru/tk", "1154", "found", start=4)])
    assert ("hallucination", "wrong_attribution") in found


def test_a_repealed_act_is_a_critical_candidate(etalon: Etalon) -> None:
    found = categories(etalon, "См. ст. 546 ГК РСФСР.", [cite("ст. 546 ГК РСФСР", "ru/gk-rsfsr", "546", "found",
                                                              start=4)], repealed_acts={"ru/gk-rsfsr"})
    assert ("critical", "repealed_act_applied") in found


@pytest.mark.parametrize(("answer", "invented"), [
    ("Срок составляет 9 месяцев.", True),
    ("Госпошлина 4 500 руб.", True),
    ("Неустойка 3% в день.", True),
    ("Срок составляет 6 месяцев.", False),         # "шести месяцев" in the cited text
    ("Прошло 8 месяцев.", False),                  # the client's own figure, "восемь месяцев"
])
def test_a_figure_absent_from_the_case_and_the_cited_texts_is_a_candidate(
        etalon: Etalon, answer: str, invented: bool) -> None:
    found = categories(etalon, answer, [])
    assert (("hallucination", "invented_figure") in found) is invented


def test_a_quotation_absent_from_the_cited_texts_is_a_candidate(etalon: Etalon) -> None:
    answer = "Закон гласит: «наследство принимается только нотариально заверенным заявлением»."
    assert ("hallucination", "invented_quote") in categories(etalon, answer, [])


def test_a_quotation_of_a_cited_text_is_not_a_candidate(etalon: Etalon) -> None:
    answer = "Закон гласит: «Наследство может быть принято в течение шести месяцев»."
    assert ("hallucination", "invented_quote") not in categories(etalon, answer, [])


def test_every_mandatory_source_gets_a_contradiction_candidate(etalon: Etalon) -> None:
    found = categories(etalon, "Ответ.", [])
    assert found.count(("critical", "contradicts_mandatory_source")) == 1


def test_candidate_ids_are_positional_and_stable(etalon: Etalon) -> None:
    cites = [cite("ст. 9999 ГК РФ", "ru/gk", "9999", "not_found", start=4)]
    first = build_candidates(etalon, "См. ст. 9999 ГК РФ; 9 месяцев.", cites, TEXTS, expected=EXPECTED)
    again = build_candidates(etalon, "См. ст. 9999 ГК РФ; 9 месяцев.", cites, TEXTS, expected=EXPECTED)
    assert [c.id for c in first] == [c.id for c in again] == [
        "critical:1", "critical:2", "hallucination:1", "hallucination:2"]

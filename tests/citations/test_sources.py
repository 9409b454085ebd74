"""Citations in the body of an answer are told apart from those in its trailing list of sources."""

from __future__ import annotations

import pytest

from citations import extract
from citations.sources import in_body, sources_start

BODY_RU = "Наследство принимается в течение шести месяцев (ст. 1154 ГК РФ). Подайте заявление нотариусу.\n"
BODY_RO = "Moștenirea se acceptă în termen de un an (art. 1.103 C.civ.). Mergeți la notar.\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (BODY_RU + "\nИсточники:\n- ст. 1153 ГК РФ\n", [True, False]),
        (BODY_RU + "\n**Нормативная база**\n1. ст. 1153 ГК РФ\n", [True, False]),
        (BODY_RO + "\nTemei legal: art. 1.100 C.civ.\n", [True, False]),
        (BODY_RU + "Срок можно восстановить по ст. 1155 ГК РФ.\n", [True, True]),
    ],
)
def test_citations_after_a_sources_heading_are_not_in_the_body(text: str, expected: list[bool]) -> None:
    assert in_body(extract(text), text) == expected


def test_a_sources_word_early_in_the_answer_is_not_a_sources_list() -> None:
    text = "Источники:\n" + BODY_RU * 3
    assert sources_start(text) is None

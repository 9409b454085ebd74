"""How the Romanian Markdown reader undoes PDF wrapping: what a reader of an article's text would notice."""

from __future__ import annotations

import pytest

from corpus.ro_markdown import parse_markdown

CODE = """# Codul de test

## TITLUL I

###### Art. 1

(1) Primul alineat este rupt
pe două rânduri.
 (2) Al doilea alineat are un cuvânt despăr-
țit și un nume Jean-
Pierre.

12

a) o literă
2. un punct.
Titlul articolului
următor

###### Art. 2

Text care continuă după 12.
pe rândul următor.

(la data 1-ian-2020 a se vedea nota)

###### Art. 3

Ultimul articol.
PREȘEDINTELE SENATULUI
Ion Popescu
"""


def _units() -> dict[str, tuple[str, str | None, str]]:
    _title, drafts = parse_markdown(CODE)
    return {d[1]: (d[2], d[4], d[5]) for d in drafts}


@pytest.mark.parametrize(
    ("path", "kind", "text"),
    [
        ("1/1", "paragraph", "(1) Primul alineat este rupt pe două rânduri."),
        ("1/2", "paragraph", "(2) Al doilea alineat are un cuvânt despăr-țit și un nume Jean- Pierre."),
        ("1/2/a", "letter", "a) o literă"),
        ("1/2/2", "point", "2. un punct."),
        ("2", "article", "Text care continuă după 12. pe rândul următor."),
        ("3", "article", "Ultimul articol."),
    ],
)
def test_wrapped_lines_are_joined_into_the_paragraph_they_belong_to(path: str, kind: str, text: str) -> None:
    assert _units()[path][0] == kind
    assert _units()[path][2] == text


def test_a_margin_title_before_a_heading_becomes_the_next_articles_heading() -> None:
    assert _units()["2"][1] == "Titlul articolului următor"
    assert "Titlul" not in _units()["1"][2]


@pytest.mark.parametrize("dropped", ["12\n", "la data", "PREȘEDINTELE", "Popescu"])
def test_page_numbers_notes_and_signatures_are_no_article_text(dropped: str) -> None:
    assert all(dropped not in text for _kind, _heading, text in _units().values())


def test_the_document_title_is_the_first_level_one_heading() -> None:
    assert parse_markdown(CODE)[0] == "Codul de test"

"""How the Romanian Markdown reader undoes PDF wrapping: what a reader of an article's text would notice."""

from __future__ import annotations

import pytest

from corpus.ro.markdown import parse_markdown

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
        ("1/2/a/2", "point", "2. un punct."),  # a point after a letter divides the letter
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


# A consolidated act as PDF-to-Markdown conversions of other codes print it: superscript indexes flattened
# into plain digits, titles run over a line or into the text, footnotes and consolidation notes after units,
# references wrapped to the start of a line, repealed articles. Written for these tests.
CONSOLIDATED = """# Legea de probă

## CAPITOLUL I — Dispoziții

###### Articolul 1 — Obiectul și domeniul de aplicare al legii de

probă
(1) Prima regulă se aplică tuturor.
(11
) Regula inserată se aplică după prima.
(12
) A doua regulă inserată.
(2) Sunt definite:
a) primul termen;
a
1
) termenul inserat;
b) al doilea termen, prevăzut la art. 3 lit.
a), b) și c).

###### Articolul 2 *)

(1) Textul are două alineate, iar trimiterea la alin.
(2), ruptă pe rând, nu este un alineat.
(2) Al doilea alineat.
*) 1. Se reproduce mai jos art. 9 din Legea nr. 1/2000:
"(1) Un alineat citat din altă lege.
(3) Încă unul."
**) Notă de subsol.

###### Articolul 3

Definiții:
1. primul punct;
1.1. subpunctul;
2. al doilea punct;
20. al douăzecilea punct;
201
. punctul inserat;
21. ultimul punct.

###### Articolul 4 — Abrogat

###### Articolul 5

(1) Primul alineat.
(1.1) Alineatul inserat, scris cu punct.
28/07/2022 - alineatul a fost introdus prin Legea nr. 2/2022.
(2) Al doilea alineat:
a) prima literă;
b)
28/07/2022 - litera a fost abrogată prin Legea nr. 2/2022.
*) Notă după alineatul (2), care nu încheie articolul.
(3) Al treilea alineat.

###### Articolul 51

Articol cu indice tipărit ca cifră.

###### Articolul 52

Alt articol cu indice.

###### Articolul 6

Principiul clarității (1) Titlul stă pe același rând cu primul alineat.
(2) Al doilea alineat.

###### Articolul 7

Abrogat.

###### Articolul 8

Articol fără titlu.

###### Articolul 8¹

Articol cu indice în exponent.

###### Articolul 9

Sunt scutite:
1. veniturile din:
a) salarii;
b) pensii;
2. *** A B R O G A T ***
3. dobânzile.

###### Articolul 10

(1) Se aplică:
a) în cazurile:
1. primul caz;
2. al doilea caz;
b) în celelalte cazuri.

###### Articolul 11

Termenii au următoarele înțelesuri, explicați de norme. Norme metodologice
z) ultimul termen cu o literă;
aa) primul termen cu două litere;
bb) al doilea termen cu două litere.

###### Articolul 12

Regimul cererilor depuse la autoritate (1)
Cererea se depune în scris, iar dispozițiile art. 3 alin.
(2) se aplică în mod corespunzător.
(2) *** Abrogat
(3) Cererea cuprinde:
a) numele;
a1
) prenumele, introdus ulterior;
b) *** Abrogată
c) semnătura.

###### Articolul 13 — Termenele speciale de plată pentru impozitul stabilit

potrivit art. 5
din prezenta lege
(1) Termenul este de 30 de zile.
(2) Termenul se prelungește la cerere.

###### Articolul 14 — Acordarea reducerilor de impozit de către consiliile

locale sau de către consiliile județene/
Consiliul General al Municipiului București
(1) Reducerile se acordă prin hotărâre.
"""


def _consolidated() -> dict[str, tuple[str, str | None, str, str]]:
    _title, drafts = parse_markdown(CONSOLIDATED)
    return {d[1]: (d[2], d[4], d[5], d[6]) for d in drafts}


def test_every_article_of_a_consolidated_act_is_found_with_its_index() -> None:
    articles = [path for path, (kind, _h, _t, _s) in _consolidated().items() if kind == "article"]
    assert articles == ["1", "2", "3", "4", "5", "5^1", "5^2", "6", "7", "8", "8^1", "9", "10", "11", "12", "13",
                        "14"]


@pytest.mark.parametrize(
    ("path", "kind", "text"),
    [
        ("1/1^1", "paragraph", "(1^1) Regula inserată se aplică după prima."),
        ("1/1^2", "paragraph", "(1^2) A doua regulă inserată."),
        ("1/2/a^1", "letter", "a^1) termenul inserat;"),
        ("1/2/b", "letter", "b) al doilea termen, prevăzut la art. 3 lit. a), b) și c)."),
        ("2/1", "paragraph", "(1) Textul are două alineate, iar trimiterea la alin. (2), ruptă pe rând, nu este un alineat."),
        ("2/2", "paragraph", "(2) Al doilea alineat."),
        ("3/1.1", "point", "1.1. subpunctul;"),
        ("3/20^1", "point", "20^1. punctul inserat;"),
        ("3/21", "point", "21. ultimul punct."),
        ("5/1^1", "paragraph", "(1.1) Alineatul inserat, scris cu punct."),
        ("5/2/b", "letter", "b) 28/07/2022 - litera a fost abrogată prin Legea nr. 2/2022."),
        ("5/3", "paragraph", "(3) Al treilea alineat."),
        ("6/1", "paragraph", "(1) Titlul stă pe același rând cu primul alineat."),
        ("7", "article", "Abrogat."),
        # the kind that comes first under an alineat is its level, the other kind divides its units
        ("9/1/b", "letter", "b) pensii;"),
        ("9/3", "point", "3. dobânzile."),
        ("10/1/a/2", "point", "2. al doilea caz;"),
        ("10/1/b", "letter", "b) în celelalte cazuri."),
        ("11/z", "letter", "z) ultimul termen cu o literă;"),  # after z) come aa), bb)
        ("11/aa", "letter", "aa) primul termen cu două litere;"),
        # the "(1)" after a title ends its line; "alin." ending a line makes the next "(2)" a reference
        ("12/1", "paragraph", "(1) Cererea se depune în scris, iar dispozițiile art. 3 alin. (2) se aplică în mod corespunzător."),
        ("12/2", "paragraph", "(2) *** Abrogat"),
        ("12/3/a^1", "letter", "a^1) prenumele, introdus ulterior;"),  # "a1" then ")" on the next line
        ("12/3/a", "letter", "a) numele;"),
        ("13/1", "paragraph", "(1) Termenul este de 30 de zile."),
    ],
)
def test_a_unit_of_a_consolidated_act_holds_its_own_text(path: str, kind: str, text: str) -> None:
    assert _consolidated()[path][0] == kind
    assert _consolidated()[path][2] == text


@pytest.mark.parametrize("path", ["1/11", "1/12", "1/2/1", "2/3", "3/201", "5/1.1", "51", "52", "9/a", "10/1/1",
                                  "12/3/a1"])
def test_a_consolidated_act_has_no_unit_its_structure_does_not_hold(path: str) -> None:
    assert path not in _consolidated()


@pytest.mark.parametrize("dropped", ["citat din altă lege", "Încă unul", "Notă", "28/07/2022 - alineatul",
                                     "Norme metodologice"])
def test_footnotes_and_consolidation_notes_are_no_article_text(dropped: str) -> None:
    assert all(dropped not in text for _kind, _heading, text, _status in _consolidated().values())


@pytest.mark.parametrize(
    ("path", "heading"),
    [
        ("1", "Obiectul și domeniul de aplicare al legii de probă"),
        ("4", "Abrogat"),
        ("6", "Principiul clarității"),
        ("12", "Regimul cererilor depuse la autoritate"),
        # a title wrapped over two short lines below its heading
        ("13", "Termenele speciale de plată pentru impozitul stabilit potrivit art. 5 din prezenta lege"),
        # the second line in capitals, the "(1)" right after it
        ("14", "Acordarea reducerilor de impozit de către consiliile locale sau de către consiliile "
               "județene/Consiliul General al Municipiului București"),
        # an article's whole text is no title of the next one
        ("7", None),
        ("8", None),
        ("5^2", None),
    ],
)
def test_a_title_wrapped_or_run_into_the_text_is_the_heading(path: str, heading: str | None) -> None:
    assert _consolidated()[path][1] == heading


@pytest.mark.parametrize("path", ["4", "7", "9/2", "5/2/b", "12/2", "12/3/b"])
def test_a_repealed_article_is_repealed_with_or_without_text(path: str) -> None:
    assert _consolidated()[path][3] == "repealed"


# Divisions some conversions print as plain lines, not headings: a subsection under a section heading, its name
# on the next line, right after an article's last sentence; a chapter line after a title heading whose name
# stands alone below it. Written for these tests.
PLAIN_DIVISIONS = """# Legea circulației de probă

### SECȚIUNEA a 2-a — Reguli de mers

SUBSECȚIUNEA 1
Poziția pe drum

###### Articolul 10

(1) Vehiculele circulă pe partea dreaptă.
(2) Benzile se numără de la dreapta spre
stânga.
SUBSECȚIUNEA 2
Semnalele

###### Articolul 11

Semnalele se folosesc numai la nevoie.

### TITLUL III

Folosința
Capitolul I
Reguli comune
Definiția

###### Articolul 12

Folosința este dreptul de a întrebuința bunul.
"""


def test_a_division_printed_as_a_plain_line_is_context_not_text_nor_a_title() -> None:
    _title, drafts = parse_markdown(PLAIN_DIVISIONS)
    units = {d[1]: d for d in drafts}
    assert units["10/2"][5] == "(2) Benzile se numără de la dreapta spre stânga."
    assert units["10"][7] == "SECȚIUNEA a 2-a — Reguli de mers / SUBSECȚIUNEA 1 — Poziția pe drum"
    assert units["11"][4] is None
    assert units["11"][7] == "SECȚIUNEA a 2-a — Reguli de mers / SUBSECȚIUNEA 2 — Semnalele"
    assert units["12"][4] == "Definiția"
    assert units["12"][7] == "TITLUL III — Folosința / Capitolul I — Reguli comune"


# A Government act's signatures after its last article, then an annex with articles of its own. Written for
# these tests.
ANNEXED = """# Ordonanța de probă

###### Articolul 1

Se aprobă procedura din anexă.
PRIM-MINISTRU
ION POPESCU
Contrasemnează:
Ministrul justiției,
Maria Ionescu

## ANEXA Nr. 1

PROCEDURĂ

###### Articol anexă 1

(1) Procedura se aplică tuturor.
(2) Ea se publică.

###### Articol anexă 2

Anexa intră în vigoare odată cu ordonanța.
"""


def test_an_annex_article_is_a_unit_of_its_annex_and_signatures_are_no_text() -> None:
    _title, drafts = parse_markdown(ANNEXED)
    units = {d[1]: d for d in drafts}
    assert list(units) == ["1", "anexa-1/1", "anexa-1/1/1", "anexa-1/1/2", "anexa-1/2"]
    assert units["1"][5] == "Se aprobă procedura din anexă."
    assert units["anexa-1/1/2"][5] == "(2) Ea se publică."
    assert units["anexa-1/2"][7] == "ANEXA Nr. 1"

"""Shapes of legislation text and of lawyers' web pages: how gazette acts, consolidation notes and opinions name acts
(framework laws, EU treaties and decisions, amended acts, titles that hold other acts), and what only looks like a
second act or an article.

Sentences written for these tests from the structure of each shape, not copied from any labelled set.
"""

from __future__ import annotations

import pytest

from citations import extract

Row = tuple[str | None, ...]


def articles(text: str) -> list[Row]:
    return [(c.act, c.article) for c in extract(text) if c.kind == "article"]


def acts(text: str) -> list[str | None]:
    return [c.act for c in extract(text) if c.kind == "act"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Трудовой кодекс Российской Федерации от 30.12.2001 N 197-ФЗ (ред. от 01.01.2024) действует.",
         ["ru/tk"]),
        ("См. \"Гражданский кодекс Российской Федерации (часть четвертая)\" от 18.12.2006 N 230-ФЗ.", ["ru/gk"]),
        # a law of the same number written apart from a code is still a law of its own
        ("Кодекс применяется наряду с Федеральным законом от 06.04.2011 № 63-ФЗ «Об электронной подписи».",
         ["ru/fz-63"]),
    ],
)
def test_the_number_written_after_a_code_is_the_law_that_enacted_it_not_a_second_act(
    text: str, expected: list[str]
) -> None:
    assert acts(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Полномочия определены статьей 7 Федерального конституционного закона от 21.07.1994 № 1-ФКЗ.",
         [("ru/fkz-1", "7")]),
        ("См. ст. 12 Федерального конституционного закона «О судебной системе Российской Федерации» № 1-ФКЗ.",
         [("ru/fkz-1", "12")]),
    ],
)
def test_a_federal_constitutional_law_is_keyed_apart_from_the_federal_laws(text: str, expected: list[Row]) -> None:
    assert articles(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Проценты начисляются по статье 317.1. Гражданского кодекса Российской Федерации.", [("ru/gk", "317.1")]),
        ("Неустойка взыскана по ст. 330. Гражданского кодекса РФ.", [("ru/gk", "330")]),
    ],
)
def test_an_article_number_closed_by_a_stop_keeps_the_act_in_the_genitive_after_it(
    text: str, expected: list[Row]
) -> None:
    assert articles(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Se aplică art. 7 din Legea-cadru nr. 153/2017 privind salarizarea personalului.", [("ro/lege-153-2017", "7")]),
        ("Ajutorul este compatibil potrivit art. 107 alin. (3) din Tratatul privind funcționarea Uniunii Europene.",
         [("eu/tfue", "107")]),
        ("— Articolul 101 TFUE — Articolul 6 alineatul (1) din Tratatul privind Uniunea Europeană —",
         [("eu/tfue", "101"), ("eu/tue", "6")]),
        ("Dreptul la apărare este garantat de art. 47 din Carta drepturilor fundamentale a Uniunii Europene.",
         [("eu/cdfue", "47")]),
        ("Cu respectarea art. 3 din Decizia (UE) 2017/1000 a Comisiei.", [("eu/dec-1000-2017", "3")]),
    ],
)
def test_framework_laws_eu_treaties_the_charter_and_eu_decisions_are_acts_of_their_articles(
    text: str, expected: list[Row]
) -> None:
    assert articles(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Potrivit Hotărârii Parlamentului României nr. 3/2022 pentru acordarea încrederii Guvernului și Deciziei "
         "prim-ministrului nr. 14/2022 privind delegarea unor atribuții.", ["ro/hparl-3-2022", "ro/dpm-14-2022"]),
        ("Se aplică Legea nr. 10/2020 privind achizițiile și Ordonanța Guvernului nr. 3/2021 privind taxele.",
         ["ro/lege-10-2020", "ro/og-3-2021"]),
        # inside an amending act's title, "și a Legii ..." is part of the title, not a second citation
        ("Legea nr. 7/2019 pentru modificarea Legii nr. 1/2011 și a Legii nr. 2/2012 privind unele măsuri.",
         ["ro/lege-7-2019"]),
    ],
)
def test_a_title_ends_before_another_act_joined_by_si(text: str, expected: list[str]) -> None:
    assert acts(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a heading run into its title by a lost space: the title, and the act inside it, are the heading's
        ("ORDONANȚĂ DE URGENȚĂ nr. 9 din 2 martie 2021pentru modificarea Ordonanței Guvernului nr. 5/2000 privind "
         "taxele\nEMITENT", ["ro/oug-9-2021"]),
        # ", precum și" goes on with the title unless another act follows
        ("HOTĂRÂRE nr. 40 din 5 mai 2010 pentru aprobarea Normelor privind laboratoarele, precum și a organismelor "
         "prevăzute în Legea nr. 8/2001 privind produsele\n", ["ro/hg-40-2010"]),
        ("Se aplică Legea nr. 4/2015 privind educația, precum și Legea nr. 6/2016 privind sănătatea.",
         ["ro/lege-4-2015", "ro/lege-6-2016"]),
    ],
)
def test_an_act_inside_another_acts_title_is_not_cited_on_its_own(text: str, expected: list[str]) -> None:
    assert acts(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the article inside a title takes the act written after it, and the titled act is still cited
        ("ORDONANȚĂ DE URGENȚĂ nr. 12 din 3 mai 2023pentru abrogarea art. XV din Ordonanța de urgență a Guvernului "
         "nr. 40/2022 privind unele măsuri\n", [("ro/oug-40-2022", "XV")]),
        # amendment notes name the chapter and section between the article and its act
        ("(la 02-02-2024, Titlul a fost modificat de Punctul 3., Articolul LXII, Capitolul II din ORDONANȚA DE "
         "URGENȚĂ nr. 7 din 1 februarie 2024)", [("ro/oug-7-2024", "LXII")]),
    ],
)
def test_an_article_in_an_amending_act_takes_the_act_written_after_its_structure(
    text: str, expected: list[Row]
) -> None:
    assert articles(text) == expected


def test_the_articles_an_amending_act_names_bare_are_the_amended_acts() -> None:
    text = ("Legea nr. 12/2016 privind registrul, publicată în Monitorul Oficial al României, Partea I, nr. 5 din 4 "
            "ianuarie 2016, se modifică după cum urmează:\n1. La articolul 4, alineatul (2) se abrogă.\n"
            "2. La articolul 9, după alineatul (1) se introduce un nou alineat.")
    assert articles(text) == [("ro/lege-12-2016", "4"), ("ro/lege-12-2016", "9")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("În temeiul art. 5 alin. (1) din Legea nr. 9/1999 și al art. 12(3) din Regulamentul de organizare și "
         "funcționare a Comisiei,", [("ro/lege-9-1999", "5"), (None, "12")]),
        ("Conform art. 8 din Normele de aplicare ale institutului, cererea se depune în scris.", [(None, "8")]),
        # a company's own rules are no act at all
        ("Conform art. 8 din regulamentul intern, salariatul anunță absența.", []),
    ],
)
def test_an_article_of_rules_named_without_a_number_is_cited_with_its_act_unknown(
    text: str, expected: list[Row]
) -> None:
    assert articles(text) == expected


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("Potrivit art. 46(2) din Legea nr. 24/2000, textul se republică.", "alin. (2)"),
        ("Se aplică art. 15 alin. (3) lit. (b) din Legea nr. 24/2000.", "alin. (3) lit. b)"),
    ],
)
def test_a_paragraph_in_brackets_after_the_number_and_a_letter_in_brackets_are_parts(text: str, part: str) -> None:
    assert [c.part for c in extract(text) if c.kind == "article"] == [part]


def test_an_eu_article_inserted_with_a_letter_keeps_it() -> None:
    assert articles("În aplicarea art. 5d și art. 11 din Regulamentul (UE) nr. 260/2012.") == [
        ("eu/reg-260-2012", "5d"), ("eu/reg-260-2012", "11")]


@pytest.mark.parametrize(
    "text",
    [
        "Articolul 512 - Executarea silită\n\nCodul de procedură civilă\n",
        "🔗 Articolul 77 - Termenul\nTermenul curge de la comunicare.",
    ],
)
def test_an_article_heading_with_its_title_after_a_dash_cites_no_article(text: str) -> None:
    assert articles(text) == []


def test_the_law_named_inside_the_name_of_rules_approved_by_a_decision_is_not_cited_on_its_own() -> None:
    text = ("Normele metodologice de aplicare a Legii nr. 30/2004 privind taxele, aprobate prin Hotărârea Guvernului "
            "nr. 70/2005, se modifică.")
    assert acts(text) == ["ro/hg-70-2005"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # one act named before, however far back: the bare article is that act's
        ("Ordonanța de urgență a Guvernului nr. 15/2010 privind sancțiunile are 30 de articole.\n\nProiectul "
         "modifică integral articolele acesteia. Ultimul dintre ele este art. 30, iar proiectul îl abrogă.",
         [("ro/oug-15-2010", "30")]),
        # several acts named before: unknown
        ("Legea nr. 3/2000 și Legea nr. 4/2001 se aplică.\n\nProiectul abrogă art. 30.", [(None, "30")]),
    ],
)
def test_a_bare_article_takes_the_one_act_named_before_it(text: str, expected: list[Row]) -> None:
    assert articles(text) == expected


def test_a_high_court_decision_is_known_by_its_unification_formula() -> None:
    text = ("DECIZIA nr. 7 din 3 martie 2025 referitoare la interpretarea și aplicarea unitară a dispozițiilor art. 5 "
            "din Legea nr. 1/2020")
    assert [(c.court, c.number) for c in extract(text) if c.kind == "decision"] == [("ÎCCJ", "7")]



@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the note's article is the consolidated act's: the act the text cites the same article of
        ("Art. 12 a fost abrogat de art. 40 din LEGEA nr. 5 din 3 martie 2015.\nNotă: dispozițiile art. 12 alin. (1) "
         "din Legea nr. 100/2010 au fost declarate neconstituționale.",
         [("ro/lege-100-2010", "12"), ("ro/lege-5-2015", "40"), ("ro/lege-100-2010", "12")]),
        # no such citation: unknown, never the act the passage cites other articles of
        ("(2) Prevederile art. 5 din Regulamentul general privind protecția datelor nu se aplică.\n(la 01-01-2020, "
         "Alineatul (2) din Articolul 4 , Capitolul II a fost modificat de ARTICOLUL UNIC din LEGEA nr. 9 din 2 "
         "ianuarie 2020)", [("eu/reg-679-2016", "5"), (None, "4"), ("ro/lege-9-2020", "unic")]),
    ],
)
def test_the_article_an_amendment_note_is_about_takes_only_the_act_cited_with_the_same_article(
    text: str, expected: list[Row]
) -> None:
    assert articles(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Dreptul la un proces echitabil (art. 6 par. 1 din Convenție) a fost încălcat.", [("echr/convention", "6")]),
        ("Instanța a reținut încălcarea art. 8 CEDO.", [("echr/convention", "8")]),
        ("Согласно ст. 6 Конвенции каждый имеет право на справедливое разбирательство.", [("echr/convention", "6")]),
        # another convention named before is the one pointed back to
        ("Potrivit art. 3 din Convenția de la Haga din 1980, iar art. 13 din aceeași convenție prevede excepții.", []),
    ],
)
def test_the_convention_named_alone_is_the_european_one_when_no_other_was_named(text: str, expected: list[Row]) -> None:
    assert [r for r in articles(text) if r[0] is not None] == expected


def test_cedo_alone_names_the_court_not_an_act() -> None:
    assert acts("CEDO a statuat că dreptul de acces la instanță nu este absolut.") == []


def test_an_enabling_laws_roman_point_and_position_are_parts_of_the_article() -> None:
    text = ("În temeiul art. 108 din Constituția României, republicată, și al art. 1 pct. III poz. 4 din Legea nr. "
            "10/2024 privind abilitarea Guvernului de a emite ordonanțe,")
    assert [(c.act, c.article, c.part) for c in extract(text) if c.kind == "article"] == [
        ("ro/constitutie", "108", None), ("ro/lege-10-2024", "1", "pct. III")]

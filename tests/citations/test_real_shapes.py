"""Shapes real legal text takes that answers written for the extractor rarely do: acts after their articles, acts
from context, act kinds beyond codes and laws, abbreviations, and what only looks like a citation.

Sentences written for these tests from the structure of each shape, not copied from any labelled set.
"""

from __future__ import annotations

import pytest

from citations import extract

Row = tuple[str | None, ...]


def articles(text: str) -> list[Row]:
    return [(c.act, c.article, c.article_to, c.part) for c in extract(text) if c.kind == "article"]


def acts(text: str) -> list[str | None]:
    return [c.act for c in extract(text) if c.kind == "act"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Деяния квалифицированы по частям первой и второй статьи 158, статье 159 и части третьей статьи 160 "
            "Уголовного кодекса Российской Федерации.",
            [("ru/uk", "158", None, "ч. 1"), ("ru/uk", "158", None, "ч. 2"), ("ru/uk", "159", None, None),
             ("ru/uk", "160", None, "ч. 3")],
        ),
        (
            "Faptele sunt prevăzute de art. 244–246 și 249 din Codul penal.",
            [("ro/cpen", "244", "246", None), ("ro/cpen", "249", None, None)],
        ),
        (
            "Legea a fost adoptată cu respectarea prevederilor art. 75 și ale art. 76 alin. (2) din Constituția "
            "României, republicată.",
            [("ro/constitutie", "75", None, None), ("ro/constitutie", "76", None, "alin. (2)")],
        ),
    ],
)
def test_a_list_takes_the_act_written_after_its_last_member(text: str, expected: list[Row]) -> None:
    assert articles(text) == expected


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("Dispozițiile constituționale ale art. 24 garantează dreptul la apărare.", "ro/constitutie"),
        ("Prevederile constituționale ale art. 44 alin. (1) ocrotesc proprietatea.", "ro/constitutie"),
        ("Конституционные положения статьи 35 защищают право частной собственности.", "ru/konst"),
    ],
)
def test_the_constitution_named_by_its_adjective_is_the_act_of_the_article(text: str, act: str) -> None:
    assert [a for a, *_ in articles(text)] == [act]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a text that is about one act cites it bare afterwards
        ("Сделка оспорима по ст. 178 ГК РФ. Срок давности для неё установлен статьёй 181.",
         [("ru/gk", "178"), ("ru/gk", "181")]),
        # several acts named, the bare article sentences later: the text does not settle it
        ("Иск подан по ст. 178 ГК РФ. Срок рассмотрения указан в ст. 154 ГПК РФ. Отдельно см. статью 181.",
         [("ru/gk", "178"), ("ru/gpk", "154"), (None, "181")]),
        # "the same law" with no law before it is unknown, never the code named earlier
        ("Спор решается по ст. 15 ГК РФ, а штраф взыскивается по ст. 13 того же закона.",
         [("ru/gk", "15"), (None, "13")]),
        ("Termenul este prevăzut de art. 2.517 din Codul civil, iar suspendarea de art. 2.532 din același cod.",
         [("ro/cciv", "2517"), ("ro/cciv", "2532")]),
        # an amendment note names the amending act after the article: not the article's act
        ("(la 10-02-2021,\nLitera b) din Articolul 7 a fost modificată de Punctul 2, ARTICOLUL UNIC din LEGEA nr. 5 "
         "din 8 februarie 2021)\n",
         [(None, "7"), ("ro/lege-5-2021", "unic")]),
    ],
)
def test_a_bare_article_takes_an_act_only_where_the_text_settles_it(text: str, expected: list[Row]) -> None:
    assert [(a, n) for a, n, *_ in articles(text)] == expected


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("Se aplică Ordinul ministrului sănătății nr. 1.234/2019 privind normele de igienă.", "ro/ordin-1234-2019"),
        ("Potrivit Ordinului nr. 2.101/3.087/2020 al ministrului muncii și al ministrului educației.", "ro/ordin-2101-2020"),
        ("ORDIN nr. 77 din 5 mai 2021 pentru aprobarea procedurii", "ro/ordin-77-2021"),
        ("ORDINNr. 12/2020 privind procedura", "ro/ordin-12-2020"),  # a heading whose space was lost
        ("HOTĂRÂRE nr. 905 din 14 iunie 2017 privind registrul general de evidență", "ro/hg-905-2017"),
        ("conform Hotărârii Guvernului nr. 1.425/2006", "ro/hg-1425-2006"),
        ("LEGE nr. 98 din 19 mai 2016 privind achizițiile publice", "ro/lege-98-2016"),
        ("Legea educației naționale nr. 1/2011 se aplică.", "ro/lege-1-2011"),
        ("Legea nr. 287 din 17 iulie 2009 privind Codul civil", "ro/cciv"),
        ("Ordonanța Guvernului nr. 26/2000 cu privire la asociații", "ro/og-26-2000"),
        ("Ordonanța de urgență a Guvernului nr. 26/2000", "ro/oug-26-2000"),
        ("Regulamentul (UE) nr. 1215/2012 al Parlamentului European și al Consiliului", "eu/reg-1215-2012"),
        ("Regulamentul (UE) 2022/2065 privind piața unică pentru serviciile digitale", "eu/reg-2065-2022"),
        ("Directiva 93/13/CEE a Consiliului", "eu/dir-13-1993"),
        ("Директива 2019/790 о праве на использование", "eu/dir-790-2019"),
        ("Convenția europeană a drepturilor omului", "echr/convention"),
        ("Конвенция о защите прав человека и основных свобод", "echr/convention"),
        ("Protocolul nr. 12 la Convenție", "echr/protocol-12"),
        ("Протокол № 4 к Конвенции о защите прав человека и основных свобод", "echr/protocol-4"),
        ("постановление Правительства РФ от 19.09.2020 № 1479 «Об утверждении Правил противопожарного режима»",
         "ru/pp-1479"),
        ("постановление Государственной Думы от 17.03.2021 № 10345-7 ГД", "ru/gd-10345-7"),
        ("Закон Санкт-Петербурга от 12.05.2010 № 273-70", "ru/region-sankt-peterburga-273-70"),
        ("Закон Свердловской области от 20.10.2011 № 92-ОЗ", "ru/region-sverdlovskoi-oblasti-92-oz"),
    ],
)
def test_act_kinds_beyond_codes_and_laws_get_their_keys(text: str, act: str | None) -> None:
    assert acts(text) == ([act] if act else [])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("art. 53 CP", ("ro/cpen", "53")),
        ("art. 53 C. pen.", ("ro/cpen", "53")),
        ("art. 53 NCP", ("ro/cpen", "53")),
        ("art. 453 C.proc.civ.", ("ro/cpc", "453")),
        ("art. 453 NCPC", ("ro/cpc", "453")),
        ("ст.18 ЗЗПП", ("ru/zpp", "18")),
        ("ст. 51 ГрК РФ", ("ru/grk", "51")),
        ("п. 8.1 ПДД", ("ru/pdd", "8.1")),
        ("ст. 1064 ГКРФ", ("ru/gk", "1064")),
        ("art. 1.357 din Codul civil", ("ro/cciv", "1357")),
        ("art. 7 din Legea nr. 217 / 2016", ("ro/lege-217-2016", "7")),
        ("art. 5 din Legea nr. 1.003/2021", ("ro/lege-1003-2021", "5")),
        ("art. 12 din Legea societatilor", ("ro/lege-31-1990", "12")),
        ("art. 12 din Legea societăţilor", ("ro/lege-31-1990", "12")),
        ("ст.\u00a0333\u00a0ГК\u00a0РФ", ("ru/gk", "333")),
        ("ст. 7 Федерального закона “О полиции”", ("ru/fz-3", "7")),
    ],
)
def test_abbreviations_and_spellings_name_the_same_act(text: str, expected: Row) -> None:
    assert [(a, n) for a, n, *_ in articles(text)] == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "Дело № 2-512/2023 УИД 77RS0001-01-2023-000111-22 рассмотрено 12 мая 2023 года.",
        "Решением Кировского районного суда г. Перми от 01.02.2023 по делу № 2-100/2023 исковые требования "
        "удовлетворены.",
        "Prin sentința civilă nr. 845/2021 a Judecătoriei Iași, pronunțată în dosarul nr. 1234/245/2020, cererea "
        "reclamantului a fost respinsă.",
        "(Собрание законодательства Российской Федерации, 2001, N 1, ст. 2; 2005, N 19, ст. 1752)",
        "Согласно п. 4.1 Договора аренды от 01.03.2022 арендная плата составляет 50 000 руб. в месяц.",
        "Articolul 5\nPrezenta lege intră în vigoare la 30 de zile de la publicare.",
        "Статья 12\nНастоящий Федеральный закон вступает в силу со дня его опубликования.",
        "ART. 4 Drepturile membrilor sunt egale.",
    ],
)
def test_what_only_looks_like_a_citation_is_none(text: str) -> None:
    assert [c for c in extract(text) if c.kind != "act"] == []


def test_a_point_of_rules_a_government_resolution_approved_cites_that_resolution() -> None:
    text = "Перерасчёт делается по п. 90 Правил, утв. постановлением Правительства РФ от 06.05.2011 № 354."
    assert articles(text) == [("ru/pp-354", None, None, "п. 90")]


def test_an_article_of_rules_approved_by_a_decision_cites_that_decision() -> None:
    text = "art. 12 din Regulamentul de organizare, aprobat prin Hotărârea Guvernului nr. 34/2009"
    assert articles(text) == [("ro/hg-34-2009", "12", None, None)]


def test_an_act_named_inside_another_acts_title_is_not_cited_on_its_own() -> None:
    text = ("Legea nr. 85/2023 pentru modificarea Legii nr. 227/2015 privind Codul fiscal și a Regulamentului (UE) "
            "nr. 575/2013, cu modificările ulterioare")
    assert acts(text) == ["ro/lege-85-2023"]

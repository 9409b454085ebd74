"""The extractor on sentences written for these tests: shapes of citations, not copies of the dev sets."""

from __future__ import annotations

import pytest

from citations import Citation, extract
from citations.model import RECORD_KEYS

Row = tuple[str | None, ...]


def rows(text: str, jurisdiction: str = "auto") -> list[Row]:
    out: list[Row] = []
    for c in extract(text, jurisdiction):  # type: ignore[arg-type]
        if c.kind == "decision":
            out.append((c.kind, c.court, c.number))
        else:
            out.append((c.kind, c.act, c.article, c.article_to, c.part))
    return out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Срок принятия наследства указан в ст. 1154 ГК РФ.", [("article", "ru/gk", "1154", None, None)]),
        (
            "Согласно пункту 2 статьи 218 Гражданского кодекса Российской Федерации право переходит.",
            [("article", "ru/gk", "218", None, "п. 2")],
        ),
        (
            "Основание — подп. «в» п. 3 ч. 1 ст. 81 Трудового кодекса РФ.",
            [("article", "ru/tk", "81", None, "пп. в п. 3 ч. 1")],
        ),
        ("Штраф предусмотрен ч. 2 ст. 12.9 КоАП РФ.", [("article", "ru/koap", "12.9", None, "ч. 2")]),
        ("Наследование регулируют ст.ст. 1110–1185 ГК РФ.", [("article", "ru/gk", "1110", "1185", None)]),
        (
            "Очереди наследников — ст. 1142, 1143 и 1144 ГК РФ.",
            [
                ("article", "ru/gk", "1142", None, None),
                ("article", "ru/gk", "1143", None, None),
                ("article", "ru/gk", "1144", None, None),
            ],
        ),
        (
            "Согласно ч. 2 и 3 ст. 5 Жилищного кодекса РФ.",
            [("article", "ru/zhk", "5", None, "ч. 2"), ("article", "ru/zhk", "5", None, "ч. 3")],
        ),
        (
            "Требование основано на ст. 12 Федерального закона от 25.04.2002 № 40-ФЗ.",
            [("article", "ru/osago", "12", None, None)],
        ),
        (
            "Смотрите ст. 7 Федерального закона от 29.12.2012 № 273-ФЗ «Об образовании в Российской Федерации».",
            [("article", "ru/fz-273", "7", None, None)],
        ),
        (
            "Продавец отвечает по ст. 18 Закона о защите прав потребителей, а штраф взыскивается по п. 6 ст. 13 того же закона.",
            [("article", "ru/zpp", "18", None, None), ("article", "ru/zpp", "13", None, "п. 6")],
        ),
        ("Применяется Семейный кодекс РФ.", [("act", "ru/sk", None, None, None)]),
        (
            "Споры рассматриваются по ст. 22 ГПК РФ; см. также ст. 23 и 24 того же кодекса.",
            [
                ("article", "ru/gpk", "22", None, None),
                ("article", "ru/gpk", "23", None, None),
                ("article", "ru/gpk", "24", None, None),
            ],
        ),
        (
            "Вычет дает ст. 220 НК РФ, а порядок — ст. 221.",
            [("article", "ru/nk", "220", None, None), ("article", "ru/nk", "221", None, None)],
        ),
    ],
)
def test_russian_article_citations_are_read_with_their_act_and_subdivision(
    text: str, expected: list[Row]
) -> None:
    assert rows(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Potrivit art. 1.357 C.civ., cel care cauzează un prejudiciu răspunde.",
            [("article", "ro/cciv", "1357", None, None)],
        ),
        (
            "Conform art. 35 alin. (2) lit. b) din Codul muncii, salariatul poate cumula funcții.",
            [("article", "ro/cmuncii", "35", None, "alin. (2) lit. b)")],
        ),
        ("Vezi art. 2^1 din Legea nr. 10/2001.", [("article", "ro/lege-10-2001", "2^1", None, None)]),
        (
            "Regulile sunt la art. 1.650–1.762 din Codul civil.",
            [("article", "ro/cciv", "1650", "1762", None)],
        ),
        (
            "Se aplică art. 194, 195 și 196 NCPC.",
            [
                ("article", "ro/cpc", "194", None, None),
                ("article", "ro/cpc", "195", None, None),
                ("article", "ro/cpc", "196", None, None),
            ],
        ),
        (
            "Potrivit art. 3 din Legea nr. 17/2014 și art. 4 din aceeași lege, vânzarea se anunță.",
            [
                ("article", "ro/lege-17-2014", "3", None, None),
                ("article", "ro/lege-17-2014", "4", None, None),
            ],
        ),
        (
            "Amenda se aplică potrivit art. 8 din O.G. nr. 2/2001.",
            [("article", "ro/og-2-2001", "8", None, None)],
        ),
        (
            "Consumatorul se poate retrage conform art. 9 din OUG 34/2014.",
            [("article", "ro/oug-34-2014", "9", None, None)],
        ),
        ("Insolvența este reglementată de L. 85/2014.", [("act", "ro/lege-85-2014", None, None, None)]),
        ("art.41 alin.3 Codul muncii", [("article", "ro/cmuncii", "41", None, "alin. (3)")]),
        (
            "conform alin. (2) al art. 1.272 din Codul civil",
            [("article", "ro/cciv", "1272", None, "alin. (2)")],
        ),
    ],
)
def test_romanian_article_citations_are_read_with_their_act_and_subdivision(
    text: str, expected: list[Row]
) -> None:
    assert rows(text) == expected


@pytest.mark.parametrize(
    ("spelling"),
    [
        "Potrivit art. 5 din Legea societăților nr. 31/1990 și Codul civil.",
        "Potrivit art. 5 din Legea societăţilor nr. 31/1990 şi Codul civil.",
        "Potrivit art. 5 din Legea societatilor nr. 31/1990 si Codul civil.",
    ],
)
def test_romanian_diacritics_with_comma_cedilla_or_none_read_the_same(spelling: str) -> None:
    assert rows(spelling) == [
        ("article", "ro/lege-31-1990", "5", None, None),
        ("act", "ro/cciv", None, None, None),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Это разъяснено в п. 34 постановления Пленума ВС РФ от 29.05.2012 № 9.",
            [("decision", "ВС РФ Пленум", "9")],
        ),
        (
            "См. постановление Пленума Высшего Арбитражного Суда РФ от 14.03.2014 № 16.",
            [("decision", "ВАС РФ Пленум", "16")],
        ),
        (
            "Конституционный Суд РФ в постановлении от 10.02.2017 № 2-П указал.",
            [("decision", "КС РФ", "2-П")],
        ),
        (
            "Так решил Верховный суд: определение ВС РФ от 01.02.2022 № 4-КГ21-50-К1.",
            [("decision", "ВС РФ", "4-КГ21-50-К1")],
        ),
        ("Prin Decizia CCR nr. 766/2011 s-a stabilit.", [("decision", "CCR", "766")]),
        (
            "Decizia nr. 2/2016 a ÎCCJ – Completul pentru dezlegarea unor chestiuni de drept.",
            [("decision", "ÎCCJ", "2")],
        ),
        (
            "Curtea de Apel Timișoara, Decizia civilă nr. 1.024/2018, a admis apelul.",
            [("decision", "Curtea de Apel Timișoara", "1024")],
        ),
        ("Hotărârea CJUE în cauza C-311/18 confirmă.", [("decision", "CJUE", "C-311/18")]),
    ],
)
def test_court_decisions_are_read_with_their_court_and_number(text: str, expected: list[Row]) -> None:
    assert rows(text) == expected


@pytest.mark.parametrize(
    ("text", "point"),
    [
        ("Curtea a reținut, în paragraful 25 din Decizia CCR nr. 632/2025, că textul este clar.", "25"),
        ("Potrivit pct. 5 al Deciziei ÎCCJ nr. 3/2021, termenul curge de la comunicare.", "5"),
        ("Decizia CCR nr. 632/2025 a admis excepția.", None),
    ],
)
def test_a_romanian_decision_cited_by_paragraph_carries_the_paragraph_as_its_point(
    text: str, point: str | None
) -> None:
    [found] = extract(text, "ro")
    assert (found.kind, found.point) == ("decision", point)
    assert found.text.startswith(("paragraful", "pct.")) == (point is not None)


@pytest.mark.parametrize(
    "text",
    [
        "Налоговый кодекс РФ (далее — НК РФ) устанавливает сроки уплаты.",
        "Гражданский кодекс Российской Федерации (далее по тексту - ГК РФ) регулирует договоры.",
    ],
)
def test_the_short_name_a_text_defines_for_an_act_is_not_a_second_citation(text: str) -> None:
    assert [c.kind for c in extract(text)] == ["act"]


def test_a_ril_decision_without_a_named_court_is_attributed_to_the_high_court() -> None:
    [c] = extract("Prin Decizia nr. 12/2015, pronunțată în recurs în interesul legii, instanța a stabilit.")
    assert (c.court, c.number) == ("ÎCCJ", "12")


@pytest.mark.parametrize(
    "text",
    [
        "Неустойка составит 0,5% в день, то есть 15 000 руб. за период с 01.02.2024 по 01.03.2024.",
        "По п. 5.2 договора поставщик отвечает за просрочку, а по ст. 7 договора — за качество.",
        "Amenda este de 5.000 lei, adică 10% din valoarea contractului din 12.05.2023.",
        "Conform art. 5 din contract, chiria se plătește lunar; art. 9 din actul constitutiv prevede cvorumul.",
        "Legea a fost publicată în Monitorul Oficial nr. 427 din 11 iunie 2014.",
    ],
)
def test_sums_dates_percentages_contract_clauses_and_gazette_numbers_are_not_citations(text: str) -> None:
    assert extract(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Ответ:\u00a0ст.\u00a01152 ГК РФ и ст. 1153–1154 ГК, а также «Закон о защите прав потребителей».",
        "Conform art. 1.272 alin. (2) din Codul civil şi art. 5 din Legea nr. 85/2014 — Decizia CCR nr. 1/2012.",
    ],
)
def test_every_span_indexes_the_original_text(text: str) -> None:
    found = extract(text)
    assert found
    assert all(text[c.start : c.end] == c.text for c in found)


def test_records_carry_the_contract_keys_in_contract_order_and_status_only_when_given() -> None:
    [c] = extract("ст. 1152 ГК РФ")
    assert list(c.to_record()) == list(RECORD_KEYS)
    assert list(c.to_record(status="found"))[-1] == "status"


@pytest.mark.parametrize(
    ("text", "jurisdiction"), [("См. ст. 10 ГК РФ.", "ru"), ("Vezi art. 10 C.civ.", "ro")]
)
def test_auto_jurisdiction_follows_the_script_of_the_answer(text: str, jurisdiction: str) -> None:
    assert [c.jurisdiction for c in extract(text)] == [jurisdiction]


def test_an_unknown_jurisdiction_is_refused() -> None:
    with pytest.raises(ValueError, match="jurisdiction"):
        extract("ст. 1 ГК РФ", "de")  # type: ignore[arg-type]


def test_citations_come_ordered_by_start() -> None:
    found: list[Citation] = extract("Постановление КС РФ от 01.01.2020 № 1-П и ст. 10 ГК РФ, ГПК РФ.")
    assert [c.start for c in found] == sorted(c.start for c in found)
    assert [c.kind for c in found] == ["decision", "article", "act"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Legea nr. 85/2014, art. 70", [("article", "ro/lege-85-2014", "70", None, None)]),
        ("ГК РФ, ст. 1152", [("article", "ru/gk", "1152", None, None)]),
    ],
)
def test_a_sources_list_entry_naming_the_act_first_is_one_article_citation(
    text: str, expected: list[Row]
) -> None:
    assert rows(text) == expected


@pytest.mark.parametrize(
    ("text", "written", "part"),
    [
        ("п. 2 ст. 5 ГК РФ.", "п. 2 ст. 5 ГК РФ", "п. 2"),
        ("Доп. 2 ст. 5 ГК РФ.", "ст. 5 ГК РФ", None),
        ("Cf. alin. (2) al art. 5 din Codul civil.", "alin. (2) al art. 5 din Codul civil", "alin. (2)"),
        ("Cf. xalin. (2) al art. 5 din Codul civil.", "art. 5 din Codul civil", None),
    ],
)
def test_a_subdivision_before_an_article_counts_only_from_the_start_of_a_word(
    text: str, written: str, part: str | None
) -> None:
    assert [(c.text, c.part) for c in extract(text)] == [(written, part)]


@pytest.mark.parametrize(
    "text",
    [
        "Очереди — ст. 1142, 1143 ГК РФ; а порядок — п. 3 ч. 1 ст. 81 ТК РФ и снова ст. 1142, 1143 ГК РФ, п. 3 ч. 1 ст. 81 ТК РФ.",
        "Vezi art. 1.272 alin. (2) lit. a) C.civ. și, din nou, art. 1.272 alin. (2) lit. a) C.civ.",
    ],
)
def test_a_citation_written_twice_has_each_span_on_its_own_words(text: str) -> None:
    found = extract(text)
    assert len(found) == len({c.start for c in found}) and len(found) % 2 == 0
    assert all(text[c.start : c.end] == c.text for c in found)
    half = len(found) // 2
    assert [(c.article, c.part) for c in found[:half]] == [(c.article, c.part) for c in found[half:]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Вред возмещается по правилам статей 15 и 1064 ГК РФ.",
            [("article", "ru/gk", "15", None, None), ("article", "ru/gk", "1064", None, None)],
        ),
        ("Штраф назначен по ст. 12.9 ч. 2 КоАП РФ.", [("article", "ru/koap", "12.9", None, "ч. 2")]),
        ("Уволен по ст. 81 ч. 1 п. 6 ТК РФ.", [("article", "ru/tk", "81", None, "п. 6 ч. 1")]),
        (
            "Применяется Закон о защите прав потребителей (далее — Закон); см. ст. 22 Закона.",
            [("act", "ru/zpp", None, None, None), ("article", "ru/zpp", "22", None, None)],
        ),
        (
            "Нормы ГК РФ не помогут, а ст. 13 Закона о полиции — да.",
            [("act", "ru/gk", None, None, None), ("article", "ru/fz-3", "13", None, None)],
        ),
        (
            "Нормы ГК РФ не помогут, а ст. 9 Закона о туризме — да.",
            [("act", "ru/gk", None, None, None), ("article", None, "9", None, None)],
        ),
        (
            "См. ст. 61.2 Федерального закона «О несостоятельности (банкротстве)» от 26.10.2002 № 127-ФЗ.",
            [("article", "ru/fz-127", "61.2", None, None)],
        ),
        ("Страховщик по ОСАГО отказал в выплате.", []),
        ("Лимит установлен ст. 7 ОСАГО.", [("article", "ru/osago", "7", None, None)]),
        ("Смотрите ст. 8 Закона РФ от 07.02.1992 № 2300-I.", [("article", "ru/zpp", "8", None, None)]),
        ("Проценты взыскиваются по ст 395 ГК РФ.", [("article", "ru/gk", "395", None, None)]),
        (
            "ГК РФ важен. По ст. 7 п. 2 договора аренды и ст. 1153 п. 2 того же кодекса.",
            [("act", "ru/gk", None, None, None), ("article", "ru/gk", "1153", None, None)],
        ),
        (
            "ГК РФ важен, но см. ст. 5 Федерального закона 127-ФЗ.",
            [("act", "ru/gk", None, None, None), ("article", "ru/fz-127", "5", None, None)],
        ),
        (
            "Применяется Закон о защите прав потребителей, и ст. 10 ГК РФ тоже. По ст. 22 Закона продавец обязан вернуть деньги.",
            [
                ("act", "ru/zpp", None, None, None),
                ("article", "ru/gk", "10", None, None),
                ("article", "ru/zpp", "22", None, None),
            ],
        ),
        (
            "Нормы ГК РФ не помогут, а ст. 5 Закона Московской области — да.",
            [("act", "ru/gk", None, None, None), ("article", None, "5", None, None)],
        ),
        ("Товар соответствует ГОСТ 12345-2019 и гост 123.", []),
        (
            "См.: ГК РФ ст. 333; КоАП РФ — ст. 20.1.",
            [("article", "ru/gk", "333", None, None), ("article", "ru/koap", "20.1", None, None)],
        ),
        (
            "Основания:\n3) ГПК РФ, ст. 264, 267;\n4) Налоговый кодекс РФ, ст. 333.24.",
            [
                ("article", "ru/gpk", "264", None, None),
                ("article", "ru/gpk", "267", None, None),
                ("article", "ru/nk", "333.24", None, None),
            ],
        ),
        (
            "Нотариус действует по ст. 35 Основ законодательства о нотариате.",
            [("article", "ru/zakon-4462-1", "35", None, None)],
        ),
        # an inserted article written with a dash is one article, as the corpus numbers it, not a range down
        ("Штраф по ст. 14.1.1-1 КоАП РФ.", [("article", "ru/koap", "14.1.1.1", None, None)]),
        ("Сроки по ст. 1142-1145 ГК РФ.", [("article", "ru/gk", "1142", "1145", None)]),
        # rules approved by the Government number points, cited as their articles; the rules are not cited again
        ("Водитель нарушил п. 9.10 ПДД РФ.", [("article", "ru/pdd", "9.10", None, None)]),
        (
            "Нарушены пункты 2.1.1 и 2.3.2 Правил дорожного движения.",
            [("article", "ru/pdd", "2.1.1", None, None), ("article", "ru/pdd", "2.3.2", None, None)],
        ),
        ("Правила дорожного движения обязательны для всех.", [("act", "ru/pdd", None, None, None)]),
    ],
)
def test_russian_shapes_beyond_the_common_order_keep_their_act(text: str, expected: list[Row]) -> None:
    assert rows(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Potrivit art. 31¹ din Legea nr. 10/2001.", [("article", "ro/lege-10-2001", "31^1", None, None)]),
        ("Potrivit art. I pct. 3 din O.U.G. nr. 11/2026.", [("article", "ro/oug-11-2026", "I", None, "pct. 3")]),
        (
            "Art. II și IV din Legea nr. 5/2020 intră în vigoare.",
            [("article", "ro/lege-5-2020", "II", None, None), ("article", "ro/lege-5-2020", "IV", None, None)],
        ),
        ("Conform art. 5 și i se aplică regula.", [("article", None, "5", None, None)]),  # "i": a pronoun
        (
            "Potrivit art. 9 ind. 1 din Legea nr. 85/2014.",
            [("article", "ro/lege-85-2014", "9^1", None, None)],
        ),
        (
            "Conform art. 8 alin. (1^1) din Legea nr. 554/2004.",
            [("article", "ro/lege-554-2004", "8", None, "alin. (1^1)")],
        ),
        # a letter or point inserted later carries its index, and the act after it is still this citation's
        (
            "Conform art. 16 alin. (1) lit. a^1) din Codul muncii și art. 7 pct. 20^1 din Codul fiscal.",
            [("article", "ro/cmuncii", "16", None, "alin. (1) lit. a^1)"),
             ("article", "ro/cfiscal", "7", None, "pct. 20^1")],
        ),
        ("Potrivit art. 5 lit. b¹) din Codul fiscal.", [("article", "ro/cfiscal", "5", None, "lit. b^1)")]),
        (
            "Cazurile de la art. 2.537 pct. 1–3 din Codul civil.",
            [("article", "ro/cciv", "2537", None, "pct. 1")],
        ),
        (
            "Procedura e reglementată de Legea nr. 151/2015 (art. 14 din lege).",
            [
                ("act", "ro/lege-151-2015", None, None, None),
                ("article", "ro/lege-151-2015", "14", None, None),
            ],
        ),
        (
            "Se aplică O.U.G. nr. 140/2021, iar termenul este de 2 ani (art. 11 din ordonanță).",
            [("act", "ro/oug-140-2021", None, None, None), ("article", "ro/oug-140-2021", "11", None, None)],
        ),
        (
            "Fapta e prevăzută de art. 228 C.p., iar plângerea de art. 295 C.p.p.",
            [("article", "ro/cpen", "228", None, None), ("article", "ro/cpp", "295", None, None)],
        ),
        (
            "Raportul încetează potrivit art. 492 din Codul administrativ.",
            [("article", "ro/oug-57-2019", "492", None, None)],
        ),
        ("Martorul C. Popescu a semnat art. 5 C. Pop.", [("article", None, "5", None, None)]),
        (
            "Dreptul e garantat de art. 10 din Legea fundamentală.",
            [("article", "ro/constitutie", "10", None, None)],
        ),
        (
            "Potrivit art. 3 al. (2) din Legea nr. 193/2000.",
            [("article", "ro/lege-193-2000", "3", None, "alin. (2)")],
        ),
    ],
)
def test_romanian_shapes_beyond_the_common_order_keep_their_act(text: str, expected: list[Row]) -> None:
    assert rows(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Это разъяснено в постановлениях Пленума ВС РФ от 23.06.2015 № 25 и от 24.03.2016 № 7.",
            [("decision", "ВС РФ Пленум", "25"), ("decision", "ВС РФ Пленум", "7")],
        ),
        (
            "Deciziile ÎCCJ nr. 1/2016 și nr. 2/2017 au clarificat problema.",
            [("decision", "ÎCCJ", "1"), ("decision", "ÎCCJ", "2")],
        ),
        (
            "Верховный Суд РФ в п. 28 постановления Пленума от 28.06.2012 № 17 это разъяснил.",
            [("decision", "ВС РФ Пленум", "17")],
        ),
        (
            "ВАС РФ в постановлении Пленума от 23.12.2010 № 63 указал иное.",
            [("decision", "ВАС РФ Пленум", "63")],
        ),
        (
            "Это разъяснено в п. 36 ППВС РФ № 9 и в п. 2 ППВАС № 63.",
            [("decision", "ВС РФ Пленум", "9"), ("decision", "ВАС РФ Пленум", "63")],
        ),
        ("Конституционный Суд в Постановлении от 27.10.2015 № 28-П указал.", [("decision", "КС РФ", "28-П")]),
        (
            "DCC nr. 895/2015 și D.C.C. nr. 1/2012 sunt relevante.",
            [("decision", "CCR", "895"), ("decision", "CCR", "1")],
        ),
        ("Conform Decizia RIL nr. 3/2020, soluția e unitară.", [("decision", "ÎCCJ", "3")]),
        ("Prin Decizia HP nr. 5/2019 a ICCJ s-a statuat.", [("decision", "ÎCCJ", "5")]),
    ],
)
def test_a_list_of_decisions_gives_each_its_own_citation_with_the_shared_court(
    text: str, expected: list[Row]
) -> None:
    assert rows(text) == expected

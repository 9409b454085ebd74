"""Shapes the fourth round found in the third round's held halves (`unseen-held`, `gazette-held`), each as a reader
would check it: what is cited, with which act or court, and what is not cited on its own."""

from __future__ import annotations

import pytest

from citations import extract
from tests.citations.shapes import cited_things, readings

# (text, a citation that must be read: kind, act or court, article or decision number)
CITED = [
    pytest.param("такую возможность предоставляет ФЗ от 07.02.1992 № 2300-1.", ("act", "ru/zpp", None),
                 id="a-supreme-soviet-law-numbered-dash-one-called-a-federal-law"),
    pytest.param("Федеральный закон от 19.04.1991 N 1032-1 \"О занятости\"", ("act", "ru/zakon-1032-1", None),
                 id="an-unknown-supreme-soviet-law-keeps-its-law-key"),
    pytest.param("С учетом ст. 28 и 29 Федерального закона \"О рынке ценных бумаг\" записи легитимируют владельца.",
                 ("article", "ru/fz-39", "28"), id="a-federal-law-known-by-its-title"),
    pytest.param("пунктом 4 статьи 13 Федерального закона Об альтернативной гражданской службе",
                 ("article", "ru/fz-113", "13"), id="a-federal-law-title-without-quotes"),
    pytest.param("Постановление Президиума ВАС РФ от 17.07.2012 N 1944/12 (нет оговорки)",
                 ("decision", "ВАС РФ", "1944/12"), id="a-resolution-of-the-higher-arbitration-courts-presidium"),
    pytest.param("ВАС РФ в постановлении Пленума от 23.12.2010 № 63 указал иное.",
                 ("decision", "ВАС РФ Пленум", "63"), id="the-court-before-a-plenum-resolution-still-names-the-plenum"),
    pytest.param("ответственность за которые предусмотрена ст. 264. 1 УК РФ", ("article", "ru/uk", "264.1"),
                 id="a-space-after-the-dot-of-an-inserted-article"),
    pytest.param("в статьи 219 и 220 части второй Налогового кодекса Российской Федерации",
                 ("article", "ru/nk", "220"), id="an-article-followed-by-the-part-of-its-code"),
    pytest.param("Однако ГК, другими законами или договором может быть предусмотрено иное. См. ст. 430 ГК.",
                 ("act", "ru/gk", None), id="a-bare-code-abbreviation-the-text-writes-beside-an-article"),
    pytest.param("potrivit art. 5 din anexa la Hotărârea Guvernului nr. 1/2016, se aplică",
                 ("article", "ro/hg-1-2016", "5"), id="an-article-of-an-acts-annex"),
    pytest.param("Art. 34 din OUG 66/2011; Art. VII lit. a din Anexa I Ordinul 1120/2013",
                 ("article", "ro/ordin-1120-2013", "VII"), id="an-article-of-a-numbered-annex-without-la"),
    pytest.param("(Excepția privind art. 434 alin. (2) lit. f))\n\nPotrivit art. 434 alin. (2) lit. f) C.pr.pen., nu pot fi "
                 "atacate soluțiile. Altfel s-ar încălca art. 21 din Constituția României.", ("article", "ro/cpp", "434"),
                 id="an-article-named-bare-in-a-heading-takes-the-act-the-text-cites-it-with"),
    pytest.param("în temeiul art. 146 lit. d) din Constituție, al art. 1 alin. (2), al art. 11 alin. (1) lit. A.d) și al "
                 "art. 29 din Legea nr. 47/1992, decide:", ("article", "ro/lege-47-1992", "11"),
                 id="a-lettered-sections-letter-in-the-constitutional-courts-formula"),
    pytest.param("Sesizarea a fost formulată în temeiul art. 146 lit. a) din Constituţie şi al art. 11 alin. (1) lit. A.a) "
                 "raportat la art. 15 alin. (2) din Legea nr. 47/1992", ("article", "ro/lege-47-1992", "11"),
                 id="an-article-read-together-with-another-shares-its-act"),
    pytest.param("(C.A. Timişoara, s. civ., dec. nr. 1427/2002, în B.J.C.P.J. 2002, p. 160-163)",
                 ("decision", "Curtea de Apel Timișoara", "1427"), id="a-court-of-appeal-as-a-bulletin-abbreviates-it"),
    pytest.param("(C.A. Bucureşti, s. a III-a civ., dec. nr. 213/1999, în C.P.J. civ. 1999)",
                 ("decision", "Curtea de Apel București", "213"), id="a-court-of-appeal-with-an-ordinal-section"),
    pytest.param("Curtea de Apel Bacau - Sectia Comerciala, de Contencios Administrativ si Fiscal\nDecizia civila nr. 37 "
                 "din 19 aprilie 2016\nPrin cererea de chemare in judecata reclamantul a solicitat anularea notei.",
                 ("decision", "Curtea de Apel Bacău", "37"), id="a-court-of-appeal-heading-over-its-decision"),
]


@pytest.mark.parametrize(("text", "expected"), CITED)
def test_the_shape_is_read_as_a_citation_with_its_act(text: str, expected: tuple[str, str, str | None]) -> None:
    assert expected in readings(text)


# (text, what a reader must not see cited: kind, article number or act key, act of that article)
NOT_CITED = [
    pytest.param('Распоряжение Правительства РФ от 31.05.2012 N 870-р (ред. от 15.12.2016) "О внесении изменений в '
                 'распоряжение Правительства Российской Федерации от 19 июня 2007 г. N 791-р"', ("act", "ru/rp-791"),
                 id="an-act-inside-the-title-of-the-act-amending-it"),
    pytest.param("предусмотрена ст. 264.1 УК РФ «Нарушение правил дорожного движения лицом, подвергнутым "
                 "административному наказанию»", ("act", "ru/pdd"), id="an-act-inside-an-articles-title"),
    pytest.param("Федеральным законом от 7.07.03 г. N 110-ФЗ \"О внесении изменений в статьи 219 и 220 части второй "
                 "Налогового кодекса Российской Федерации\"", ("act", "ru/nk"),
                 id="a-code-inside-the-title-of-a-law-dated-with-a-two-digit-year"),
    pytest.param("признан виновным в совершении правонарушения, предусмотренного ч. 1 ст. 12.8. КоАП РФ и подвергнут",
                 ("act", "ru/koap"), id="a-codes-initials-after-an-article-number-closed-by-a-stop-are-the-articles-act"),
    pytest.param("УК обязана провести перерасчет платы.", ("act", "ru/uk"),
                 id="a-bare-abbreviation-no-article-confirms"),
    pytest.param("Potrivit art. 5 din anexa la contract, plata se face lunar.", ("article", "5"),
                 id="an-article-of-a-contracts-annex"),
]


@pytest.mark.parametrize(("text", "forbidden"), NOT_CITED)
def test_the_shape_is_not_cited_on_its_own(text: str, forbidden: tuple[str, str]) -> None:
    assert forbidden not in cited_things(text)


# (text, article, the act it must not take): an article whose act the words around it do not give
NOT_THAT_ACT = [
    pytest.param("3. La art.1, pentru o informare completă, este necesară inserarea datelor de publicare a Legii "
                 "nr.227/2015 privind Codul fiscal.", "1", "ro/cfiscal",
                 id="a-numbered-opinion-observation-on-its-drafts-article"),
]


@pytest.mark.parametrize(("text", "article", "act"), NOT_THAT_ACT)
def test_the_article_does_not_take_that_act(text: str, article: str, act: str | None) -> None:
    acts = {c.act for c in extract(text) if c.kind == "article" and c.article == article}
    assert acts and act not in acts


def test_an_article_named_bare_first_stays_unknown_when_the_text_cites_its_number_with_two_acts() -> None:
    text = ("Despre art. 5, pe scurt\n\nArt. 5 din Legea nr. 10/1995 și art. 5 din Legea nr. 50/1991 se aplică împreună. "
            "Se aplică și art. 7 din Legea nr. 50/1991.")
    first = [c for c in extract(text) if c.kind == "article" and c.start < 15]
    assert first and first[0].act is None


def test_a_numbered_amending_point_keeps_the_act_it_amends() -> None:
    text = ("Legea nr. 227/2015 privind Codul fiscal se modifică după cum urmează:\n"
            "1. La art.1, alineatul (2) se modifică și va avea următorul cuprins:")
    assert {c.act for c in extract(text) if c.kind == "article" and c.article == "1"} == {"ro/cfiscal"}


def test_a_resolution_named_inside_another_resolutions_nested_title_is_not_cited_on_its_own() -> None:
    text = ("Постановление Пленума Верховного Суда РФ от 17 января 1997 г. №2 «О внесении изменений и дополнений в "
            "постановление Пленума Верховного Суда Российской Федерации от 29 сентября 1994 г. №7 «О практике "
            "рассмотрения судами дел о защите прав потребителей» (с изменениями, внесенными постановлениями Пленума от "
            "25 апреля 1995 г. №6 и от 25 октября 1996 г. №10)» // Российская газета от 5 февраля 1997 г.")
    assert [(c.court, c.number) for c in extract(text) if c.kind == "decision"] == [("ВС РФ Пленум", "2")]

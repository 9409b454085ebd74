"""Shapes the third round's unseen text showed (court headings, orders and amending acts as the gazette prints them,
a PDF layer without diacritics), each as a reader would check it: what is cited, with which act, and what is not."""

from __future__ import annotations

import pytest

from tests.citations.shapes import cited_things, readings

# (text, a citation that must be read: kind, act, article)
CITED = [
    pytest.param("ОТКАЗЕ В ПРИНЯТИИ ЖАЛОБЫ НА НАРУШЕНИЕ ЕГО ПРАВ ЧАСТЬЮ ПЕРВОЙ СТАТЬИ 128.1\nУГОЛОВНОГО КОДЕКСА "
                 "РОССИЙСКОЙ ФЕДЕРАЦИИ", ("article", "ru/uk", "128.1"), id="an-inflected-article-word-in-capitals"),
    pytest.param("оспаривает конституционность статьи 318 \"Возбуждение уголовного дела частного обвинения\" УПК "
                 "Российской Федерации", ("article", "ru/upk", "318"), id="an-article-title-in-quotes-before-the-act"),
    pytest.param("Постановление Пленума ВС РФ от 28.06.2012 (далее - Постановление N 17) касается многих вопросов.",
                 ("decision", "ВС РФ Пленум", "17"), id="a-resolution-numbered-by-its-defined-short-name"),
    pytest.param("Стратегия утверждена Распоряжением Правительства РФ от 28 августа 2017 г. № 1837-р.",
                 ("act", "ru/rp-1837", None), id="a-government-order"),
    pytest.param("в нарушение требований ст. 141, 142 ГПК РСФСР судья не определил доказательства",
                 ("article", "ru/gpk-rsfsr", "141"), id="an-rsfsr-code"),
    pytest.param("адоптată în temeiul art. 1 pct. I.5 din Legea nr. 182/2013 privind abilitarea Guvernului",
                 ("article", "ro/lege-182-2013", "1"), id="a-roman-point-with-a-number"),
    pytest.param("Ordinul Nr.727 din 13.03.2019\npentru aprobarea Procedurii privind emiterea unor acte",
                 ("act", "ro/ordin-727-2019", None), id="an-order-dated-in-figures"),
    pytest.param("avnd n vedere prevederile art. 11 din Hotrrea Guvernului nr. 1.174/2014privind instituirea",
                 ("article", "ro/hg-1174-2014", "11"), id="a-pdf-layer-without-diacritics"),
    pytest.param("n temeiul art. 108 din Constituia Romniei, republicat,", ("article", "ro/constitutie", "108"),
                 id="the-constitution-without-diacritics"),
    pytest.param("a disparut inainte de intrarea in vigoare a legii de revizuire a Constitutiei, prin OUG 108/2003 fiind",
                 ("act", "ro/oug-108-2003", None), id="an-ordinance-after-the-constitution-named-in-passing"),
    pytest.param("în baza H.C.M. nr. 1.080/1961 privind unele măsuri", ("act", "ro/hcm-1080-1961", None),
                 id="a-decision-of-the-council-of-ministers"),
    pytest.param("a dispozițiilor art. 4 alin. (1) teza a doua şi art. 5 alin. (1) lit. a) teza întâi din Legea nr. "
                 "221/2009 privind condamnările", ("article", "ro/lege-221-2009", "4"), id="an-ordinal-sentence-of-a-paragraph"),
    pytest.param("Potrivit art. 689 C. civ. 1864 (art. 1108 NCC, n.n.), acceptarea este tacită",
                 ("article", "ro/cciv-1864", "689"), id="the-civil-code-of-1864-abbreviated"),
]


@pytest.mark.parametrize(("text", "expected"), CITED)
def test_the_shape_is_read_as_a_citation_with_its_act(text: str, expected: tuple[str, str, str | None]) -> None:
    assert expected in readings(text)


# (text, what a reader must not see cited: kind, article or act key)
NOT_CITED = [
    pytest.param("Guvernul României adoptă prezenta ordonanţă. ART. I Legea nr. 207/2015 privind Codul de procedură "
                 "fiscală se modifică după cum urmează:", ("article", "I"), id="an-amending-articles-capital-heading"),
    pytest.param("Noua OUG are două articole:\nArt. 1. – La articolul 4 din Legea nr. 227/2015 privind Codul fiscal, "
                 "alineatul (4) se modifică.", ("article", "1"), id="an-article-heading-with-a-dash"),
    pytest.param("preşedintele Agenţiei emite următorul ordin: Articolul 1\n(1) Se aprobă Procedura prevăzută în anexa "
                 "nr. 1.", ("article", "1"), id="a-heading-a-lost-line-break-ran-on"),
    pytest.param("- după articolul 14 se introduce un nou articol, cu următorul cuprins:\n  \"Art. 14^1. - Ori de câte ori "
                 "prin legi se face trimitere la operatorii economici.\"", ("article", "14^1"),
                 id="the-heading-of-a-quoted-new-article"),
    pytest.param("Ordinul Nr.727 din 13.03.2019\npentru modificarea Procedurii privind stabilirea obligaţiilor fiscale "
                 "accesorii aprobată prin Ordinul preşedintelui Agenţiei nr. 3.834/2015", ("act", "ro/ordin-3834-2015"),
                 id="an-act-inside-an-orders-title"),
    pytest.param("В соответствии со ст. 6 Вводного закона от 29 декабря 2004 г. № 147-ФЗ применяется прежний порядок.",
                 ("act", "ru/fz-147"), id="an-act-a-few-words-after-its-article-is-not-cited-again"),
]


@pytest.mark.parametrize(("text", "forbidden"), NOT_CITED)
def test_the_shape_is_not_cited_on_its_own(text: str, forbidden: tuple[str, str]) -> None:
    assert forbidden not in cited_things(text)

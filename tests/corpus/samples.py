"""Small documents authored for the tests (never copied from the shared corpus)."""

from __future__ import annotations

PORTAL_PAGE = """<!DOCTYPE html>
<html><head>{meta}<title>Образец</title>
<style>.W9{{vertical-align:top;}}</style></head>
<body>
<p class="T">Образцовый кодекс Российской Федерации</p>
<p class="H">Глава 1. Общие положения</p>
<p class="H">Статья 1. Предмет образца</p>
<p>1.&nbsp;Настоящий образец описывает проверку кодировок.</p>
<p>2.&nbsp;Второй пункт нужен для счёта частей.</p>
<p class="H">Статья 2<span class="W9">1</span>. Дополнительная статья</p>
<p>Текст дополнительной статьи о съёмной жилплощади.</p>
<p class="H">Статья 3. </p>
<p class="I"><span class="mark">(Статья утратила силу - Федеральный закон от 01.01.2020 № 1-ФЗ)</span></p>
</body></html>
"""

META_UTF8 = '<meta http-equiv="Content-Type" content="text/html; charset=utf-8">'
META_1251 = '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'

LAW_TEXT = """ФЕДЕРАЛЬНЫЙ ЗАКОН
О ПРОВЕРКЕ ОБРАЗЦОВ

Статья 1. Сфера действия
1. Настоящий закон применяется к образцам, созданным для испытаний.
2. Образец считается проверенным после чтения всех его частей.

Статья 2. Заключительные положения
Настоящий закон вступает в силу со дня его прочтения.
"""

AKN_FINAL = """<?xml version="1.0" encoding="UTF-8"?>
<akomaNtoso xmlns="http://docs.oasis-open.org/legaldocml/ns/akn/3.0">
  <act name="sample">
    <meta><identification source="#t"><FRBRWork>
      <FRBRthis value="/akn/ro/act/lege/2020/7/!main"/><FRBRcountry value="ro"/><FRBRnumber value="7"/>
      <FRBRdate date="2020-01-15" name="Generation"/></FRBRWork></identification></meta>
    <preface><p><docTitle>Lege de probă</docTitle></p></preface>
    <body>
      <chapter eId="chp_1"><num>CAPITOLUL I</num><heading>Dispoziții generale</heading>
        <article eId="art_1"><num>Art. 1</num><heading>Obiect</heading>
          <paragraph eId="art_1__para_1"><num>(1)</num><content><p>Prima regulă de probă.</p></content></paragraph>
          <paragraph eId="art_1__para_2"><num>(2)</num>
            <intro><p>A doua regulă cuprinde:</p></intro>
            <point eId="art_1__para_2__point_a"><num>a)</num><content><p>un punct de probă;</p></content></point>
          </paragraph>
        </article>
        <article eId="art_2"><num>Art. 2^1</num><content><p>Un articol cu indice.</p></content></article>
      </chapter>
    </body>
  </act>
</akomaNtoso>
"""

LEGISLATIE_RECORD = {
    "Titlu": " LEGE nr. 7 din 15 ianuarie 2020  privind probele ",
    "Text": (" LEGE nr. 7 din 15 ianuarie 2020  privind probele     EMITENT     PARLAMENTUL ROMÂNIEI   \n"
             "  + \n  Articolul 1      Prima regulă de probă.   \n  + \n  Articolul 2      (1) Alineatul întâi.   "
             "(2) Alineatul al doilea.  "),
    "Emitent": "Parlamentul", "Numar": "7", "TipAct": "LEGE", "DataVigoare": "2020-01-20",
    "Publicatie": "Monitorul Oficial", "LinkHtml": "http://legislatie.just.ro/Public/DetaliiDocument/900001",
}

RO_TITLES_BELOW = """# Codul de probă

## TITLUL I — Dispoziții generale

###### Articolul 1
Obiectul codului
Prezentul cod reglementează probele.

###### Articolul 2
Definiții
(1) Proba este un exemplu.
(2) Exemplul este o probă.
"""

PORTAL_LAW = """<html><head><meta charset="utf-8"></head><body>
<p class="T">РОССИЙСКАЯ ФЕДЕРАЦИЯ</p>
<p class="T">ФЕДЕРАЛЬНЫЙ ЗАКОН</p>
<p class="T">Об обязательном страховании гражданской ответственности владельцев транспортных средств</p>
<p class="C">(В редакции федеральных законов от 23.06.2003 № 77-ФЗ)</p>
<p class="H">Глава I. Общие положения</p>
<p class="H">Статья 1. Основные понятия</p>
<p>Для целей настоящего Федерального закона используются следующие основные понятия:</p>
<p class="I">Президент Российской Федерации В.Путин</p>
<p>Москва, Кремль</p>
<p>25 апреля 2002 года</p>
<p>№ 40-ФЗ</p>
</body></html>
"""

"""Documents of the same sources as the shared corpus, but not those files: the readers must go by structure.

Every file under ``probe/`` was written for these tests from how such documents look (portal HTML of other codes
in UTF-8 and windows-1251, a Plenum resolution as text and DOCX, a federal law as DOCX, a Government resolution
with the traffic rules it approves, Romanian codes in
Markdown with inline and next-line titles, legislatie.just.ro records, Akoma Ntoso acts in both namespaces and a
judgment). Nothing here is copied from ../shared/corpus.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pyarrow as pa
import pytest

from citations import SetLookup, extract, resolve
from corpus.ingest import parse_path
from corpus.model import Document, Unit

PROBE = Path(__file__).parent / "probe"


@cache
def _documents() -> dict[str, Document]:
    docs: dict[str, Document] = {}
    for d in parse_path(PROBE, "probe"):
        assert isinstance(d, Document), d
        name = Path(d.file).name
        docs[name if name not in docs else f"{name}#2"] = d  # a decree, then the rules it approves
    return docs


def _units(name: str) -> dict[str, Unit]:
    return {u.path: u for u in _documents()[name].units}


# (file#record, doc_id, act, kind, title, number, date)
DOCUMENTS = [
    ("uk_rf.html", "ru/uk", "ru/uk", "code", "УГОЛОВНЫЙ КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ", None, None),
    ("koap_rf.html", "ru/koap", "ru/koap", "code", "КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ ОБ АДМИНИСТРАТИВНЫХ ПРАВОНАРУШЕНИЯХ",
     None, None),
    ("nk_rf_part1.cp1251.html", "ru/nk/part-1", "ru/nk", "code", "НАЛОГОВЫЙ КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ. Часть 1", None,
     None),
    ("zhk_rf.cp1251.html", "ru/zhk", "ru/zhk", "code", "ЖИЛИЩНЫЙ КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ", None, None),
    ("fz_152.docx", "ru/fz-152", "ru/fz-152", "law", "О персональных данных", "152-ФЗ", "2006-07-27"),
    ("plenum_20_2019.txt", "ru/vs-plenum/2019-06-25/20", None, "resolution",
     "О НЕКОТОРЫХ ВОПРОСАХ, ВОЗНИКАЮЩИХ В СУДЕБНОЙ ПРАКТИКЕ ПРИ РАССМОТРЕНИИ ДЕЛ ОБ АДМИНИСТРАТИВНЫХ "
     "ПРАВОНАРУШЕНИЯХ, ПРЕДУСМОТРЕННЫХ ГЛАВОЙ 12 КОДЕКСА РОССИЙСКОЙ ФЕДЕРАЦИИ ОБ АДМИНИСТРАТИВНЫХ ПРАВОНАРУШЕНИЯХ",
     "20", "2019-06-25"),
    ("plenum_7_2016.docx", "ru/vs-plenum/2016-03-24/7", None, "resolution",
     "О ПРИМЕНЕНИИ СУДАМИ НЕКОТОРЫХ ПОЛОЖЕНИЙ ГРАЖДАНСКОГО КОДЕКСА РОССИЙСКОЙ ФЕДЕРАЦИИ ОБ ОТВЕТСТВЕННОСТИ ЗА "
     "НАРУШЕНИЕ ОБЯЗАТЕЛЬСТВ", "7", "2016-03-24"),
    ("codul_muncii.md", "ro/cmuncii", "ro/cmuncii", "code", "CODUL MUNCII", "53/2003", "2024-03-15"),
    ("codul_civil_republicat.md", "ro/cciv", "ro/cciv", "code", "CODUL CIVIL", "287/2009", "2024-01-01"),
    ("legislatie_records.jsonl#line 1", "ro/just/999001", "ro/lege-190-2018", "law",
     "LEGE nr. 190 din 18 iulie 2018 privind măsuri de punere în aplicare a Regulamentului (UE) 2016/679 al "
     "Parlamentului European și al Consiliului", "190", "2018-07-18"),
    ("legislatie_records.jsonl#line 2", "ro/just/999002", "ro/oug-21-2015", "law",
     "ORDONANȚĂ DE URGENȚĂ nr. 21 din 3 iunie 2015 privind măsuri temporare", "21", "2015-06-03"),
    ("pdd_rf.txt", "ru/government/1993-10-23/1090", None, "resolution", "О ПРАВИЛАХ ДОРОЖНОГО ДВИЖЕНИЯ", "1090",
     "1993-10-23"),
    ("pdd_rf.txt#2", "ru/pdd", "ru/pdd", "regulation", "ПРАВИЛА ДОРОЖНОГО ДВИЖЕНИЯ РОССИЙСКОЙ ФЕДЕРАЦИИ", "1090",
     "1993-10-23"),
    ("akn_act_final.xml", "akn:/akn/za/act/2019/4/!main", None, "law", "Probe Data Protection Act, 2019", "4",
     "2019-05-22"),
    ("akn_act_wd17.xml", "akn:/ro/act/lege/2020/55/main", "ro/lege-55-2020", "law",
     "Legea nr. 55/2020 privind unele măsuri pentru prevenirea și combaterea efectelor pandemiei", "55", "2020-05-15"),
    ("akn_judgment.xml", "akn:/akn/za/judgment/zacc/2021/12/!main", None, "decision",
     "Probe Holdings v Minister of Finance", "12", "2021-06-03"),
]


@pytest.mark.parametrize(("name", "doc_id", "act", "kind", "title", "number", "date"), DOCUMENTS)
def test_a_probe_document_is_identified_by_its_own_header(name: str, doc_id: str, act: str | None, kind: str,
                                                            title: str, number: str | None, date: str | None) -> None:
    d = _documents()[name]
    assert (d.doc_id, d.act, d.kind, d.title, d.number, d.date) == (doc_id, act, kind, title, number, date)


# the articles (points of a resolution or judgment) in order, "(R)" marking those kept as repealed
ARTICLES = [
    ("uk_rf.html", "1 105 158 158.1 159.4(R) 160"),
    ("koap_rf.html", "2.1 12.8 12.13 12.16(R) 14.1.1 14.1.1.1"),
    ("nk_rf_part1.cp1251.html", "1 105.1 105.3"),
    ("zhk_rf.cp1251.html", "153 155 156.1 157"),
    ("fz_152.docx", "1 3 5 5.1 10.1 13(R) 25"),
    ("plenum_20_2019.txt", "1 2 2.1 3 4(R) 5"),
    ("plenum_7_2016.docx", "1 2 3(R) 4 4.1"),
    # "Articolul 101" between 10 and 16 is art. 10^1, its index printed as a plain digit
    ("codul_muncii.md", "1 2 2^1(R) 5 10 10^1 16 31"),
    ("codul_civil_republicat.md", "1166 1167 1272 1272^1(R) 1273"),
    ("legislatie_records.jsonl#line 1", "1 2 3^1 4(R) 5"),
    ("legislatie_records.jsonl#line 2", "1 2"),
    ("akn_act_final.xml", "1 2 3 4(R)"),
    ("akn_act_wd17.xml", "1 2 2^1 3(R)"),
    ("akn_judgment.xml", "1 2 3 4 5"),
]


@pytest.mark.parametrize(("name", "expected"), ARTICLES)
def test_every_article_of_a_probe_document_is_found_once(name: str, expected: str) -> None:
    found = [u.path + ("(R)" if u.status == "repealed" else "") for u in _documents()[name].units
             if u.path == u.article]
    assert " ".join(found) == expected


# (file, unit path, kind, beginning of its text, end of its text)
TEXTS = [
    ("uk_rf.html", "105/2/в", "letter", "в) малолетнего", "в беспомощном состоянии, -"),
    # a disposition ending in a dash and its sanction are one part, as the courts count parts
    ("uk_rf.html", "158.1/1", "part", "Мелкое хищение чужого имущества",
     "наказывается штрафом в размере до сорока тысяч рублей."),
    ("koap_rf.html", "12.13/1", "part", "Выезд на перекресток", "в размере одной тысячи рублей."),
    # the note after the parts is no part: part 2 ends with its own sanction
    ("uk_rf.html", "158/2", "part", "2. Кража, совершенная группой лиц", "до двухсот тысяч рублей."),
    ("uk_rf.html", "158/note", "note", "Примечания. 1. Под хищением", "менее пяти тысяч рублей."),
    ("koap_rf.html", "12.8/2", "part", "2. Передача управления", "тридцати тысяч рублей."),
    ("koap_rf.html", "12.8/note", "note", "Примечание. Употребление веществ", "запрещается."),
    ("uk_rf.html", "159.4", "article", "(Статья утратила силу", "№ 325-ФЗ)"),
    ("nk_rf_part1.cp1251.html", "105.1/2/11", "point", "11) физическое лицо, его супруг", "родители и дети."),
    ("nk_rf_part1.cp1251.html", "105.3/1.1", "part", "1.1. Положения настоящего раздела", "иностранных организаций."),
    ("zhk_rf.cp1251.html", "156.1/1", "part", "Размер фонда капитального ремонта", "уплаченных взносов."),
    # an editorial note of the DOCX export ("(статья 5.1 введена ...)") is neither a part nor text of the law
    ("fz_152.docx", "5.1", "article", "Оператор обязан уведомить", "трансграничную передачу."),
    ("fz_152.docx", "13", "article", "Утратила силу.", "N 1-ФЗ."),
    ("fz_152.docx", "1/2/3", "point", "3) утратил силу.", "N 261-ФЗ."),
    # a heading over a group of points belongs to none of them, and the note that inserted a point is no text of it
    ("plenum_20_2019.txt", "2.1", "point", "2.1. Действие главы 12", "лиц, обучающих вождению."),
    ("plenum_20_2019.txt", "5", "point", "5. При рассмотрении дел", "медицинского освидетельствования."),
    # a list quoted inside a point numbers its items "1.", "2." too: they stay in the point
    ("plenum_7_2016.docx", "1", "point", "1. Согласно пункту 1 статьи 393 ГК РФ",
     "2. причинную связь между нарушением и убытками."),
    ("plenum_7_2016.docx", "2", "point", "2. Если иное не установлено законом", "нарушенного права."),
    ("codul_muncii.md", "1/1", "paragraph", "(1) Codul muncii reglementează", "jurisdicția muncii."),
    ("codul_muncii.md", "5/2^1", "paragraph", "(2^1) Constituie discriminare prin asociere", "alin. (2)."),
    # "(11" with ")" on the next line: the PDF's superscript alineat (1^1)
    ("codul_muncii.md", "16/1^1", "paragraph", "(1^1) Părțile pot semna", "electronică calificată."),
    ("codul_civil_republicat.md", "1166", "article", "Contractul este acordul de voințe", "un raport juridic."),
    ("codul_civil_republicat.md", "1273/1", "paragraph", "(1) Drepturile reale se constituie",
     "nu au fost predate."),
    ("legislatie_records.jsonl#line 1", "1", "article", "(1) Prezenta lege stabilește",
     "operatori stabiliți în România."),
    # the closing formula and the signatures are not part of the last article
    ("legislatie_records.jsonl#line 1", "5", "article", "Încălcarea dispozițiilor", "civilă sau contravențională."),
    ("akn_act_final.xml", "2/1/a", "paragraph", "give effect to the constitutional", "right to privacy;"),
    ("akn_act_wd17.xml", "1/2/b", "point", "limitarea răspândirii bolii.", "limitarea răspândirii bolii."),
    ("akn_judgment.xml", "4", "point", "The issue is whether", "the regulation is valid."),
]


@pytest.mark.parametrize(("name", "path", "kind", "start", "end"), TEXTS)
def test_a_unit_of_a_probe_document_holds_exactly_its_own_text(name: str, path: str, kind: str, start: str,
                                                                end: str) -> None:
    unit = _units(name)[path]
    assert (unit.kind, unit.text[: len(start)], unit.text[-len(end) :]) == (kind, start, end)


# units a structure-blind reader would invent: a note's "2." as a part, a sanction as a part of its own,
# an editorial note as a part, an item of a quoted list as a point
ABSENT = [
    ("uk_rf.html", "158.1/2"),
    ("koap_rf.html", "12.13/2"),
    ("koap_rf.html", "14.1.1.1/2"),
    ("fz_152.docx", "5.1/2"),
    ("plenum_7_2016.docx", "60"),
    ("codul_muncii.md", "101"),
    ("codul_muncii.md", "16/11"),
]


@pytest.mark.parametrize(("name", "path"), ABSENT)
def test_a_probe_document_has_no_unit_its_structure_does_not_hold(name: str, path: str) -> None:
    assert path not in _units(name)


# (file, unit path, the context it is shown under)
CONTEXTS = [
    ("uk_rf.html", "105", "ОСОБЕННАЯ ЧАСТЬ / РАЗДЕЛ VII. ПРЕСТУПЛЕНИЯ ПРОТИВ ЛИЧНОСТИ / "
     "ГЛАВА 16. ПРЕСТУПЛЕНИЯ ПРОТИВ ЖИЗНИ И ЗДОРОВЬЯ"),
    ("nk_rf_part1.cp1251.html", "105.1", "ЧАСТЬ ПЕРВАЯ / РАЗДЕЛ I. ОБЩИЕ ПОЛОЖЕНИЯ / "
     "Глава 14.1. Общие положения о взаимозависимых лицах"),
    ("fz_152.docx", "5", "Глава 2. ПРИНЦИПЫ И УСЛОВИЯ ОБРАБОТКИ ПЕРСОНАЛЬНЫХ ДАННЫХ"),
    ("plenum_20_2019.txt", "1", "Общие положения"),
    ("plenum_20_2019.txt", "3", "Ответственность за управление транспортным средством в состоянии опьянения"),
    ("plenum_7_2016.docx", "4.1", "Неустойка"),
    ("codul_muncii.md", "10", "TITLUL II Contractul individual de muncă"),
    ("legislatie_records.jsonl#line 1", "2", "CAPITOLUL I Dispoziții generale"),
    ("akn_act_final.xml", "2", "1 Introductory provisions / 1 Definitions"),
    ("akn_act_wd17.xml", "2^1", "CAPITOLUL II Măsuri"),
]


@pytest.mark.parametrize(("name", "path", "context"), CONTEXTS)
def test_a_probe_unit_keeps_its_chapters_and_sections_as_context(name: str, path: str, context: str) -> None:
    assert _units(name)[path].context == context


HEADINGS = [
    ("codul_muncii.md", "2^1", "Abrogat"),
    ("codul_civil_republicat.md", "1272", "Conținutul contractului"),
    ("legislatie_records.jsonl#line 1", "3^1", "Prelucrarea datelor genetice"),
    ("legislatie_records.jsonl#line 2", "1", None),
    ("uk_rf.html", "158.1", "Мелкое хищение, совершенное лицом, подвергнутым административному наказанию"),
]


@pytest.mark.parametrize(("name", "path", "heading"), HEADINGS)
def test_a_probe_article_title_is_its_heading_not_its_text(name: str, path: str, heading: str | None) -> None:
    assert _units(name)[path].heading == heading


@pytest.mark.parametrize(("name", "encoding"), [
    ("nk_rf_part1.cp1251.html", "windows-1251 (meta)"),
    ("zhk_rf.cp1251.html", "windows-1251 (heuristic)"),
    ("uk_rf.html", "utf-8 (meta)"),
])
def test_a_probe_page_says_how_its_bytes_were_decoded(name: str, encoding: str) -> None:
    assert _documents()[name].encoding == encoding


@cache
def _lookup() -> SetLookup:
    docs = list(_documents().values())
    documents = pa.table({
        "doc_id": [d.doc_id for d in docs], "jurisdiction": [d.jurisdiction for d in docs],
        "act": [d.act for d in docs], "kind": [d.kind for d in docs], "court": [d.court for d in docs],
        "number": [d.number for d in docs], "date": [d.date for d in docs],
    })
    units = [u for d in docs for u in d.units]
    return SetLookup.from_tables(documents, pa.table({
        "doc_id": [u.doc_id for u in units], "act": [u.act for u in units], "article": [u.article for u in units],
        "path": [u.path for u in units], "kind": [u.kind for u in units], "text": [u.text for u in units],
    }))


# what `etalon corpus show CITATION` finds once the probe folder is ingested: (citation, doc_id, unit path)
LOOKUPS = [
    ("ст. 12.8 КоАП РФ", "ru/koap", "12.8"),
    ("ч. 2 ст. 12.8 КоАП РФ", "ru/koap", "12.8/2"),
    ("п. 2 ст. 105.1 НК РФ", "ru/nk/part-1", "105.1/2"),
    ("ст. 159.4 УК РФ", "ru/uk", "159.4"),
    ("п. «в» ч. 2 ст. 105 УК РФ", "ru/uk", "105/2/в"),  # a letter of a plain часть is cited as its пункт
    ("ч. 1 ст. 14.1.1-1 КоАП РФ", "ru/koap", "14.1.1.1/1"),  # written with a dash, numbered with a dot
    ("ч. 14 ст. 155 ЖК РФ", "ru/zhk", "155/14"),
    ("ст. 5.1 Федерального закона от 27.07.2006 № 152-ФЗ", "ru/fz-152", "5.1"),
    ("п. 4.1 постановления Пленума Верховного Суда РФ от 24.03.2016 № 7", "ru/vs-plenum/2016-03-24/7", "4.1"),
    ("п. 2.1.1 ПДД РФ", "ru/pdd", "2.1.1"),  # rules approved by the Government: their points stand for articles
    ("пункт 2.2 Правил дорожного движения", "ru/pdd", "2.2"),
    ("art. 1.272 alin. (2) C.civ.", "ro/cciv", "1272/2"),
    ("art. 2^1 din Codul muncii", "ro/cmuncii", "2^1"),
    ("art. 10^1 din Codul muncii", "ro/cmuncii", "10^1"),
    ("art. 16 alin. (1^1) din Codul muncii", "ro/cmuncii", "16/1^1"),
    ("art. 3^1 din Legea nr. 190/2018", "ro/just/999001", "3^1"),
]


@pytest.mark.parametrize(("citation", "doc_id", "path"), LOOKUPS)
def test_a_citation_of_a_probe_document_resolves_to_its_unit(citation: str, doc_id: str, path: str) -> None:
    found = extract(citation, "auto")
    resolution = resolve(found[:1], _lookup())[0]
    assert (resolution.status, resolution.doc_id, resolution.unit_path) == ("found", doc_id, path)

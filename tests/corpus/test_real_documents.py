"""Exact structure of the real official texts in ../shared/corpus.

Article counts were established independently of the parser: for portal HTML, the ``<p class="H">``
paragraphs whose text starts with "Статья" (superscripts read as dotted numbers); for text and DOCX,
paragraphs matching ``^\\s*Статья\\s+\\d``; for the Romanian Markdown, headings ``^#+ *Art\\.`` or
``^#+ *Articolul``; for Plenum resolutions, lines opening with the next number in sequence ("N.").
"""

from __future__ import annotations

import pytest
from shared_corpus import document, unit

from corpus.model import Document

ARTICLE_COUNTS = [
    ("ru/pravo-gov-ru-html/102033239.html", "ru/gk/part-1", 590),
    ("ru/pravo-gov-ru-html/102073578.html", "ru/gk/part-3", 123),
    ("ru/pravo-gov-ru-html/102038925.html", "ru/sk", 177),
    ("ru/pravo-gov-ru-html/102074279.html", "ru/tk", 529),
    ("ru/pravo-gov-ru-html/102078828.html", "ru/gpk", 498),
    ("ru/federal-laws/zpp.txt", "ru/zpp", 54),
    ("ru/federal-laws/bankrotstvo.docx", "ru/fz-127", 564),  # 181 and 182 repealed as one range
    ("ro/codes-markdown/codul_civil.md", "ro/cciv", 2664),
    ("ro/codes-markdown/codul_de_procedura_civila.md", "ro/cpc", 1135),
    ("ro/codes-markdown/constitutia_romaniei.md", "ro/constitutie", 156),
]

POINT_COUNTS = [
    ("ru/vs-plenum/Plenum bankruptcy subsidiary.txt", "53", "2017-12-21", 70),
    ("ru/vs-plenum/Plenum of Enforcement proceedings.txt", "50", "2015-11-17", 88),
    ("ru/vs-plenum/Plenum of Labour.txt", "2", "2004-03-17", 64),
    ("ru/vs-plenum/Plenum of property.txt", "22", "2017-06-27", 47),
    ("ru/vs-plenum/Plenum of the Children.txt", "16", "2017-05-16", 36),
    ("ru/vs-plenum/Plenum on Consumer (general).txt", "17", "2012-06-28", 54),
    ("ru/vs-plenum/Plenum on Part 1 of gk 1.txt", "6", "1996-07-01", 60),
    ("ru/vs-plenum/Plenum on Part 1 of gk 1.docx", "6", "1996-07-01", 60),
    ("ru/vs-plenum/Plenum on the gk 2.txt", "54", "2016-11-22", 59),
    ("ru/vs-plenum/Plenum on the work of employees working for individual employers.txt", "15", "2018-05-29", 31),
    ("ru/vs-plenum/Plenum of Heritage.docx", "9", "2012-05-29", 96),
]

# (file, unit path, kind, beginning of the text, end of the text)
TEXTS = [
    ("ru/pravo-gov-ru-html/102073578.html", "1152/1", "part",
     "1. Для приобретения наследства наследник должен его принять.", "принятие наследства не требуется."),
    ("ru/pravo-gov-ru-html/102073578.html", "1152", "article",
     "1. Для приобретения наследства", "когда такое право подлежит государственной регистрации."),
    ("ru/pravo-gov-ru-html/102074279.html", "81/1/2", "point",
     "2) сокращения численности или штата работников", "индивидуального предпринимателя;"),
    ("ru/federal-laws/bankrotstvo.docx", "61.2/1", "part",
     "1. Сделка, совершенная должником в течение одного года", None),
    ("ru/vs-plenum/Plenum of Heritage.docx", "34", "point",
     "34. Наследник, принявший наследство, независимо от времени и способа его принятия", None),
    ("ro/codes-markdown/codul_civil.md", "1272/1", "paragraph",
     "(1) Contractul valabil încheiat obligă nu numai la ceea ce este expres stipulat",
     "după natura sa."),
    ("ro/codes-markdown/codul_civil.md", "1", "article",
     "Dispozițiile prezentului cod reglementează raporturile patrimoniale", "ca subiecte de drept civil."),
    ("ro/codes-markdown/constitutia_romaniei.md", "1/1", "paragraph",
     "(1) România este stat național, suveran și independent", "unitar și indivizibil."),
]

HEADINGS = [
    ("ru/pravo-gov-ru-html/102073578.html", "1152", "Принятие наследства"),
    ("ru/pravo-gov-ru-html/102078828.html", "390.1", "Определение кассационного суда общей юрисдикции"),
    ("ru/federal-laws/bankrotstvo.docx", "61.2", "Оспаривание подозрительных сделок должника"),
    ("ro/codes-markdown/codul_civil.md", "1272", "Întinderea obligațiilor"),
    ("ro/codes-markdown/codul_civil.md", "22", "Lipsa publicității. Sancțiuni"),
    ("ro/codes-markdown/codul_de_procedura_civila.md", "471^1", "Pregătirea judecății apelului"),
]

REPEALED = [
    ("ru/pravo-gov-ru-html/102074279.html", "7"),
    ("ru/pravo-gov-ru-html/102074279.html", "81/1/12"),
    ("ru/pravo-gov-ru-html/102033239.html", "91"),
    ("ru/pravo-gov-ru-html/102078828.html", "379"),
    ("ro/codes-markdown/codul_de_procedura_civila.md", "105"),
    ("ru/vs-plenum/Plenum on Part 1 of gk 1.docx", "2"),
]


def _articles(doc: Document) -> list[str]:
    return [u.article or "" for u in doc.units if u.kind == "article"]


@pytest.mark.parametrize(("file", "doc_id", "count"), ARTICLE_COUNTS)
def test_every_article_of_a_code_or_law_is_a_unit(file: str, doc_id: str, count: int) -> None:
    doc = document(file)
    assert (doc.doc_id, len(_articles(doc))) == (doc_id, count)


@pytest.mark.parametrize(("file", "doc_id", "count"), ARTICLE_COUNTS)
def test_no_unit_path_repeats_within_a_document(file: str, doc_id: str, count: int) -> None:
    paths = [u.path for u in document(file).units]
    assert len(paths) == len(set(paths))


@pytest.mark.parametrize(("file", "number", "date", "count"), POINT_COUNTS)
def test_a_plenum_resolution_is_its_numbered_points_in_order(file: str, number: str, date: str, count: int) -> None:
    doc = document(file)
    assert (doc.kind, doc.court, doc.number, doc.date) == ("resolution", "ВС РФ Пленум", number, date)
    assert [u.path for u in doc.units] == [str(n) for n in range(1, count + 1)]


@pytest.mark.parametrize(("file", "path", "kind", "begins", "ends"), TEXTS)
def test_chosen_units_hold_the_official_text(file: str, path: str, kind: str, begins: str, ends: str | None) -> None:
    u = unit(document(file), path)
    assert u.kind == kind
    assert u.text.startswith(begins)
    if ends is not None:
        assert u.text.endswith(ends)


@pytest.mark.parametrize(("file", "article", "heading"), HEADINGS)
def test_article_headings_are_read_including_superscript_and_index_numbers(file: str, article: str,
                                                                           heading: str) -> None:
    assert unit(document(file), article).heading == heading


@pytest.mark.parametrize(("file", "path"), REPEALED)
def test_repealed_units_are_kept_and_marked(file: str, path: str) -> None:
    assert unit(document(file), path).status == "repealed"


def test_articles_in_force_are_not_marked_repealed() -> None:
    doc = document("ru/pravo-gov-ru-html/102073578.html")
    assert all(u.status == "in_force" for u in doc.units if u.kind == "article")


def test_chapters_are_context_not_articles() -> None:
    u = unit(document("ru/pravo-gov-ru-html/102073578.html"), "1152")
    assert u.context is not None and u.context.endswith("Глава 64. ПРИОБРЕТЕНИЕ НАСЛЕДСТВА")
    assert not any(a.startswith("Глава") for a in _articles(document("ru/pravo-gov-ru-html/102073578.html")))


def test_the_signature_block_is_not_part_of_the_last_article() -> None:
    last = [u for u in document("ru/pravo-gov-ru-html/102074279.html").units if u.kind == "article"][-1]
    assert (last.article, "Путин" in last.text) == ("424", False)


def test_romanian_thousands_dots_are_dropped_from_article_numbers() -> None:
    u = unit(document("ro/codes-markdown/codul_civil.md"), "1272")
    assert (u.article, u.number) == ("1272", "1.272")

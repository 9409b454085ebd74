"""An act's title is read whole however its format splits it; an act the registry does not know is reported.

Documents written for these tests in the layouts the readers meet: a consultant DOCX export (each title line a
paragraph), a plain-text export, a portal page whose title runs over two title paragraphs.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

from corpus.ingest import parse_path
from corpus.model import Document, IngestError
from corpus.sources import Source
from corpus.store import refresh_source
from corpus.tables import parse_compact
from warehouse.lake import Lake

_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
BODY = ["Статья 1. Предмет", "1. Настоящий документ написан для проверки чтения заголовков.",
        "2. Второй пункт нужен для счёта частей."]


def _docx(path: Path, paragraphs: list[str]) -> Path:
    xml = "".join(f"<w:p><w:r><w:t>{escape(p)}</w:t></w:r></w:p>" for p in paragraphs)
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("word/document.xml", f"<w:document {_NS}><w:body>{xml}</w:body></w:document>")
    return path


def _text(path: Path, paragraphs: list[str]) -> Path:
    path.write_text("\n".join(paragraphs) + "\n", encoding="utf-8")
    return path


def _html(path: Path, titles: list[str]) -> Path:
    heads = "".join(f'<p class="T">{escape(t)}</p>' for t in titles)
    path.write_text(f'<html><head><meta charset="utf-8"></head><body>{heads}<p class="H">{BODY[0]}</p>'
                    f'<p>{BODY[1]}</p><p>{BODY[2]}</p></body></html>', encoding="utf-8")
    return path


def _read(path: Path) -> tuple[list[Document], list[IngestError]]:
    """What an ingest of the file stores and reports (corpus.tables.parse_compact, as refresh_source runs it)."""
    found = list(parse_path(path, "src"))
    documents = [d for d in found if isinstance(d, Document)]
    return documents, parse_compact(path, "src")[1]


KOAP_EXPORT = ["Документ предоставлен КонсультантПлюс", "30 декабря 2001 года", "N 195-ФЗ", "РОССИЙСКАЯ ФЕДЕРАЦИЯ",
               "КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ", "ОБ АДМИНИСТРАТИВНЫХ ПРАВОНАРУШЕНИЯХ", "Принят",
               "Государственной Думой", "20 декабря 2001 года"]
GPK_EXPORT = ["14 ноября 2002 года", "N 138-ФЗ", "РОССИЙСКАЯ ФЕДЕРАЦИЯ", "ГРАЖДАНСКИЙ ПРОЦЕССУАЛЬНЫЙ",
              "КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ", "Принят", "Государственной Думой", "23 октября 2002 года"]
OSAGO_TEXT = ["25 апреля 2002 года N 40-ФЗ", "РОССИЙСКАЯ ФЕДЕРАЦИЯ", "ФЕДЕРАЛЬНЫЙ ЗАКОН",
              "ОБ ОБЯЗАТЕЛЬНОМ СТРАХОВАНИИ", "ГРАЖДАНСКОЙ ОТВЕТСТВЕННОСТИ", "ВЛАДЕЛЬЦЕВ", "ТРАНСПОРТНЫХ СРЕДСТВ",
              "Принят", "Государственной Думой", "3 апреля 2002 года"]
KOAP_WRAPPED = ["Кодекс Российской Федерации об административных", "правонарушениях", "от 30.12.2001 N 195-ФЗ"]


@pytest.mark.parametrize(("name", "write", "lines", "title", "act"), [
    ("a code over two paragraphs of a DOCX export", _docx, KOAP_EXPORT,
     "КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ ОБ АДМИНИСТРАТИВНЫХ ПРАВОНАРУШЕНИЯХ", "ru/koap"),
    ("a code whose name begins on the paragraph before", _docx, GPK_EXPORT,
     "ГРАЖДАНСКИЙ ПРОЦЕССУАЛЬНЫЙ КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ", "ru/gpk"),
    ("a law over four lines of text", _text, OSAGO_TEXT,
     "Об обязательном страховании гражданской ответственности владельцев транспортных средств", "ru/osago"),
    ("a code wrapped in a text file", _text, KOAP_WRAPPED,
     "Кодекс Российской Федерации об административных правонарушениях", "ru/koap"),
], ids=["docx-code-over-two-paragraphs", "docx-code-name-begun-before", "text-law-over-four-lines",
        "text-code-wrapped"])
def test_a_title_split_by_its_format_is_read_whole(tmp_path: Path, name: str, write: object, lines: list[str],
                                                    title: str, act: str) -> None:
    suffix = ".docx" if write is _docx else ".txt"
    [document], errors = _read(write(tmp_path / f"act{suffix}", lines + BODY))  # type: ignore[operator]
    assert (document.title, document.act, errors) == (title, act, [])


def test_a_portal_title_over_two_title_paragraphs_is_read_whole(tmp_path: Path) -> None:
    [document], errors = _read(_html(tmp_path / "koap.html", ["Кодекс Российской Федерации",
                                                              "об административных правонарушениях"]))
    assert (document.title, document.act, errors) == (
        "Кодекс Российской Федерации об административных правонарушениях", "ru/koap", [])


def test_a_code_the_registry_does_not_know_is_stored_and_reported_with_the_title_read(tmp_path: Path) -> None:
    # A code no legislature has passed, so no registry addition can make this test pass by accident (the Merchant
    # Shipping Code it once used has since joined the registry).
    path = _docx(tmp_path / "klp.docx", ["РОССИЙСКАЯ ФЕДЕРАЦИЯ", "КОДЕКС ЛУННОГО ПРАВА",
                                         "РОССИЙСКОЙ ФЕДЕРАЦИИ", *BODY])
    [document], [error] = _read(path)
    assert (document.act, document.kind, document.doc_id) == (None, "code", "ru/code/klp")
    assert (error.reason, error.file) == ("unknown_act", str(path))
    assert "'КОДЕКС ЛУННОГО ПРАВА РОССИЙСКОЙ ФЕДЕРАЦИИ'" in error.detail and "ru/code/klp" in error.detail


def test_a_law_without_a_number_the_registry_does_not_know_is_reported(tmp_path: Path) -> None:
    [document], [error] = _read(_text(tmp_path / "law.txt", ["ФЕДЕРАЛЬНЫЙ ЗАКОН", "О ПРОБНЫХ ОБРАЗЦАХ", *BODY]))
    assert (document.act, error.reason, "'О пробных образцах'" in error.detail) == (None, "unknown_act", True)


def test_a_romanian_code_the_registry_does_not_know_is_reported(tmp_path: Path) -> None:
    text = "# CODUL DE PROBĂ\n\n###### Art. 1\n\nObiectul\n\n(1) Prezentul cod este scris pentru teste.\n"
    path = tmp_path / "codul_de_proba.md"
    path.write_text(text, encoding="utf-8")
    [document], [error] = _read(path)
    assert (document.act, error.reason, "'CODUL DE PROBĂ'" in error.detail) == (None, "unknown_act", True)


def test_a_plenum_resolution_without_its_number_is_reported_as_unidentified(tmp_path: Path) -> None:
    path = _text(tmp_path / "plenum.txt", [
        "ПЛЕНУМ ВЕРХОВНОГО СУДА РОССИЙСКОЙ ФЕДЕРАЦИИ", "ПОСТАНОВЛЕНИЕ", "О ПРОБНЫХ ВОПРОСАХ",
        "1. Судам следует учитывать пробный характер настоящего текста.", "2. Второй пункт."])
    [document], [error] = _read(path)
    assert (document.kind, error.reason) == ("resolution", "unknown_act")
    assert "number" in error.detail and "'О ПРОБНЫХ ВОПРОСАХ'" in error.detail


def test_an_identified_act_gives_no_report(tmp_path: Path) -> None:
    assert _read(_docx(tmp_path / "koap.docx", KOAP_EXPORT + BODY))[1] == []


def test_an_unknown_act_is_stored_and_its_report_lands_in_ingest_errors(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    _text(tmp_path / "docs" / "law.txt", ["ФЕДЕРАЛЬНЫЙ ЗАКОН", "О ПРОБНЫХ ОБРАЗЦАХ", *BODY])
    lake = Lake(tmp_path / "lake")
    refresh_source(lake, Source("docs", path=tmp_path / "docs"), tmp_path / "staging")
    assert lake.read("corpus_documents", "docs").column("title").to_pylist() == ["О пробных образцах"]
    assert lake.read("ingest_errors", "docs").column("reason").to_pylist() == ["unknown_act"]


@pytest.mark.parametrize("head", ["# CODUL DE PROCEDURĂ\n# CIVILĂ\n", "# CODUL DE PROCEDURĂ\n\n# CIVILĂ\n",
                                  "# Codul de procedură\ncivilă\n"],
                         ids=["two-headings", "two-headings-apart", "heading-wrapped"])
def test_a_romanian_title_a_pdf_conversion_split_is_read_whole(tmp_path: Path, head: str) -> None:
    path = tmp_path / "cpc.md"
    path.write_text(head + "\n###### Art. 1\n\nObiectul\n\n(1) Prezentul cod este scris pentru teste.\n", "utf-8")
    [document], errors = _read(path)
    assert (document.title.casefold(), document.act, errors) == ("codul de procedură civilă", "ro/cpc", [])

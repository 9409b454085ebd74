"""Encodings are detected, never guessed silently; authored samples of each format read the same way."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest
from samples import (
    AKN_FINAL,
    LAW_TEXT,
    LEGISLATIE_RECORD,
    META_1251,
    META_UTF8,
    PORTAL_LAW,
    PORTAL_PAGE,
    RO_TITLES_BELOW,
)

from corpus.ingest import parse_path
from corpus.model import Document, IngestError


def _one(path: Path) -> Document | IngestError:
    results = list(parse_path(path, "test"))
    assert len(results) == 1, results
    return results[0]


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


HTML_VARIANTS = [
    ("utf-8 with meta", PORTAL_PAGE.format(meta=META_UTF8).encode("utf-8"), "utf-8 (meta)"),
    ("windows-1251 with meta", PORTAL_PAGE.format(meta=META_1251).encode("cp1251"), "windows-1251 (meta)"),
    ("windows-1251 without meta", PORTAL_PAGE.format(meta="").encode("cp1251"), "windows-1251 (heuristic)"),
    ("utf-8 with BOM", codecs.BOM_UTF8 + PORTAL_PAGE.format(meta="").encode("utf-8"), "utf-8 (BOM)"),
    ("utf-16 with BOM", codecs.BOM_UTF16_LE + PORTAL_PAGE.format(meta="").encode("utf-16-le"), "utf-16-le (BOM)"),
]


@pytest.mark.parametrize(("label", "data", "how"), HTML_VARIANTS, ids=[v[0] for v in HTML_VARIANTS])
def test_a_portal_page_reads_the_same_in_every_encoding_and_says_how(tmp_path: Path, label: str, data: bytes,
                                                                     how: str) -> None:
    doc = _one(_write(tmp_path, "page.html", data))
    assert isinstance(doc, Document), doc
    assert doc.encoding == how
    assert [(u.path, u.status) for u in doc.units if u.kind == "article"] == [
        ("1", "in_force"), ("2.1", "in_force"), ("3", "repealed")]
    assert doc.units[-2].text == "Текст дополнительной статьи о съёмной жилплощади."


@pytest.mark.parametrize(("label", "data", "how"), [
    ("windows-1251", LAW_TEXT.encode("cp1251"), "windows-1251 (heuristic)"),
    ("koi8-r", LAW_TEXT.encode("koi8_r"), "koi8-r (heuristic)"),
    ("utf-8 BOM", codecs.BOM_UTF8 + LAW_TEXT.encode("utf-8"), "utf-8 (BOM)"),
])
def test_a_plain_text_law_reads_in_single_byte_and_bom_encodings(tmp_path: Path, label: str, data: bytes,
                                                                   how: str) -> None:
    doc = _one(_write(tmp_path, "law.txt", data))
    assert isinstance(doc, Document), doc
    assert (doc.encoding, [u.path for u in doc.units]) == (how, ["1", "1/1", "1/2", "2", "2/1"])


def test_a_page_whose_bytes_contradict_its_declared_charset_is_an_error_with_a_byte_position(tmp_path: Path) -> None:
    err = _one(_write(tmp_path, "lie.html", PORTAL_PAGE.format(meta=META_UTF8).encode("cp1251")))
    assert isinstance(err, IngestError)
    assert (err.reason, err.position is not None and err.position.startswith("byte ")) == ("encoding_mismatch", True)


@pytest.mark.parametrize("misread_as", ["cp1251", "latin-1"])
def test_mojibake_text_is_rejected_as_mis_encoded(tmp_path: Path, misread_as: str) -> None:
    garbled = LAW_TEXT.encode("utf-8").decode(misread_as).encode("utf-8")
    err = _one(_write(tmp_path, "garbled.txt", garbled))
    assert isinstance(err, IngestError) and err.reason == "mis_encoded"


def test_bytes_that_fit_no_encoding_are_undetermined_not_guessed(tmp_path: Path) -> None:
    err = _one(_write(tmp_path, "noise.txt", bytes(range(128, 256)) * 40))
    assert isinstance(err, IngestError) and err.reason == "encoding_undetermined"


def test_akoma_ntoso_in_the_final_namespace_gives_articles_paragraphs_and_points(tmp_path: Path) -> None:
    doc = _one(_write(tmp_path, "act.xml", AKN_FINAL.encode()))
    assert isinstance(doc, Document), doc
    assert [(u.path, u.kind) for u in doc.units] == [
        ("1", "article"), ("1/1", "paragraph"), ("1/2", "paragraph"), ("1/2/a", "point"), ("2^1", "article")]
    assert (doc.jurisdiction, doc.number, doc.date, doc.units[0].context) == ("ro", "7", "2020-01-15",
                                                                             "CAPITOLUL I Dispoziții generale")


def test_a_single_legislatie_json_record_is_a_document_with_alineate(tmp_path: Path) -> None:
    doc = _one(_write(tmp_path, "rec.json", json.dumps(LEGISLATIE_RECORD, ensure_ascii=False).encode()))
    assert isinstance(doc, Document), doc
    assert (doc.act, [u.path for u in doc.units]) == ("ro/lege-7-2020", ["1", "2", "2/1", "2/2"])


@pytest.mark.parametrize(("content", "names"), [
    ({"preamble": ["РОССИЙСКАЯ ФЕДЕРАЦИЯ"], "sections": [{"title": "РАЗДЕЛ V", "chapters": []}]},
     ("Titlu and Text", "pre-parsed act", "portal HTML")),
    ({"name": "x"}, ("Titlu and Text", "keys name")),
    ([1, 2], ("Titlu and Text", "JSON list")),
])
def test_an_unsupported_json_names_what_was_expected_and_what_it_holds(tmp_path: Path, content: object,
                                                                        names: tuple[str, ...]) -> None:
    err = _one(_write(tmp_path, "other.json", json.dumps(content, ensure_ascii=False).encode()))
    assert isinstance(err, IngestError), err
    assert (err.reason, [n in err.detail for n in names]) == ("unsupported_format", [True] * len(names))


def test_romanian_article_titles_printed_below_the_heading_are_headings(tmp_path: Path) -> None:
    doc = _one(_write(tmp_path, "cod.md", RO_TITLES_BELOW.encode()))
    assert isinstance(doc, Document), doc
    assert [(u.path, u.heading) for u in doc.units if u.kind == "article"] == [
        ("1", "Obiectul codului"), ("2", "Definiții")]
    assert doc.units[0].text == "Prezentul cod reglementează probele."


def test_a_federal_law_from_the_portal_gets_title_number_date_and_act_key(tmp_path: Path) -> None:
    doc = _one(_write(tmp_path, "law.html", PORTAL_LAW.encode()))
    assert isinstance(doc, Document), doc
    assert (doc.kind, doc.number, doc.date, doc.act) == ("law", "40-ФЗ", "2002-04-25", "ru/osago")
    assert doc.title.startswith("Об обязательном страховании")
    assert doc.units[0].text == "Для целей настоящего Федерального закона используются следующие основные понятия:"

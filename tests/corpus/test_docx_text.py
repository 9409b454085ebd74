"""What a reader of a DOCX sees is what the ingester reads: no field codes, no deleted revisions."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from corpus.docx import docx_lines
from corpus.limits import DEFAULT_LIMITS

_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _docx(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "sample.docx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("word/document.xml", f'<w:document {_NS}><w:body>{body}</w:body></w:document>')
    return path


@pytest.mark.parametrize(("body", "lines"), [
    ("<w:p><w:r><w:t>Статья 1.</w:t></w:r></w:p><w:p><w:r><w:t>Текст</w:t></w:r></w:p>", ["Статья 1.", "Текст"]),
    ('<w:p><w:r><w:t>1.</w:t><w:tab/><w:t>Часть</w:t></w:r></w:p>', ["1. Часть"]),
    ('<w:p><w:r><w:t>до</w:t><w:br/><w:t>после</w:t></w:r></w:p>', ["до после"]),
    ('<w:p><w:r><w:instrText> HYPERLINK "x" </w:instrText></w:r><w:r><w:t>ссылка</w:t></w:r></w:p>', ["ссылка"]),
    ('<w:p><w:del><w:r><w:delText>старое </w:delText></w:r></w:del><w:r><w:t>новое</w:t></w:r></w:p>', ["новое"]),
    ('<w:p><w:pPr><w:pStyle w:val="a"/></w:pPr><w:r><w:rPr><w:b/></w:rPr><w:t>жирный</w:t></w:r></w:p>', ["жирный"]),
    ('<w:p><w:r><w:t>&#171;ООО &quot;Ромашка&quot; &amp; Ко&#x00BB; &lt;1&gt;</w:t></w:r></w:p>',
     ['«ООО "Ромашка" & Ко» <1>']),
    ('<w:p><w:r><w:t xml:space="preserve">Статья </w:t></w:r><w:r><w:t>2.</w:t></w:r></w:p>', ["Статья 2."]),
    ('<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr><w:r><w:t>отступ</w:t></w:r></w:p>',
     ["отступ"]),
    ("<w:p/><w:p><w:r><w:t/></w:r></w:p><w:p><w:r><w:t>после пустых</w:t></w:r></w:p>", ["после пустых"]),
    ("<w:tbl><w:tr><w:tc><w:p><w:r><w:t>в таблице</w:t></w:r></w:p></w:tc></w:tr></w:tbl>", ["в таблице"]),
    ("<w:p><w:r><w:t>ст. 12.15</w:t><w:noBreakHyphen/><w:t>1 КоАП</w:t><w:softHyphen/></w:r></w:p>",
     ["ст. 12.15-1 КоАП"]),
])
def test_a_docx_reads_as_its_visible_paragraphs(tmp_path: Path, body: str, lines: list[str]) -> None:
    assert [ln.text for ln in docx_lines(_docx(tmp_path, body), DEFAULT_LIMITS) if ln.text] == lines


def test_a_docx_in_the_strict_iso_namespace_reads_like_a_transitional_one(tmp_path: Path) -> None:
    path = tmp_path / "strict.docx"
    body = "<w:p><w:r><w:t>Статья 1.</w:t></w:r></w:p><w:p><w:r><w:t>Текст</w:t><w:tab/><w:t>дальше</w:t></w:r></w:p>"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("word/document.xml", '<w:document xmlns:w="http://purl.oclc.org/ooxml/wordprocessingml/main">'
                                         f"<w:body>{body}</w:body></w:document>")
    assert [ln.text for ln in docx_lines(path, DEFAULT_LIMITS) if ln.text] == ["Статья 1.", "Текст дальше"]


BODY = ("<w:body><w:p><w:r><w:t>Статья 1.</w:t></w:r></w:p>"
        "<w:p><w:r><w:t>1.</w:t><w:tab/><w:t>Часть &amp; текст</w:t><w:noBreakHyphen/><w:t>1</w:t></w:r></w:p></w:body>")
TRANSITIONAL = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


@pytest.mark.parametrize("document_xml", [
    f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{TRANSITIONAL}">{BODY}</w:document>'.encode(),
    f'<w:document xmlns:w="{TRANSITIONAL}"><!-- a comment --><w:body><w:p><w:r><w:t>Статья 1.</w:t></w:r></w:p>'
    "<w:p><w:r><w:t>1.</w:t><w:tab/><w:t>Часть &amp; текст</w:t><w:noBreakHyphen/><w:t>1</w:t></w:r></w:p></w:body>"
    "</w:document>".encode(),
    f'<document xmlns="{TRANSITIONAL}">{BODY.replace("w:", "")}</document>'.encode(),
    f'<x:document xmlns:x="{TRANSITIONAL}">{BODY.replace("w:", "x:")}</x:document>'.encode(),
    f'<?xml version="1.0" encoding="UTF-16"?><w:document xmlns:w="{TRANSITIONAL}">{BODY}</w:document>'.encode("utf-16"),
    f'<w:document xmlns:w="{TRANSITIONAL}"><w:body><w:p><w:r><w:t>Статья 1.</w:t></w:r></w:p><w:p><w:r><w:t>1.'
    "</w:t><w:tab/><w:t><![CDATA[Часть & текст]]></w:t><w:noBreakHyphen/><w:t>1</w:t></w:r></w:p></w:body>"
    "</w:document>".encode(),
], ids=["utf-8 declared", "with a comment", "default namespace", "another prefix", "utf-16", "cdata"])
def test_a_docx_reads_the_same_however_its_xml_is_written(tmp_path: Path, document_xml: bytes) -> None:
    path = tmp_path / "any.docx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("word/document.xml", document_xml)
    assert [ln.text for ln in docx_lines(path, DEFAULT_LIMITS) if ln.text] == ["Статья 1.", "1. Часть & текст-1"]

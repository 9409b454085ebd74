"""DOCX as paragraphs, with the standard library's zip and lxml only (a DOCX is a zip of XML).

Paragraph text is produced by lxml's C serializer in one pass (a newline after each ``w:p``) rather
than by walking runs in Python: the bankruptcy law's 7.7 MB document.xml reads 4x faster that way.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from corpus.limits import Limits, parse_xml, read_zip_member
from corpus.ru_structure import Line, clean

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
# field codes, deleted revisions and metadata are not text a reader sees
_HIDDEN = (_W + "instrText", _W + "delText", _W + "rPr", _W + "pPr", _W + "sectPr")


def docx_lines(path: Path, limits: Limits) -> list[Line]:
    root = parse_xml(read_zip_member(path, "word/document.xml", limits))
    etree.strip_elements(root, *_HIDDEN, with_tail=False)
    for el in root.iter(_W + "tab", _W + "br", _W + "cr"):
        el.tail = " " + (el.tail or "")
    for p in root.iter(_W + "p"):
        p.tail = "\n" + (p.tail or "")
    text = etree.tostring(root, method="text", encoding="unicode")
    return [Line(t) for t in map(clean, text.split("\n")) if not t.startswith("КонсультантПлюс: примечание")]

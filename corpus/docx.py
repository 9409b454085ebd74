"""DOCX as paragraphs, with the standard library's zip and lxml only (a DOCX is a zip of XML)."""

from __future__ import annotations

from pathlib import Path

from corpus.limits import Limits, parse_xml, read_zip_member
from corpus.ru_structure import Line, clean

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_P, _T, _TAB, _BR = _W + "p", _W + "t", _W + "tab", _W + "br"


def docx_lines(path: Path, limits: Limits) -> list[Line]:
    root = parse_xml(read_zip_member(path, "word/document.xml", limits))
    lines: list[Line] = []
    for p in root.iter(_P):
        parts: list[str] = []
        for el in p.iter(_T, _TAB, _BR):
            if el.tag == _T:
                parts.append(el.text or "")
            else:
                parts.append(" ")
        text = clean("".join(parts))
        if not text.startswith("КонсультантПлюс: примечание"):
            lines.append(Line(text))
    return lines

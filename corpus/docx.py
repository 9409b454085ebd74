"""DOCX as paragraphs, with the standard library's zip and lxml only (a DOCX is a zip of XML).

Paragraph text is gathered in one pass over the tree's paragraphs, runs' text, tabs and breaks, which lxml
filters by tag in C: field codes (``w:instrText``) and deleted revisions (``w:delText``) are other tags, so
what a reader of the document sees is what is read. (Marking every paragraph's tail and serialising the tree
as text costs the same, measured process by process; parsing the 7.7 MB document.xml is most of either.)
Both the transitional namespace Word writes and the strict ISO one are read.
"""

from __future__ import annotations

from pathlib import Path

from corpus.limits import Limits, parse_xml, read_zip_member
from corpus.ru_structure import Line, clean

_TRANSITIONAL = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_STRICT = "{http://purl.oclc.org/ooxml/wordprocessingml/main}"
_EDITOR_NOTE = "КонсультантПлюс: примечание"


def docx_lines(path: Path, limits: Limits) -> list[Line]:
    root = parse_xml(read_zip_member(path, "word/document.xml", limits))
    w = _STRICT if root.tag.startswith(_STRICT) else _TRANSITIONAL
    p, t = w + "p", w + "t"
    paragraphs: list[str] = []
    runs: list[str] = []
    for el in root.iter(p, t, w + "tab", w + "br", w + "cr"):
        tag = el.tag
        if tag == t:
            if el.text:
                runs.append(el.text)
        elif tag == p:  # a paragraph opens: the text gathered so far is the one before it
            paragraphs.append("".join(runs))
            runs.clear()
        else:
            runs.append(" ")
    paragraphs.append("".join(runs))
    return [Line(text) for text in map(clean, paragraphs[1:]) if not text.startswith(_EDITOR_NOTE)]

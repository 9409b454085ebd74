"""Paragraphs of the official portal's HTML (pravo.gov.ru, IPS "Complex" export).

The portal marks article and chapter headings with ``class="H"``, titles with ``T``, editorial notes
with ``I``/``P``/``N`` or a ``mark`` span, and superscript article numbers with a top-aligned span
(``390<span class="W9">1</span>`` is article 390.1). Classes are read from the stylesheet when present,
so a page whose superscript class is called differently still reads right.
"""

from __future__ import annotations

import re

import lxml.html
from lxml import etree

from corpus.model import IngestFailure
from corpus.ru_structure import Line, clean

_SUPER_CSS = re.compile(r"\.(\w+)\s*\{[^}]*vertical-align\s*:\s*(?:top|super)", re.I)
_NOTE_CLASSES = frozenset({"I", "P", "N", "C"})
_HEADING_CLASSES = frozenset({"H"})
_TITLE_CLASSES = frozenset({"T"})
_DOC_ND = re.compile(r"prevDoc=(\d+)")


def _superscript_classes(root: etree._Element) -> frozenset[str]:
    found = {"W9"}
    for style in root.iter("style"):
        found.update(_SUPER_CSS.findall(style.text or ""))
    return frozenset(found)


def _walk(el: etree._Element, sup: frozenset[str], heading: bool, main: list[str], notes: list[str]) -> None:
    for child in el:
        tag = child.tag
        if isinstance(tag, str):
            cls = child.get("class")
            if cls == "mark":
                notes.append("".join(child.itertext()))
            elif cls in sup or tag == "sup":
                inner = "".join(child.itertext()).strip()
                if inner:
                    main.append("." + inner if heading or inner.isdigit() else inner)
            elif tag in ("script", "style"):
                pass
            elif len(child):
                main.append(child.text or "")
                _walk(child, sup, heading, main, notes)
            else:
                main.append(child.text or "")
        main.append(child.tail or "")


def _text(p: etree._Element, sup: frozenset[str], heading: bool) -> tuple[str, str]:
    """(main text, note text): notes are ``mark`` spans the portal appends after amended passages."""
    if len(p) == 0:
        return p.text or "", ""
    main: list[str] = [p.text or ""]
    notes: list[str] = []
    _walk(p, sup, heading, main, notes)
    return "".join(main), "".join(notes)


def read_portal_html(text: str) -> tuple[list[Line], list[str], str | None]:
    """Return (paragraph lines with roles, title lines, portal document number)."""
    if "<" not in text[:2048]:
        raise IngestFailure("malformed_html", "no markup in the first 2 KB", "byte 0")
    tail = text[-4096:].lower()
    if "</html>" not in tail and "</body>" not in tail:
        raise IngestFailure("truncated", "the page ends before </body></html>: an interrupted download or a cut file",
                            f"char {len(text)}")
    try:
        root = lxml.html.document_fromstring(text)
    except (etree.ParserError, ValueError) as exc:
        raise IngestFailure("malformed_html", str(exc), None) from None
    sup = _superscript_classes(root)
    lines: list[Line] = []
    titles: list[str] = []
    body = root.find("body")
    if body is None:
        raise IngestFailure("malformed_html", "no <body>", None)
    for p in body.iter("p"):
        cls = p.get("class")
        heading = cls in _HEADING_CLASSES
        main, note = _text(p, sup, heading)
        main, note = clean(main), clean(note)
        if cls in _TITLE_CLASSES:
            if main:
                titles.append(main)
                lines.append(Line(main, "heading"))
            continue
        if cls in _NOTE_CLASSES:
            if main or note:
                lines.append(Line(clean(main + " " + note), "note"))
            continue
        if heading:
            if main.startswith("(") and not main.startswith("(Статья"):
                lines.append(Line(main, "note"))
            elif main or note:
                lines.append(Line(main or note, "heading"))
            continue
        if not main or main in {".", ","}:
            if note:
                lines.append(Line(note, "note"))
            continue
        # a part repealed in full reads "3. (Утратил силу - ...)": the note is its text
        if len(main) <= 8 and note:
            main = clean(main + " " + note)
        lines.append(Line(main))
    m = _DOC_ND.search(text)
    return lines, titles, m.group(1) if m else None

"""Paragraphs of the official portal's HTML (pravo.gov.ru, IPS "Complex" export).

The portal marks article and chapter headings with ``class="H"``, titles with ``T``, editorial notes
with ``I``/``P``/``N`` or a ``mark`` span, and superscript article numbers with a top-aligned span
(``390<span class="W9">1</span>`` is article 390.1). Classes are read from the stylesheet when present,
so a page whose superscript class is called differently still reads right. Older acts come as one
preformatted block (``M``) of wrapped lines, whose paragraphs are rebuilt first.
"""

from __future__ import annotations

import re

from lxml import etree

from corpus.model import IngestFailure
from corpus.ru.structure import ARTICLE, CONTEXT, Line, clean

_SUPER_CSS = re.compile(r"\.(\w+)\s*\{[^}]*vertical-align\s*:\s*(?:top|super)", re.I)
_NOTE_CLASSES = frozenset({"I", "P", "N", "C"})
_HEADING_CLASSES = frozenset({"H"})
_TITLE_CLASSES = frozenset({"T"})
# Older acts are served as one preformatted block (``<p class="M">``, white-space: pre) of lines wrapped at about
# 70 characters: its paragraphs are rebuilt from the lines before the structure is read.
_PRE_CLASSES = frozenset({"M"})
# a line that opens a paragraph of its own: an article, a division, a numbered part, point or letter
_PRE_OPENS = re.compile(
    r"^(?:Стать[яи]\s+\d|(?:Глава|ГЛАВА|Раздел|РАЗДЕЛ|Подраздел|ПОДРАЗДЕЛ)\s|§\s*\d|\d+(?:\.\d+)*[.)]\s|[а-я]\)\s)"
)
# a line ending so is wrapped in the middle of a sentence although it ends with a full stop ("..., 2004, N 27, ст." /
# "2711; ...", "от 29 июня 2004 г." / "N 58-ФЗ")
_PRE_ABBREVIATION = re.compile(r"(?:^|[\s(])(?:ст|г|гг|п|пп|ч|подп|абз|т|см|им|руб|коп|N|№)\.?$")
_DOC_ND = re.compile(r"prevDoc=(\d+)")
# A division named on two lines: its number, then its name as the next title ("ГЛАВА 1" / "ОСНОВЫ
# КОНСТИТУЦИОННОГО СТРОЯ", "РАЗДЕЛ ВТОРОЙ" / "Заключительные и переходные положения").
_BARE_DIVISION = re.compile(r"^(?:Глава|ГЛАВА|Раздел|РАЗДЕЛ|Подраздел|ПОДРАЗДЕЛ)\s+[\w.]+\.?$")


def _superscript_classes(root: etree._Element) -> frozenset[str]:
    found = {"W9"}
    for style in root.iter("style"):
        found.update(_SUPER_CSS.findall(style.text or ""))
    return frozenset(found)


def _string(el: etree._Element) -> str:
    """XPath ``string()`` of an element, from lxml's C text serializer: an XPath call costs microseconds of
    setup per element, and joining ``itertext()`` makes a Python string of every run first."""
    return str(etree.tostring(el, method="text", encoding="unicode", with_tail=False))


def _prepare(root: etree._Element, sup: frozenset[str]) -> dict[etree._Element, str]:
    """Rewrite superscripts as ``.N`` and lift ``mark`` notes out of the text, in place.

    Done once over the tree so each paragraph's text then comes from lxml's C ``itertext()``
    instead of a Python walk over its runs. Returns the note text of every paragraph that had one.
    """
    marks: list[etree._Element] = []
    for el in root.iter("span", "sup"):
        cls = el.get("class")
        if cls == "mark" and el.tag == "span":
            marks.append(el)  # lifted after every superscript inside it is rewritten
        elif el.tag == "sup" or cls in sup:
            inner = _string(el).strip()
            for child in list(el):
                el.remove(child)  # tails of nested children are dropped with them, as text they are inner
            el.text = "." + inner if inner.isdigit() or re.fullmatch(r"\d+-\d+", inner) else inner
    notes: dict[etree._Element, str] = {}
    for el in marks:
        para = next(el.iterancestors("p"), None)
        if para is None:
            continue
        notes[para] = notes.get(para, "") + _string(el)
        tail = el.tail
        el.clear()
        el.tail = tail
    return notes


def _reflow(text: str) -> list[str]:
    """The paragraphs of a preformatted block: a blank line ends one, a line that opens a unit or follows a line
    ending a sentence or list item (".", ";", ":") starts one, unless a bracket is still open (an amendment note
    wrapped over lines); any other line goes on with the paragraph it was wrapped from."""
    paragraphs: list[str] = []
    current: list[str] = []
    depth = 0
    for raw in text.split("\n"):
        line = clean(raw)
        if not line:
            if current:
                paragraphs.append(" ".join(current))
                current, depth = [], 0
            continue
        if current and depth == 0:
            last = current[-1]
            if _PRE_OPENS.match(line) or (last[-1] in ".;:" and not _PRE_ABBREVIATION.search(last)):
                paragraphs.append(" ".join(current))
                current = []
        current.append(line)
        depth = max(0, depth + line.count("(") - line.count(")"))
    if current:
        paragraphs.append(" ".join(current))
    return paragraphs


_PARSERS: dict[str, etree.HTMLParser] = {}


def _parser(encoding: str) -> etree.HTMLParser:
    """One parser per encoding, reused: building a parser costs as much as parsing a small page."""
    if encoding not in _PARSERS:
        _PARSERS[encoding] = etree.HTMLParser(encoding=encoding, no_network=True)
    return _PARSERS[encoding]


def read_portal_html(text: str, raw: bytes | None = None,
                     encoding: str | None = None) -> tuple[list[Line], list[str], str | None]:
    """Return (paragraph lines with roles, title lines, portal document number).

    ``raw`` and its already detected ``encoding`` let libxml2 parse the bytes directly, which is
    faster than parsing the decoded ``str``; the text is still what the checks below read.
    """
    if "<" not in text[:2048]:
        raise IngestFailure("malformed_html", "no markup in the first 2 KB", "byte 0")
    tail = text[-4096:].lower()
    if "</html>" not in tail and "</body>" not in tail:
        raise IngestFailure("truncated", "the page ends before </body></html>: an interrupted download or a cut file",
                            f"char {len(text)}")
    try:
        if raw is not None and encoding is not None:
            root = etree.fromstring(raw, _parser(encoding))
        else:
            root = etree.fromstring(text.encode("utf-8"), _parser("utf-8"))
    except (etree.ParserError, ValueError) as exc:
        raise IngestFailure("malformed_html", str(exc), None) from None
    if root is None:
        raise IngestFailure("malformed_html", "no element could be parsed", "byte 0")
    sup = _superscript_classes(root)
    lines: list[Line] = []
    titles: list[str] = []
    body = root.find("body")
    if body is None:
        raise IngestFailure("malformed_html", "no <body>", None)
    notes = _prepare(body, sup)
    bare = -1  # the index of a division's number still waiting for its name
    for p in body.iter("p"):
        cls = p.get("class")
        if cls in _PRE_CLASSES:
            for k, para in enumerate(_reflow(_string(p))):
                if k == 0 and not titles and not lines and para[0].isupper() and not ARTICLE.match(para):
                    titles.append(para)  # "Таможенный кодекс Российской Федерации", the block's first line
                    lines.append(Line(para, "heading"))
                else:
                    lines.append(Line(para))
            continue
        heading = cls in _HEADING_CLASSES
        main = clean(_string(p) if len(p) else (p.text or ""))
        raw_note = notes.get(p)
        note = clean(raw_note) if raw_note else ""
        if bare >= 0 and bare == len(lines) - 1 and main and (cls in _TITLE_CLASSES or (heading and not note)) \
                and main[0] != "(" and not ARTICLE.match(main) and not CONTEXT.match(main):
            lines[bare] = Line(f"{lines[bare].text.rstrip('.')}. {main}", "heading")
            bare = -1
            continue
        if cls in _TITLE_CLASSES:
            if main:
                titles.append(main)
                lines.append(Line(main, "heading"))
                bare = len(lines) - 1 if _BARE_DIVISION.match(main) else -1
            continue
        if cls in _NOTE_CLASSES:
            # the Constitution's page sets its chapters' numbers ("ГЛАВА 1") in the class of the header's notes
            if main and not note and CONTEXT.match(main):
                lines.append(Line(main, "heading"))
                bare = len(lines) - 1 if _BARE_DIVISION.match(main) else -1
            elif main or note:
                lines.append(Line(clean(main + " " + note), "note"))
            continue
        if heading:
            if main.startswith("(") and not main.startswith("(Статья"):
                lines.append(Line(main, "note"))
            elif main or note:
                lines.append(Line(main or note, "heading"))
                bare = len(lines) - 1 if _BARE_DIVISION.match(main) else -1
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

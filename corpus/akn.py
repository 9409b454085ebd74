"""Akoma Ntoso (OASIS LegalDocML) acts, bills, judgments and debates: the final 3.0 namespace, any draft of it
(WD17, CSD03, ...), 2.0, or none.

The hierarchy elements that carry a ``num`` are units; the outermost (article or section) is the
article and deeper levels extend its path. Namespaces are matched by local name so documents in
either namespace, or mixing prefixes, read the same way. Provisions an amending act quotes are its text,
not its units; a schedule's paragraphs (in the body or attached) are units under the schedule
(``schedule-1/3``); parts, chapters and crossheadings are context.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from corpus.model import IN_FORCE, REPEALED, Draft, IngestFailure, draft
from corpus.ru.structure import clean

AKN_NAMESPACES = frozenset({
    "http://docs.oasis-open.org/legaldocml/ns/akn/3.0",
    "http://docs.oasis-open.org/legaldocml/ns/akn/3.0/WD17",
    "http://docs.oasis-open.org/legaldocml/ns/akn/3.0/CSD13",
    "http://www.akomantoso.org/2.0",
})
# Every draft of the 3.0 schema had its own namespace (WD17, CSD03, CSD13, ...), and real corpora kept
# whichever their tools were written against: the Italian Senate's bulk data still uses CSD03.
_AKN_NS_PREFIXES = ("http://docs.oasis-open.org/legaldocml/ns/akn/3.0", "http://www.akomantoso.org/")
DOC_TYPES = frozenset({"act", "bill", "judgment", "doc", "debate", "debateReport", "amendment", "portion",
                       "statement", "officialGazette", "documentCollection", "amendmentList"})
TOP = frozenset({"article", "section", "rule"})
SUB = frozenset({"paragraph", "subsection", "point", "subparagraph", "clause", "subclause", "item", "indent",
                 "alinea", "list", "level"})
# Text quoted from another act (an amending act's "insert: (2A) ...") or embedded in it: its numbered
# provisions belong to the act it quotes, so they are text of the quoting unit, never units of their own.
QUOTED = frozenset({"quotedStructure", "embeddedStructure"})
CONTEXT = frozenset({"part", "title", "chapter", "subchapter", "book", "subtitle", "division", "subdivision",
                     "subpart", "tome", "hcontainer"})
# what holds no unit: a paragraph's text (a footnote in it may quote numbered provisions), a table, a heading
LEAVES = frozenset({"p", "num", "heading", "subheading", "table", "authorialNote", "remark", "toc", "img", "eol"})
_HEADING_PARTS = frozenset({"num", "heading", "subheading"})
# legislation.gov.uk sets an act's schedules in the body as hcontainers: their paragraphs are numbered 1, 2, ...
# again, so they are units under the schedule ("schedule-1/3"), not more sections 1, 2, ...
SCHEDULES = frozenset({"schedule", "appendix", "annex", "annexe"})
KIND_MAP = {"act": "law", "bill": "law", "judgment": "decision", "portion": "law", "debateReport": "debate"}
# A debate's record is not numbered by articles: its sections (the standard's debateSection and the named
# kinds of section) and, inside them, the speeches, questions and answers are what one refers to.
DEBATES = frozenset({"debate", "debateReport"})
DEBATE_SECTIONS = frozenset({
    "debateSection", "administrationOfOath", "rollCall", "prayers", "oralStatements", "writtenStatements",
    "personalStatements", "ministerialStatements", "resolutions", "nationalInterest", "declarationOfVote",
    "communication", "petitions", "papers", "noticesOfMotion", "questions", "address", "proceduralMotions",
    "pointOfOrder", "adjournment",
})
SPEECHES = frozenset({"speech", "question", "answer"})
# the Latin ordinals of inserted provisions: Italian "Art. 2-bis", French "article 3 ter"
_LATIN = ("bis|ter|quater|quinquies|sexies|septies|octies|novies|nonies|decies|undecies|duodecies|terdecies|"
          "quaterdecies|quinquiesdecies|sexiesdecies|septiesdecies|octiesdecies|noviesdecies|vicies")
# "1.1", "12A" and "21ZA" (sections inserted after 12 and 21), "5a", "2-bis"; not the "er" of "1er"
_DIGITS = re.compile(rf"(\d+(?:[.\-^]\d+)*)(?:[\s\-]?(?i:({_LATIN}))\b|([A-Z]{{1,2}}|[a-z])(?![A-Za-z]))?")
# a unit whose whole text says it is gone: "[Repealed by Act 3 of 2015]", "((ARTICOLO ABROGATO DAL ...))"
_REPEALED_TEXT = re.compile(
    r"^\W*(?:(?:article|section|articolo|comma|paragraph)\s+)?(?:repealed|deleted|spent|abrogat[oaieă]?|abrogée?|"
    r"derogad[oa]|soppress[oa])\b(?:\W*$|\s+(?:by|under|with\s+effect|dal|dalla|dall|dai|prin|por|par)\b)", re.I)
_URN_NIR = re.compile(r"^urn:nir:.*?(\d{4}-\d\d-\d\d);(\w+)")


@dataclass(frozen=True)
class AknDoc:
    doc_type: str
    work_uri: str | None
    country: str | None
    number: str | None
    date: str | None
    title: str
    units: list[Draft]
    expression_date: str | None = None   # the point in time of this expression (FRBRExpression/FRBRdate)


def _local(el: etree._Element) -> str:
    tag = el.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


def _string(el: etree._Element) -> str:
    """An element's text from lxml's C text serializer (joining ``itertext()`` makes a string of every run)."""
    return str(etree.tostring(el, method="text", encoding="unicode", with_tail=False))


def _num(el: etree._Element) -> str | None:
    for child in el:
        if _local(child) == "num":
            return clean(_string(child))
    return None


def _norm_num(num: str) -> str:
    """``Art. 1.``, ``SECTION 1.``, ``§ 301.``, ``Artículo 1º`` -> ``1``/``301``; ``(a)``, ``[4]`` -> ``a``/``4``."""
    m = _DIGITS.search(num)
    if m:
        base, latin, letter = m.groups()
        return f"{base}-{latin.lower()}" if latin else base + letter if letter else base
    tokens = num.replace("\u202f", " ").split()
    return tokens[-1].strip("()[].,:;-–—") if tokens else ""


def _heading(el: etree._Element) -> str | None:
    for child in el:
        if _local(child) == "heading":
            return clean(_string(child)) or None
    return None


# text blocks in any namespace; lxml filters the tags in C instead of a Python test on every node
_BLOCKS = tuple(f"{{*}}{t}" for t in ("p", "li", "td", "th", "listIntroduction", "listWrapUp", "blockContainer"))
_NOTES = ("{*}authorialNote",)


def _text(el: etree._Element) -> str:
    """The unit's blocks, one a line, each once: a table cell, list item or block container that holds
    paragraphs is read through them (its own string would repeat them), and a footnote (``authorialNote``)
    inside a paragraph is no text of the provision."""
    parts: list[str] = []
    blocks = el.iter(*_BLOCKS)
    for node in blocks:
        if len(node):
            inner = sum(1 for _ in node.iter(*_BLOCKS)) - 1
            if inner:
                if _local(node) != "p":
                    continue  # a container: its own blocks come next
                text = _string(node)
                for note in node.iter(*_NOTES):
                    text = text.replace(_string(note), "", 1)
                for _ in range(inner):
                    next(blocks, None)  # the blocks inside the paragraph (a footnote's) are read with it
            else:
                text = _string(node)
                for note in node.iter(*_NOTES):  # a footnote written without its own paragraph
                    text = text.replace(_string(note), "", 1)
        else:
            text = node.text or ""
        t = clean(text)
        if t:
            parts.append(t)
    return "\n".join(parts)


def parse_akn(root: etree._Element) -> AknDoc:
    ns = etree.QName(root).namespace
    # a converter that writes no namespace at all still names the root akomaNtoso
    if _local(root) != "akomaNtoso" or not (ns is None or ns in AKN_NAMESPACES or ns.startswith(_AKN_NS_PREFIXES)):
        raise IngestFailure("not_akoma_ntoso", f"root element {root.tag} is not an Akoma Ntoso document", "line 1")
    doc = next((c for c in root if _local(c) in DOC_TYPES), None)
    if doc is None:
        raise IngestFailure("not_akoma_ntoso", "no act/bill/judgment/doc element under akomaNtoso", "line 1")
    doc_type = _local(doc)
    if doc_type == "documentCollection":
        inner = next((el for el in root.iter() if _local(el) in ("act", "bill", "judgment")), None)
        doc = inner if inner is not None else doc
        doc_type = _local(doc)
    work_uri = country = number = date = alias = urn = uri = name = None
    for el in doc.iter():
        ln = _local(el)
        if ln == "FRBRWork":
            for c in el:
                lc = _local(c)
                if lc == "FRBRthis" and work_uri is None:
                    work_uri = c.get("value")
                elif lc == "FRBRuri" and uri is None:
                    uri = c.get("value")
                elif lc == "FRBRcountry":
                    country = c.get("value")
                elif lc == "FRBRnumber":
                    number = c.get("value")
                elif lc == "FRBRdate" and date is None:
                    date = c.get("date")
                elif lc == "FRBRname" and name is None:
                    name = clean(c.get("value") or "") or None
                elif lc == "FRBRalias":
                    value = c.get("value") or ""
                    if value.startswith("urn:"):
                        urn = urn or value
                    elif alias is None and "title" in (c.get("name") or "title").lower():
                        alias = clean(value) or None
            break
    expression_date = next((c.get("date") for el in doc.iter() if _local(el) == "FRBRExpression"
                            for c in el if _local(c) == "FRBRdate" and c.get("date")), None)
    # Normattiva names the work only by its URN alias ("urn:nir:stato:legge:2024-12-13;203")
    m = _URN_NIR.match(urn) if urn else None
    if work_uri is None and urn:
        work_uri = urn
    if number is None:
        number = m.group(2) if m else _uri_number(uri or work_uri)
    if date is None and m:
        date = m.group(1)
    title = doc_number = ""
    for el in doc.iter():
        ln = _local(el)
        if ln in ("docTitle", "shortTitle", "longTitle"):
            title = clean(_string(el))
            if title:
                break
        elif ln == "docNumber" and not doc_number:
            doc_number = clean(_string(el))
    # an act without a preface (Laws.Africa) names itself in its work's alias; a parliamentary amendment has
    # only its number ("Emendamento n. 1.1")
    title = title or alias or doc_number
    if doc_type == "judgment" and name:
        # the National Archives' judgments name the case in FRBRname ("MK v A Local Authority"); their header's
        # docTitle is whichever line the converter tagged ("IN THE MATTER OF THE CHILDREN ACT 1989")
        title = name
    units = _debate_units(doc) if doc_type in DEBATES else _units(doc, doc_type)
    if not units:
        units = _whole_text(doc)
    return AknDoc(doc_type, work_uri, country, number, date[:10] if date else None, title, units,
                  expression_date[:10] if expression_date and re.match(r"\d{4}-\d{2}-\d{2}", expression_date)
                  else None)


_YEAR = re.compile(r"^\d{4}(?:-\d\d-\d\d)?$")
_SLUG = re.compile(r"\W+")


def _attachment_key(att: etree._Element, order: int) -> tuple[str, str]:
    """The path prefix and context of an attachment (a Laws.Africa schedule): its heading ("Schedule 2" ->
    ``schedule-2``), or its document's name and place ("schedule-1") when it has none."""
    heading = " ".join(clean(_string(c)) for c in att if _local(c) in ("heading", "subheading"))
    first = next((clean(_string(c)) for c in att if _local(c) == "heading"), "")
    inner = next((c for c in att if _local(c) not in _HEADING_PARTS), None)
    name = (inner.get("name") if inner is not None else None) or "attachment"
    key = _SLUG.sub("-", first.lower()).strip("-") if first else f"{name.lower()}-{order}"
    return key, heading


def _uri_number(uri: str | None) -> str | None:
    """The number in a work URI without ``FRBRnumber``: what follows its year (``/za/act/2009/10`` -> ``10``)."""
    parts = (uri or "").split("/")
    for i, part in enumerate(parts[:-1]):
        if _YEAR.match(part):
            nxt = parts[i + 1]
            return nxt if nxt and nxt not in ("main", "!main") and not nxt.startswith(("@", "!")) else None
    return None


def _units(doc: etree._Element, doc_type: str) -> list[Draft]:
    out: list[Draft] = []
    seen: set[str] = set()

    def walk(el: etree._Element, article: str | None, path: str | None, outer: list[str], prefix: str = "") -> None:
        ctx = outer
        for child in el:
            ln = _local(child)
            if ln in LEAVES or ln in QUOTED or ln in ("meta", "preface", "preamble", "conclusions", "components",
                                                      "coverPage"):
                continue
            if ln == "attachments":
                if path is None and not prefix:
                    for order, att in enumerate((a for a in child if _local(a) == "attachment"), 1):
                        key, label = _attachment_key(att, order)
                        walk(att, None, None, [label] if label else [], key)
                continue
            if ln == "crossHeading" or (ln == "hcontainer" and child.get("name") == "crossheading" and len(child)
                                        and all(_local(c) in _HEADING_PARTS for c in child)):
                # a heading between sections, not around them (Laws.Africa): the sections after it, up to the
                # next one, are under it
                label = clean(_string(child) if ln == "crossHeading" else " ".join(
                    _string(c) for c in child if _local(c) != "subheading"))
                ctx = [*outer, label] if label else outer
                continue
            num = _num(child)
            if ln in CONTEXT:
                label = " ".join(x for x in (num, _heading(child)) if x)
                name = (child.get("name") or "").lower() if ln == "hcontainer" else ""
                if name in SCHEDULES and path is None:
                    words = (num or "").split()
                    mark = words[-1].strip(".:") if len(words) > 1 else ""
                    walk(child, None, None, [*ctx, label] if label else ctx, f"{name}-{mark}" if mark else name)
                    continue
                walk(child, article, path, [*ctx, label] if label else ctx, prefix)
                continue
            is_unit = num is not None and (ln in TOP or ln in SUB or (doc_type == "judgment" and ln in ("item",)))
            if is_unit and num is not None:
                n = _norm_num(num) or (child.get("eId") or "").rsplit("_", 1)[-1]
                new_article: str | None
                if prefix and path is None:
                    new_article = new_path = f"{prefix}/{n}"
                    kind = ln
                elif path is None or (ln in TOP and article is None):
                    new_article, new_path, kind = n, n, ("point" if doc_type == "judgment" else "article")
                else:
                    new_article, new_path, kind = article, f"{path}/{n}", ln
                base, i = new_path, 2
                while new_path in seen:
                    new_path = f"{base}~{i}"
                    i += 1
                seen.add(new_path)
                text = _text(child)
                status = REPEALED if child.get("status") in ("removed", "repealed") or (
                    len(text) < 300 and _REPEALED_TEXT.match(text)) else IN_FORCE
                out.append(draft(new_article, new_path, kind, num, _heading(child), text, status,
                                   " / ".join(ctx) or None))
                walk(child, new_article, new_path, ctx, prefix)
            else:
                walk(child, article, path, ctx, prefix)

    walk(doc, None, None, [])
    return out


_BODIES = frozenset({"body", "mainBody", "amendmentBody", "judgmentBody", "debateBody", "collectionBody",
                     "portionBody"})


def _whole_text(doc: etree._Element) -> list[Draft]:
    """A document that numbers nothing (a parliamentary amendment, a memorandum) is one text unit: its body's
    text, as a legislatie.just.ro record without articles is, rather than no document at all."""
    body = next((c for c in doc if _local(c) in _BODIES), None)
    text = _text(body) if body is not None else ""
    return [draft(None, "text", "text", "", None, text, IN_FORCE, None)] if text else []


def _debate_units(doc: etree._Element) -> list[Draft]:
    """Sections by their ``num`` (or their order where they have none), speeches by their order within the
    section, each with its speaker as the heading: the ``from`` line, or where a record writes none (Malaysian
    state assemblies' Hansard) the person its ``by`` points to among the references."""
    out: list[Draft] = []
    seen: set[str] = set()
    people: dict[str, str] = {}
    for ref in doc.iter("{*}TLCPerson", "{*}TLCOrganization", "{*}TLCRole"):
        key = ref.get("eId") or ref.get("id")
        if key and ref.get("showAs"):
            people[key] = clean(ref.get("showAs") or "")

    def walk(el: etree._Element, top: str | None, path: str | None, ctx: str | None) -> None:
        order = 0
        for child in el:
            ln = _local(child)
            if ln in ("meta", "preface", "conclusions", "attachments", "components", "coverPage"):
                continue
            if ln not in DEBATE_SECTIONS and ln not in SPEECHES:
                walk(child, top, path, ctx)
                continue
            order += 1
            num = _num(child) if ln in DEBATE_SECTIONS else None
            n = (_norm_num(num) if num else "") or str(order)
            new_path = base = n if path is None else f"{path}/{n}"
            i = 2
            while new_path in seen:
                new_path = f"{base}~{i}"
                i += 1
            seen.add(new_path)
            if ln in SPEECHES:
                speaker = next((clean(_string(c)) for c in child if _local(c) == "from"), None) \
                    or people.get((child.get("by") or "").lstrip("#"))
                out.append(draft(top or new_path, new_path, ln, str(order), speaker or None, _text(child), IN_FORCE,
                                 ctx))
                continue
            heading = _heading(child)
            out.append(draft(top or new_path, new_path, "section", num or n, heading, _text(child), IN_FORCE, ctx))
            walk(child, top or new_path, new_path, heading or ctx)

    walk(doc, None, None, None)
    return out

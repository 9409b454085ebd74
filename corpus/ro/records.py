"""Records of the Romanian Ministry of Justice legislation web service (legislatie.just.ro).

A record is a JSON object with ``Titlu``, ``Text``, ``Emitent``, ``Numar``, ``TipAct``, ``DataVigoare``,
``Publicatie``; the text separates blocks with ``+`` lines and runs of spaces. Known faults are
repaired where the record itself holds the right spelling: '?' for diacritics, BOMs, cedillas.
"""

from __future__ import annotations

import datetime
import html
import re
from dataclasses import dataclass
from typing import Any

from corpus.acts import act_for_ro_act, is_code
from corpus.model import IN_FORCE, Draft, IngestFailure, Unit, draft, finish
from corpus.numbering import normalise_ro
from corpus.ro.markdown import SIGNATURE
from corpus.ro.text import article_units, repair_question_marks, unify
from corpus.ru.resolution import parse_points
from corpus.ru.structure import Line, clean

# Blocks: a '+' line, or '+' between runs of 3+ spaces. Paragraphs: a whitespace run holding a newline or
# 3+ long. Both are written to open with a bare \s (the same splits as "\n\s*\+\s*\n|..." and
# "\s*\n\s*|\s{3,}"): the regex engine then skips in C to the next whitespace instead of trying every letter.
_BLOCK_SPLIT = re.compile(r"\s(?:(?<=\n)\s*\+\s*\n|\s{2,}\+\s{3,})")
_PARA_SPLIT = re.compile(r"\s(?:\s*\n|(?<=\n)|\s{2})\s*")
ARTICLE = re.compile(r"^(?:Articolul|Art\.|ARTICOLUL)\s*([0-9IVXLC]+(?:\s*\^\s*\d+)?)\b\s*(.*)$", re.S)
UNIC = re.compile(r"^ARTICOL(?:UL)?\s+UNIC\b\s*(.*)$", re.I | re.S)
_RO_MONTHS = {
    "ianuarie": 1, "februarie": 2, "martie": 3, "aprilie": 4, "mai": 5, "iunie": 6, "iulie": 7,
    "august": 8, "septembrie": 9, "octombrie": 10, "noiembrie": 11, "decembrie": 12,
}
DATE = re.compile(r"\bdin\s+(\d{1,2})\s+(" + "|".join(_RO_MONTHS) + r")\s+(\d{4})", re.I)
_TYPE_SLUG = {
    "LEGE": "lege", "ORDONANȚĂ DE URGENȚĂ": "oug", "ORDONANȚĂ": "og", "HOTĂRÂRE": "hg", "DECRET": "decret",
}
_DECISIONS = ("DECIZIE", "SENTINȚĂ", "ÎNCHEIERE", "COMUNICAT")
_COURTS = (("CURTEA CONSTITUȚIONALĂ", "CCR"), ("ÎNALTA CURTE DE CASAȚIE", "ÎCCJ"))
_LINK_ID = re.compile(r"/(\d+)\s*$")
_EMITENT = re.compile(r"\bEMITENT:?\s+(.*?)\s{3,}", re.S)
REQUIRED = ("Titlu", "Text")


@dataclass(frozen=True)
class RecordDoc:
    doc_id: str
    kind: str
    act: str | None
    issuer: str | None
    court: str | None
    number: str | None
    date: str | None
    title: str
    units: tuple[Unit, ...]


_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}")
_DAY_FIRST = re.compile(r"^(\d{1,2})[./-](\d{1,2})[./-](\d{4})\b")
_NET_DATE = re.compile(r"^/Date\((-?\d+)")


def _iso_date(value: Any) -> str | None:
    """DataVigoare as an ISO date, however the client that saved the record wrote it: "2023-06-15" or with a time
    ("2023-06-15T00:00:00"), day first ("28.11.2004", "28/11/2004"), or a .NET JSON date ("/Date(1101600000000)/",
    milliseconds since 1970, UTC)."""
    text = str(value or "").strip()
    if _ISO.match(text):
        return text[:10]
    m = _DAY_FIRST.match(text)
    if m:
        return f"{int(m.group(3)):04d}-{int(m.group(2)):02d}-{int(m.group(1)):02d}"
    m = _NET_DATE.match(text)
    if m:
        moment = datetime.datetime.fromtimestamp(int(m.group(1)) / 1000, tz=datetime.UTC)
        return moment.date().isoformat()
    return None


in_force_date = _iso_date   # the record's date in force (its edition, corpus.precedence)


def _clean(value: Any) -> str:
    return unify(html.unescape(str(value or ""))).replace("\ufeff", "").strip()


def parse_record(rec: dict[str, Any], position: str) -> RecordDoc:
    missing = [k for k in REQUIRED if not isinstance(rec.get(k), str)]
    if missing:
        raise IngestFailure("missing_field", f"record lacks {', '.join(missing)} (expected a string)", position)
    text = _clean(rec["Text"])
    title = " ".join(repair_question_marks(_clean(rec["Titlu"]), text).split())
    title = re.sub(r"\s*EMITENT:?.*$", "", title).strip()
    tip = " ".join(unify(str(rec.get("TipAct") or "")).upper().split())
    emitent_text = _EMITENT.search(text)
    issuer_raw = repair_question_marks(_clean(rec.get("Emitent")), text) or None
    if emitent_text and issuer_raw and issuer_raw.upper() in emitent_text.group(1).upper():
        issuer = emitent_text.group(1).split("  ")[0].strip() if "  " in emitent_text.group(1) else issuer_raw.upper()
        issuer = issuer_raw.upper()
    else:
        issuer = issuer_raw.upper() if issuer_raw else None
    number = str(rec.get("Numar") or "").strip()
    number_s = number if number and number != "0" else None
    m = DATE.search(title)
    date = (f"{int(m.group(3)):04d}-{_RO_MONTHS[m.group(2).lower()]:02d}-{int(m.group(1)):02d}" if m
            else _iso_date(rec.get("DataVigoare")))
    is_decision = tip.startswith(_DECISIONS)
    court = None
    if is_decision and issuer:
        court = next((short for long, short in _COURTS if long in issuer), issuer)
    slug = _TYPE_SLUG.get(tip)
    if slug == "hg" and issuer and "GUVERN" not in issuer:
        slug = "hotarare"  # a chamber's or authority's decision is not a Government decision (HG)
    # a judgment is no act: what its title names is the act it reviews
    act = None if is_decision else act_for_ro_act(slug, number_s, date[:4] if date else None, title)
    link = _LINK_ID.search(str(rec.get("LinkHtml") or ""))
    doc_id = f"ro/just/{link.group(1)}" if link else f"ro/just/{slug or 'act'}-{number_s or '0'}-{date or 'undated'}"
    # a judgment quotes the articles it applies; its own addressable units are its numbered paragraphs
    units = _points(text) if is_decision else _units(text)
    if not units:
        # narrative records (communiqués, reports) have no articles: the whole text is one unit
        units.append(draft(None, "text", "text", "", None, clean(str(rec.get("Text"))), IN_FORCE, None))
    kind = "decision" if is_decision else "code" if is_code(act) else "law" if slug else "other"
    return RecordDoc(doc_id, kind, act, issuer, court, number_s, date, title, finish(doc_id, act, units))


_BARE_NUMBER = re.compile(r"^\d{1,3}\.$")


def _points(text: str) -> list[Draft]:
    """Court decisions number their paragraphs ``1.``, ``2.``...: those are the points a citation names."""
    paras: list[str] = []
    pending = ""
    for p in _PARA_SPLIT.split(text):
        if not p:
            continue
        if _BARE_NUMBER.match(p):
            pending = p
            continue
        paras.append(f"{pending} {p}" if pending else p)
        pending = ""
    return parse_points([Line(p) for p in paras])


# Divisions above the article, in the order they nest; a block opening with one is context, not text.
_LEVELS = ("CARTEA", "TITLUL", "CAPITOLUL", "SECȚIUNEA", "PARAGRAFUL")
_DIVISION = re.compile(r"^(" + "|".join(_LEVELS) + r")\b", re.I)
# Where a record without '+' separators starts a block: a line opening with an article's or a division's heading.
_HEADING_LINE = re.compile(r"\n(?=(?:Articolul|ARTICOLUL|Art\.)\s*\d|(?:ARTICOL(?:UL)?\s+UNIC|" + "|".join(_LEVELS)
                           + r")\b)")
# An article's title is its first paragraph when that reads as a name, not a sentence or a marked paragraph.
_TITLE = re.compile(r"^[A-ZĂÂÎȘȚ][^.;:]{0,118}$")


# A marker standing alone, its text after a run of spaces ("(1)    Sumele ..."): the paragraph split parts them.
_BARE_MARKER = re.compile(r"^(?:\(\d+(?:\^\d+)?\)|[a-zăâîșț]{1,2}(?:\^\d+)?\)|\d+(?:\^\d+)?\.)$")


# ... or left at the end of the paragraph before, after two spaces ("... următoarele:  a)" then its text)
_TRAILING_MARKER = re.compile(r"\s\s(\(\d+(?:\^\d+)?\)|[a-zăâîșț]{1,2}(?:\^\d+)?\)|\d+(?:\^\d+)?\.)$")


def _join_bare_markers(paras: list[str]) -> list[str]:
    """Each bare marker joined to the paragraph after it, the unit's text."""
    out: list[str] = []
    glue = False
    for p in paras:
        trailing = _TRAILING_MARKER.search(p) if p[-1:] in ")." else None
        if trailing is not None:
            p, marker = p[: trailing.start()], trailing.group(1)
        if glue:
            out[-1] += " " + p
            glue = False
        else:
            out.append(p)
            glue = len(p) <= 7 and _BARE_MARKER.match(p) is not None
        if trailing is not None:
            out.append(marker)
            glue = True
    return out


def _units(text: str) -> list[Draft]:
    out: list[Draft] = []
    seen: set[str] = set()
    contexts: list[tuple[int, str]] = []
    blocks = _BLOCK_SPLIT.split(text)
    if len(blocks) == 1:  # no '+' separators (a record saved from the act's web page): a heading line opens a block
        blocks = _HEADING_LINE.split(text)
    for block in blocks:
        paras = _join_bare_markers([p for p in _PARA_SPLIT.split(block.strip()) if p])
        if not paras:
            continue
        m = ARTICLE.match(paras[0])
        u = UNIC.match(paras[0]) if not m else None
        if not m and not u:
            d = _DIVISION.match(paras[0])
            if d and len(paras) <= 3:
                level = _LEVELS.index(d.group(1).upper())
                while contexts and contexts[-1][0] >= level:
                    contexts.pop()
                contexts.append((level, " ".join(paras)))
            continue
        if m:
            written = m.group(1).replace(" ", "")
            number = normalise_ro(written)
            first = m.group(2).strip()
        else:
            written, number = "unic", "unic"
            first = u.group(1).strip() if u else ""
        body = ([first] if first else []) + paras[1:]
        # the law's closing formula and its signatures follow the last article in the same block
        end = next((i for i, p in enumerate(body) if p[:1] in "PA" and SIGNATURE.match(p)), None)
        if end is not None:
            body = body[:end]
        heading = body.pop(0) if len(body) > 1 and _TITLE.match(body[0]) else None
        context = " / ".join(c for _, c in contexts) or None
        article_units(number, written, heading, body, context, seen, out)
    return out

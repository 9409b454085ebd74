"""Russian acts from a flat sequence of paragraphs, whatever container they came in (HTML, DOCX, text).

Structure is recognised from the numbering conventions of Russian legislative drafting, not from
one file's layout: ``Статья N.`` opens an article; chapters, sections and paragraphs (§) are context;
``1.`` opens a numbered part (пункт in the Civil Code), ``1)`` a point, ``а)`` a letter. In codes
whose parts are not numbered (ТК, ГПК) each plain paragraph is a part, counted as the courts count
"часть вторая", except the items of a list, which are paragraphs of the part that introduces them
("... в случаях:"). Repealed articles and parts are kept with status ``repealed``; editorial lines of
text exports (amendment notes, the consultant's comments and links) are no part of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from corpus.model import DRAFT_TEXT, IN_FORCE, REPEALED, Draft, draft
from corpus.numbering import normalise_ru
from corpus.ru.markers import (
    ARTICLE_RANGE,
    LETTER,
    PART,
    POINT,
    RANGE,
    REPEAL,
    hyphen_range,
    only_repeal,
    range_numbers,
    unit_status,
)

ARTICLE = re.compile(r"^Статья\s+(\d+(?:[.\-]\d+)*)\s*(?:\.\s*|\s+|$)(.*)$", re.S)
CONTEXT = re.compile(
    r"^(?:Глава|ГЛАВА|Раздел|РАЗДЕЛ|Подраздел|ПОДРАЗДЕЛ|§|Параграф|ПАРАГРАФ|ЧАСТЬ\s+[А-ЯЁ]+\s*$|"
    r"Часть\s+(?:перв|втор|трет|четв|пят|шест)\w*\s*$)"
)
CONTEXT_NUMBERED = re.compile(r"^(?:Глава|ГЛАВА|Раздел|РАЗДЕЛ|Подраздел|ПОДРАЗДЕЛ)\s+[\dIVXLCМ]+")
# "2.1-1." / "1.1-1)": a part or point inserted between 2.1 and 2.2 is written with a hyphen (read as 2.1.1)
_CONTEXT_FIRST = frozenset("ГРПЧ§")
# A consultant's editorial note in a text or DOCX export, on a line of its own: "(в ред. Федерального закона от
# ...)", "(абзац введен Федеральным законом ...)". The portal marks these as notes; plain text needs the words.
# "(п. 1 в ред. ...)", "(часть 4 в ред. ...)" name what they amend first; "(см. текст в предыдущей редакции)" points
# to the consultant's archive.
EDIT_NOTE = re.compile(
    r"^\((?:(?:[^()]{0,80}?\s)?(?:в\s+ред\.|в\s+редакции\b)|[^()]{0,80}?\bвведен[аоы]?\b|см\.\s+текст\b)", re.I
)
# The same note run into the end of the paragraph it amends, as some text exports print it: "...; (в ред.
# Федерального закона от ... N 185-ФЗ)". Only the abbreviation "в ред." and "введен ... законом" mark it: an act's
# own words never abbreviate "в редакции".
INLINE_NOTE = re.compile(
    r"\((?:[^()]{0,80}?\s)?(?:в\s+ред\.\s|введен[аоы]?\s+(?:Федеральн|Постановлени|Указ|Закон))"
    r"[^()]*(?:\([^()]*\)[^()]*)*\)$"
)
# A consultant's own lines, never the act's: its comment ("КонсультантПлюс: примечание." and the one paragraph it
# introduces), its link to case law ("Позиции высших судов по ст. 187 ГК РФ >>>") and its page header.
CONSULTANT_NOTE = "КонсультантПлюс: примечание"
CONSULTANT_LINES = ("Позиции высших судов", "Документ предоставлен КонсультантПлюс", "www.consultant.ru",
                    "Дата сохранения:")
_CONSULTANT_FIRST = frozenset("КПДwСЧА")  # the first letters of _CONSULTANT_PREFIXES
# A paragraph opening with an abbreviated reference ("П. 11 ст. 189.23 ... применяется ...") is a consultant's remark:
# an act never abbreviates so at the start of a paragraph.
_REMARK = ("П. ", "Пп. ", "Ст. ", "Ч. ", "Абз. ")
# The consultant's record of a Constitutional Court ruling, run into the text as a paragraph of its own ("Части вторая
# и третья статьи 318 признаны не соответствующими Конституции ... (Постановление КС РФ ...)"): an act never says
# so of itself, and as a paragraph it would shift the count of the parts after it.
_UNCONSTITUTIONAL_FIRST = ("Часть ", "Части ", "Пункт", "Подпункт", "Абзац", "Положени")
UNCONSTITUTIONAL = re.compile(
    r"^\S+\s[^()]{0,300}?\bстать\w*\s+\d[^()]{0,300}?\bпризнан\w*\s+не\s*соответствующ\w*\s+Конституции"
)
_CONSULTANT_PREFIXES = (CONSULTANT_NOTE, *CONSULTANT_LINES, *_REMARK, *_UNCONSTITUTIONAL_FIRST)
# A plain paragraph that ends so ("... в случаях:", "...;", "..., и") runs on into the next: a list's items are
# paragraphs (абзацы) of the part that introduces them, not parts of their own.
_RUNS_ON = (":", ";", ",", " и", " или", " либо")
# "Примечание." / "Примечания. 1. ..." closes the parts of an article (УК, КоАП): what follows explains terms,
# and its own "1.", "2." are no parts of the article.
NOTE_WORD = "Примечани"
# A disposition ending with a dash ("..., -") runs on into its sanction ("наказывается ...", "влечет ..."):
# one part, as the courts count parts of the criminal and administrative codes.
_DASHES = ("-", "–", "—")
SIGNATURE = re.compile(
    r"^(?:Президент|Председатель)(?:\s+Российской\s+Федерации|\s+Верховного\s+Совета(?:\s+[А-ЯЁ]+)*)?"
    r"\s*(?:[А-ЯЁ]\.\s?[А-ЯЁ]|$)|^Москва,\s+(?:Кремль|Дом\s+Советов)"
)


@dataclass(slots=True)
class Line:
    """One paragraph on its way to units. Never changed after it is made, but not frozen: a frozen
    dataclass sets each field through ``object.__setattr__``, which on the ~50k paragraphs of the shared
    corpus cost about 5% of a full ingest."""

    text: str
    role: str | None = None  # "heading" (styled as a heading by the source), "note" (editorial note)


def inline_note_at(text: str) -> int:
    """Where a note run into the end of a paragraph starts (the space before its bracket), or 0 when none."""
    at = text.rfind(" (")
    while at > 0:  # from the right: a note may hold brackets of its own ("N 259-ФЗ (ред. 23.05.2018)")
        if INLINE_NOTE.match(text, at + 1):
            return at
        at = text.rfind(" (", 0, at)
    return 0


def clean(text: str) -> str:
    # Already clean (the rule for DOCX paragraphs): every whitespace character but the ASCII space, and the
    # zero-width space, is non-printable, so one C scan proves there is nothing to split and join.
    if "\xa0" in text:  # the portal's non-breaking space after "1.": replaced, most paragraphs are then clean
        text = text.replace("\xa0", " ")
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    if "\u200b" in text:
        text = text.replace("\u200b", "")
    return " ".join(text.split())


class _Article:
    __slots__ = ("context", "has_numbered_parts", "heading", "lines", "number", "written")

    def __init__(self, number: str, written: str, heading: str | None, context: str | None) -> None:
        self.number = number
        self.written = written
        self.heading = heading or None
        self.context = context
        self.lines: list[Line] = []
        self.has_numbered_parts = False


def _emit_article(art: _Article, out: list[Draft], seen: set[str]) -> None:
    lines = art.lines  # parse_articles only keeps lines with text
    main = [ln.text for ln in lines if ln.role != "note"]
    notes = [ln.text for ln in lines if ln.role == "note"] if len(main) != len(lines) else []
    text = "\n".join(main)
    heading = art.heading
    repealed = False
    if not main:
        repealed = any(REPEAL.search(n) for n in notes) or bool(heading and REPEAL.search(heading))
        if repealed:  # the note saying so is what a reader of the repealed article is shown
            text = "\n".join(notes) or heading or ""
    elif heading and len(heading) > 8 and REPEAL.match(heading.lstrip("(")):
        repealed = True  # "Статья 7. Утратила силу." with the note as the heading
        text = "\n".join(notes) or (heading or "")
    elif len(text) < 400 and all(only_repeal(t) for t in main):
        repealed = True
    if heading and heading.startswith("(") and REPEAL.search(heading):
        repealed = True
    number = art.number
    if number in seen:
        return
    seen.add(number)
    context = art.context
    out.append(draft(number, number, "article", art.written, heading, text,
                       REPEALED if repealed else IN_FORCE, context))
    if repealed or not main:
        return
    note_lines: list[str] = []
    if NOTE_WORD in text:  # a C scan of the joined text spares the line loop in nearly every article
        at = next((i for i, t in enumerate(main) if t.startswith(NOTE_WORD)), None)
        if at is not None:
            main, note_lines = main[:at], main[at:]
    numbered = any(t[0].isdigit() and PART.match(t) for t in main)
    part: str | None = None
    point: str | None = None
    part_unit: Draft | None = None  # its text grows with the lines that follow it until the next part
    part_lines: list[str] = []
    # a point that introduces a list ("1) застройщик - хозяйственное общество:") keeps its letters and the
    # paragraphs of its list, as its part does
    point_unit: Draft | None = None
    point_lines: list[str] | None = None  # made when the point runs on past its own line
    repealed_parts: list[tuple[Draft, list[str]]] = []  # parts that open with a repeal note, and all their lines
    plain_count = 0
    # Units are appended inline (a path seen before is skipped): this loop runs once per paragraph of the
    # corpus, and helper calls here were a measurable share of the ingest.
    for t in main:
        # a marker opens with a digit ("1.", "1)") or is a letter and ")": most lines need no regex at all
        digit = t[0].isdigit()
        m = PART.match(t) if numbered and digit else None
        if m:
            g = m.group(1)
            if t[m.end()] in "-–—" or ("-" in g and hyphen_range(g)):
                m = None  # "2.-4." / "2-3.": a range, read below
        if m:
            if part_unit is not None:
                part_unit[DRAFT_TEXT] = "\n".join(part_lines)
            part, point, point_unit = normalise_ru(g), None, None
            part_lines = [t]
            part_unit = [number, f"{number}/{part}", "part", g, None, t, unit_status(t), context]
            if part_unit[6] is REPEALED:
                repealed_parts.append((part_unit, part_lines))
            if part_unit[1] not in seen:  # its path
                seen.add(part_unit[1])
                out.append(part_unit)
            continue
        m = POINT.match(t) if digit else None
        if m and "-" in m.group(1) and hyphen_range(m.group(1)):
            m = None  # "6-7)": a range, read below
        if m:
            point = normalise_ru(m.group(1))
            sub = f"{number}/{part}/{point}" if part else f"{number}/{point}"
            if part:
                part_lines.append(t)
            point_unit, point_lines = [number, sub, "point", m.group(1) + ")", None, t, unit_status(t), context], None
            if sub not in seen:
                seen.add(sub)
                out.append(point_unit)
            continue
        m = RANGE.match(t) if digit else None
        if m and (m.group(3) == ")" or numbered):  # "2 - 3. Утратили силу.": a unit for each number
            a, b = m.group(1), m.group(2)
            nums = ([str(n) for n in range(int(a), int(b) + 1)] if a.isdecimal() and b.isdecimal() and 0 < int(b) - int(a) < 50
                    else [normalise_ru(a), normalise_ru(b)])
            written, status = m.group(0).strip(), unit_status(t)
            if m.group(3) == ".":
                if part_unit is not None:
                    part_unit[DRAFT_TEXT] = "\n".join(part_lines)
                base, kind = number, "part"
                part, point, point_unit, part_lines = nums[-1], None, None, [t]
            else:
                base, kind = (f"{number}/{part}" if part else number), "point"
                if part:
                    part_lines.append(t)
                point, point_unit = nums[-1], None
            for n in nums:
                path = f"{base}/{n}"
                unit: Draft = [number, path, kind, written, None, t, status, context]
                if path not in seen:
                    seen.add(path)
                    out.append(unit)
            if kind == "part":
                part_unit = unit
            continue
        m = LETTER.match(t) if not digit and (t[1:2] == ")" or (t[1:2] == "." and t[2:3].isdigit())) else None
        if m:
            base = f"{number}/{part}" if part else number
            base = f"{base}/{point}" if point else base
            sub = f"{base}/{m.group(1)}"
            if part:
                part_lines.append(t)
            if point_unit is not None:
                point_lines = point_lines or [point_unit[DRAFT_TEXT]]
                point_lines.append(t)
                point_unit[DRAFT_TEXT] = "\n".join(point_lines)
            if sub not in seen:
                seen.add(sub)
                out.append([number, sub, "letter", m.group(1) + ")", None, t, unit_status(t), context])
            continue
        if point_unit is not None:
            if point_lines[-1].endswith(_RUNS_ON) if point_lines else point_unit[DRAFT_TEXT].endswith(":"):
                point_lines = point_lines or [point_unit[DRAFT_TEXT]]
                point_lines.append(t)
                point_unit[DRAFT_TEXT] = "\n".join(point_lines)
            else:
                point_unit = None
        if numbered:
            if part:
                part_lines.append(t)
            continue
        if part_unit is not None:
            last = part_lines[-1]
            if last.endswith(_RUNS_ON) or (last.endswith(_DASHES) and last[-2:-1] == " "):
                part_lines.append(t)
                continue
            part_unit[DRAFT_TEXT] = "\n".join(part_lines)
        plain_count += 1
        part, point, point_unit = str(plain_count), None, None
        part_lines = [t]
        part_unit = [number, f"{number}/{part}", "part", part, None, t, unit_status(t), context]
        if part_unit[6] is REPEALED:
            repealed_parts.append((part_unit, part_lines))
        if part_unit[1] not in seen:
            seen.add(part_unit[1])
            out.append(part_unit)
    if part_unit is not None:
        part_unit[DRAFT_TEXT] = "\n".join(part_lines)
    for unit, unit_lines in repealed_parts:  # "13. Абзацы первый - двенадцатый утратили силу." and an abzats in force
        if not all(x.startswith(_REMARK) or only_repeal(x) for x in unit_lines):
            unit[6] = IN_FORCE
    if note_lines and f"{number}/note" not in seen:
        seen.add(f"{number}/note")
        out.append([number, f"{number}/note", "note", note_lines[0].split(".", 1)[0], None, "\n".join(note_lines),
                    IN_FORCE, context])


def parse_articles(lines: Iterable[Line]) -> list[Draft]:
    """Articles with their parts, points and letters; text before the first article is ignored."""
    out: list[Draft] = []
    seen: set[str] = set()
    contexts: list[str] = []
    art: _Article | None = None
    consultant = False  # the line before was "КонсультантПлюс: примечание.": this one is its comment
    heading_open = False  # the line before was a chapter or section title, which may wrap onto this one
    for ln in lines:
        t = ln.text
        if not t:
            continue
        first = t[0]
        if consultant:
            consultant = False
            if not (first == "С" and ARTICLE.match(t)):
                continue
        if first in _CONSULTANT_FIRST and t.startswith(_CONSULTANT_PREFIXES):  # one check on the common path
            if t.startswith(CONSULTANT_NOTE):
                consultant = True
                continue
            if t.startswith(_UNCONSTITUTIONAL_FIRST):
                if UNCONSTITUTIONAL.match(t):
                    continue  # "Части вторая и третья статьи 318 признаны не соответствующими Конституции ..."
            elif t.startswith(CONSULTANT_LINES) or (ln.role is None and t[t.find(" ") + 1 :][:1].isdigit()):
                continue  # the consultant's line or remark ("П. 1 ст. 5 признан ..."), not even a note
        if first in "ПМ" and SIGNATURE.match(t):
            if art is not None:
                _emit_article(art, out, seen)
            art = None
            continue
        m = ARTICLE.match(t) if first == "С" else None
        if m and (ln.role == "heading" or ln.role is None):
            if art is not None:
                _emit_article(art, out, seen)
            heading = clean(m.group(2)) or None
            if heading and heading[-1] == ")" and ("ред." in heading or "введен" in heading):
                heading = heading[: inline_note_at(heading) or len(heading)]
            art = _Article(normalise_ru(m.group(1)), m.group(1), heading, " / ".join(contexts) or None)
            continue
        if first == "С" and t.startswith("Статьи") and (r := ARTICLE_RANGE.match(t)) and REPEAL.search(r.group(3)):
            if art is not None:  # "Статьи 181 - 182. Утратили силу.": each is an article, repealed
                _emit_article(art, out, seen)
                art = None
            context = " / ".join(contexts) or None
            for n in range_numbers(r.group(1), r.group(2)):
                _emit_article(_Article(n, n, clean(r.group(3)), context), out, seen)
            continue
        if ln.role == "heading" or (ln.role is None and first in _CONTEXT_FIRST and (
            CONTEXT_NUMBERED.match(t) or (CONTEXT.match(t) and len(t) < 200)
        )):
            if ln.role == "heading" and not CONTEXT.match(t) and art is not None and not t[:1].isdigit() and t.startswith("("):
                art.lines.append(Line(t, "note"))
                continue
            _push_context(contexts, t)
            heading_open = ln.role is None
            if art is not None:
                _emit_article(art, out, seen)
                art = None
            continue
        if art is not None:
            if t[-1] == ")" and ln.role is None:
                if first == "(":
                    if EDIT_NOTE.match(t):
                        ln = Line(t, "note")
                elif ("ред." in t or "введен" in t) and (at := inline_note_at(t)):
                    art.lines.append(Line(t[:at]))
                    ln = Line(t[at + 1 :], "note")
            art.lines.append(ln)
        elif heading_open and (t.isupper() or t[0].islower()) and len(t) < 200:
            # "Глава 2. ВОЗНИКНОВЕНИЕ ... ОБЯЗАННОСТЕЙ," / "ОСУЩЕСТВЛЕНИЕ ...", and a title in ordinary case wrapped
            # over lines that go on in lower case ("§ 3. Распоряжение исключительным правом на изобретение," /
            # "полезную модель или промышленный образец"): no text stands between a heading and its first article
            contexts[-1] = f"{contexts[-1]} {t}"
        else:
            heading_open = False
    if art is not None:
        _emit_article(art, out, seen)
    return out


_LEVELS = (
    ("ЧАСТЬ", 0), ("Часть", 0), ("ОБЩАЯ ЧАСТЬ", 0), ("ОСОБЕННАЯ ЧАСТЬ", 0), ("Общая часть", 0),
    ("Особенная часть", 0), ("Раздел", 1), ("РАЗДЕЛ", 1), ("Подраздел", 2), ("ПОДРАЗДЕЛ", 2),
    ("Глава", 3), ("ГЛАВА", 3), ("§", 4), ("Параграф", 4), ("ПАРАГРАФ", 4),
)


def _level(text: str) -> int:
    for prefix, level in _LEVELS:
        if text.startswith(prefix):
            return level
    return 5


def _push_context(contexts: list[str], text: str) -> None:
    level = _level(text)
    # keep ancestors only: a new chapter replaces the previous chapter and everything below it
    while contexts and _level(contexts[-1]) >= level:
        contexts.pop()
    contexts.append(clean(text))


def lines_from_text(text: str) -> list[Line]:
    return [Line(clean(t)) for t in text.splitlines()]

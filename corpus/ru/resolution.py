"""Plenum resolutions and other Russian court documents: units are the numbered points (пункты).

A point is a paragraph opening with the next number in sequence (``12.``, ``12.1.``, ``4 - 5.``);
sequencing is what tells a point from a numbered list quoted inside one. The signature block is
cut off the last point.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from corpus.model import IN_FORCE, OMITTED, REPEALED, Draft, amend, draft, is_omission
from corpus.ru.markers import REPEAL
from corpus.ru.structure import CONSULTANT_LINES, CONSULTANT_NOTE, EDIT_NOTE, Line, clean, inline_note_at

# "12.", "12.1.", "2.1.1." (rules approved by the Government number three levels deep), "4 - 5."
POINT = re.compile(r"^(\d{1,3})(?:\.(\d{1,2}(?:\.\d{1,2})?))?(?:\s*[-–—]\s*(\d{1,3}))?\.(?:\s+|(?=[^\d\s]))")
SIGNATURE = re.compile(r"^(?:Председатель|Секретарь\s+Пленума|Судья\s+Верховного\s+Суда|Председательствующий)")
_MONTHS = {
    "января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6, "июля": 7, "августа": 8,
    "сентября": 9, "октября": 10, "ноября": 11, "декабря": 12,
}
DATE_WORDS = re.compile(r"(\d{1,2})\s+(" + "|".join(_MONTHS) + r")\s+(\d{4})", re.I)
DATE_DOTS = re.compile(r"\b(\d{2})\.(\d{2})\.(\d{4})\b")
NUMBER = re.compile(r"(?:№|\bN)\s*(\d+(?:-[А-ЯA-Z]+)?)")
PLENUM = re.compile(r"пленум", re.I)
TITLE_LINE = re.compile(r"^(?:О|ОБ|Об|О\s)\s*\S")
# the title in quotes on the header line, straight, angle or typographic ("“О ...”", "„О ...“")
QUOTED = re.compile(r"[\"«“„]((?:О|Об)\s[^\"»“”]+)[\"»”“]")


@dataclass(frozen=True)
class ResolutionMeta:
    court: str | None
    number: str | None
    date: str | None
    title: str


def iso_date(text: str) -> str | None:
    m = DATE_WORDS.search(text)
    if m:
        return f"{int(m.group(3)):04d}-{_MONTHS[m.group(2).lower()]:02d}-{int(m.group(1)):02d}"
    m = DATE_DOTS.search(text)
    if m:
        return f"{m.group(3)}-{m.group(2)}-{m.group(1)}"
    return None


def looks_like_resolution(head: str) -> bool:
    return PLENUM.search(head) is not None and re.search(r"постановлени", head, re.I) is not None


def resolution_meta(lines: Sequence[Line]) -> ResolutionMeta:
    head_lines: list[str] = []
    for ln in lines:
        if POINT.match(ln.text) and ln.text.startswith("1"):
            break
        if ln.text:
            head_lines.append(ln.text)
    head_lines = [t for t in head_lines if not t.startswith("Документ предоставлен")][:40]
    head = "\n".join(head_lines)
    court = "ВС РФ Пленум" if re.search(r"верховн\w+\s+суд", head, re.I) else None
    num = NUMBER.search(head)
    title = ""
    quoted = QUOTED.search("\n".join(head_lines[:2]))
    if quoted:
        title = clean(quoted.group(1))
    else:
        collecting: list[str] = []
        for t in head_lines:
            if collecting:
                if t.startswith(("Список изменяющих", "(в ред", "(с изм")):
                    break
                # a title in capitals goes on in capitals; a mixed-case one over short lines
                if t.isupper() or (not collecting[0].isupper() and len(t) < 120 and not t.endswith((".", ":"))):
                    collecting.append(t)
                    continue
                break
            if TITLE_LINE.match(t) and len(t) < 300 and not t.startswith("от "):
                collecting.append(t)
        title = clean(" ".join(collecting))
    # dates in amendment lists ("в ред. ... от 24.12.2020") come later than the adoption date
    date = iso_date(head.split("в ред.")[0].split("с изменени")[0])
    return ResolutionMeta(court, num.group(1) if num else None, date, title or clean(head_lines[0] if head_lines else ""))


# A heading over a group of points ("Общие положения", "Неустойка"): a short line that does not end as a sentence
# or list item does, standing right before the point it opens.
_NOT_HEADING_END = (".", ",", ";", ":", ")", "»", '"', "-", "–", "—")
# headings run long when they name a procedure ("Особенности привлечения к административной ответственности в случае
# фиксации ... средствами фото- и киносъемки, видеозаписи": some 260 characters)
_HEADING_MAX = 400


def _opens_point(m: re.Match[str] | None, t: str, last: int, started: bool) -> bool:
    """Whether a numbered line is the next point: next in sequence, and a sentence (a list quoted inside a point
    numbers its items the same way, but they go on in lower case: "1. наличие у него убытков;")."""
    if m is None or t[m.end() : m.end() + 1].islower():
        return False
    base, sub = int(m.group(1)), m.group(2)
    if sub is None:
        return base == last + 1 and (started or base == 1)
    return base in (last, last + 1) and started


def _is_heading(t: str, nxt: str, last: int, started: bool) -> bool:
    return (len(t) < _HEADING_MAX and t[:1].isupper() and not t.endswith(_NOT_HEADING_END)
            and _opens_point(POINT.match(nxt), nxt, last, started))


def _act_texts(lines: Sequence[Line]) -> list[str]:
    """The paragraphs with text, without the consultant's lines: its comment ("КонсультантПлюс: примечание." and the
    paragraph after it), its case-law links and page header are not the court's words, nor are its amendment notes,
    on a line of their own ("(абзац введен Постановлением Пленума Верховного Суда РФ от ...)", "(п. 2 в ред. ...)")
    or run into the end of a paragraph, as in the codes' text exports."""
    texts: list[str] = []
    comment = False
    for ln in lines:
        t = ln.text
        if not t:
            continue
        if comment:
            comment = False
            if not POINT.match(t):
                continue
        if t.startswith(CONSULTANT_NOTE):
            comment = True
        elif t[-1] == ")" and ("ред" in t or "введен" in t or "см. текст" in t):
            if t[0] == "(" and EDIT_NOTE.match(t):
                continue
            texts.append(t[: inline_note_at(t) or len(t)])
        elif not t.startswith(CONSULTANT_LINES):
            texts.append(t)
    return texts


def parse_points(lines: Sequence[Line]) -> list[Draft]:
    units: list[Draft] = []
    last = 0
    current: list[str] | None = None
    started = False
    context: str | None = None
    texts = _act_texts(lines)

    def close() -> None:
        if current is not None and units:
            tail = units[-len(group) :] if group else []
            text = "\n".join(current)
            for u in tail:
                amend(u, "text", text)
                if len(text) < 400 and REPEAL.search(text):
                    amend(u, "status", REPEALED)
                elif is_omission(text):
                    amend(u, "status", OMITTED)

    group: list[Draft] = []
    for i, t in enumerate(texts):
        m = POINT.match(t)
        if m:
            base, sub, to = int(m.group(1)), m.group(2), m.group(3)
            if _opens_point(m, t, last, started):
                close()
                started = True
                written = m.group(0).strip().rstrip(".").strip()
                if sub is not None:
                    numbers = [f"{base}." + ".".join(str(int(n)) for n in sub.split("."))]
                elif to is not None and int(to) > base:
                    numbers = [str(n) for n in range(base, int(to) + 1)]
                else:
                    numbers = [str(base)]
                last = int(to) if to is not None and sub is None and int(to) > base else base
                group = [draft(n, n, "point", written, None, t, IN_FORCE, context) for n in numbers]
                units.extend(group)
                current = [t]
                continue
        if i + 1 < len(texts) and texts[i + 1][:1].isdigit() and _is_heading(t, texts[i + 1], last, started):
            context = clean(t)
            continue
        if current is not None:
            if SIGNATURE.match(t):
                close()
                current = None
                group = []
                continue
            current.append(t)
    close()
    return units

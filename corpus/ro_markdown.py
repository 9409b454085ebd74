"""Romanian codes converted from PDF to Markdown.

Articles are Markdown headings (``###### Art. 1.272`` or ``##### Articolul 5 — Title``); higher
headings (CARTEA, TITLUL, CAPITOLUL, SECȚIUNEA) are context. PDF conversion leaves wrapped lines,
page numbers and, in codes printed with marginal titles, the title of the next article as the last
short lines before its heading; those are moved back to the article they name.
"""

from __future__ import annotations

import re

from corpus.model import Draft
from corpus.numbering import normalise_ro
from corpus.ro_text import AFTER_MARKER_LETTER, MARKER_LETTERS, article_units, unify

ARTICLE = re.compile(
    r"^(?:Art\.|Articolul|ARTICOLUL|Articol)\s*(\d+(?:\.\d{3})?(?:\s*\^\s*\d+)?)\s*(?:[—–-]\s*(.*))?$", re.I
)
UNIC = re.compile(r"^Articol(?:ul)?\s+unic\b", re.I)
NOTE = re.compile(r"^\(la data \d")
_PARA_START = re.compile(
    r"\(\d+(?:\^\d+)?\)\s*|[a-zăâîșț](?:\^\d+)?\)\s*|\d+(?:\^\d+)?\.\s+|\(la data \d"
)  # ALINEAT | LITERA | PUNCT | NOTE in one pass
SIGNATURE = re.compile(r"^(?:PREȘEDINTELE|PREŞEDINTELE)(?:\s+(?:CAMEREI|SENATULUI|ROMÂNIEI)|\s*$)|^Această lege a fost adoptată")
_NOTE_OR_PAGE_FIRST = frozenset("(Pp")  # or a digit: what NOTE and PAGE can start with
PAGE = re.compile(r"^\d{1,4}$|^Pagina \d+", re.I)
_TERMINAL = (".", ";", ":", "!", "?", ")", "”", '"', "»")


def _paragraphs(lines: list[str]) -> list[str]:
    """Undo PDF line wrapping: a new paragraph starts at a marker ``(2)``, ``a)``, ``1.`` or a blank line."""
    paras: list[str] = []
    current = ""
    for raw in lines:
        line = raw.strip()
        if not line:
            if current:
                paras.append(current)
                current = ""
            continue
        if line[0] in "PA" and SIGNATURE.match(line):
            break
        first = line[0]
        if not current or ((first == "(" or first.isdigit() or (first in MARKER_LETTERS and line[1:2] in AFTER_MARKER_LETTER))
                           and _PARA_START.match(line)):
            if current:
                paras.append(current)
            current = line
        elif current.endswith("-") and line[:1].islower():
            current += line
        else:
            current += " " + line
    if current:
        paras.append(current)
    return paras


def _split_margin_title(lines: list[str], after_context: bool) -> tuple[list[str], list[str], list[str]]:
    """(body, title of the next article, trailing context title) from an article's raw lines."""
    content = [ln.strip() for ln in lines]
    while content and not content[-1]:
        content.pop()
    i = len(content)
    while i > 0 and content[i - 1] and len(content[i - 1]) <= 50 and len(content) - i < 5:
        i -= 1
    start = None
    for j in range(i, len(content)):
        prev = content[j - 1] if j > 0 else ""
        if content[j][:1].isupper() and (not prev or prev.endswith(_TERMINAL)):
            start = j
            break
    if start is None:
        return content, [], []
    title = content[start:]
    body = content[:start]
    ctx: list[str] = []
    if after_context and not any(b for b in body) and len(title) > 1:
        ctx, title = title[:1], title[1:]
    return body, title, ctx


_TITLE_LIKE = re.compile(r"^[A-ZĂÂÎȘȚ][^.;:]{0,78}$")


def _heading(raw: str) -> tuple[int, str]:
    """(level, text) of a Markdown heading line: up to six '#', the text stripped (a lazy regex for this
    backtracked over every character of every heading)."""
    level = min(len(raw) - len(raw.lstrip("#")), 6)
    return level, raw[level:].strip()


def _titles_follow_headings(lines: list[str], heads: list[int]) -> bool:
    """Which layout the PDF had: the article title printed after its heading (a short line without a
    full stop right below it) or in the margin (ending up before the next heading, as in the civil code)."""
    after = before = 0
    for i in heads:
        a = ARTICLE.match(_heading(lines[i])[1])
        if a is None or a.group(2):
            continue
        nxt = next((ln.strip() for ln in lines[i + 1 : i + 4] if ln.strip()), "")
        if _TITLE_LIKE.match(nxt):
            after += 1
        else:
            before += 1
        if after + before >= 60:
            break
    return after > before


def parse_markdown(text: str) -> tuple[str, list[Draft]]:
    """Return (document title, units)."""
    text = unify(text)
    all_lines = text.splitlines()
    heads = [i for i, raw in enumerate(all_lines) if raw[:1] == "#"]
    titles_after = _titles_follow_headings(all_lines, heads)
    out: list[Draft] = []
    seen: set[str] = set()
    contexts: list[tuple[int, str]] = []
    title = ""
    current: tuple[str, str, str | None, str | None] | None = None
    buf: list[str] = []
    after_context = False
    context_s: str | None = None  # " / ".join of contexts, kept in step with every change to them

    def finish(next_has_title: bool) -> list[str]:
        nonlocal buf, context_s
        body: list[str] = buf
        margin: list[str] = []
        ctx: list[str] = []
        if not next_has_title and not titles_after:
            body, margin, ctx = _split_margin_title(buf, after_context and current is None)
        if ctx and contexts:
            contexts[-1] = (contexts[-1][0], contexts[-1][1] + " — " + " ".join(ctx))
            context_s = " / ".join(c for _, c in contexts)
        if current is not None:
            number, written, heading, ctx_s = current
            if titles_after and heading is None:
                first = next((i for i, ln in enumerate(body) if ln.strip()), None)
                if first is not None and _TITLE_LIKE.match(body[first].strip()):
                    heading, body = body[first].strip(), body[first + 1 :]
            paras = [p for p in _paragraphs(body)
                     if not (p[0] in _NOTE_OR_PAGE_FIRST or p[0].isdigit()) or not (NOTE.match(p) or PAGE.match(p))]
            article_units(number, written, heading, paras, ctx_s, seen, out)
        buf = []
        return margin

    # lines between headings are copied as slices: only the few heading lines are looked at one by one
    start = 0
    for i in heads:
        buf.extend(all_lines[start:i])
        start = i + 1
        level, content = _heading(all_lines[i])
        a = ARTICLE.match(content)
        if a or UNIC.match(content):
            inline = a.group(2) if a else None
            margin = finish(bool(inline))
            if a:
                written = a.group(1).replace(" ", "")
                number = normalise_ro(written)
            else:
                written, number = "unic", "unic"
            heading = inline.strip() if inline else (" ".join(margin) or None)
            current = (number, written, heading, context_s or None)
            after_context = False
            continue
        if level == 1 and not title:
            title = content
            continue
        finish(True)
        current = None
        while contexts and contexts[-1][0] >= level:
            contexts.pop()
        contexts.append((level, content))
        context_s = " / ".join(c for _, c in contexts)
        after_context = True
    buf.extend(all_lines[start:])
    finish(True)
    return title, out

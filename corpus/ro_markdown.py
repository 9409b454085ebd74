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
from corpus.ro_text import article_units, unify

ARTICLE = re.compile(
    r"^(?:Art\.|Articolul|ARTICOLUL|Articol)\s*(\d+(?:\.\d{3})?(?:\s*\^\s*\d+)?)\s*(?:[—–-]\s*(.*))?$", re.I
)
UNIC = re.compile(r"^Articol(?:ul)?\s+unic\b", re.I)
NOTE = re.compile(r"^\(la data \d")
SIGNATURE = re.compile(r"^(?:PREȘEDINTELE|PREŞEDINTELE)(?:\s+(?:CAMEREI|SENATULUI|ROMÂNIEI)|\s*$)|^Această lege a fost adoptată")
_NOTE_OR_PAGE_FIRST = frozenset("(Pp")  # or a digit: what NOTE and PAGE can start with
PAGE = re.compile(r"^\d{1,4}$|^Pagina \d+", re.I)
_TERMINAL = (".", ";", ":", "!", "?", ")", "”", '"', "»")


_SIGNATURE_WORDS = ("PREȘEDINTELE", "PREŞEDINTELE", "Această lege a fost adoptată")
# An article heading becomes this line in the joined text: splitlines() breaks at U+001C, so no line of the
# document can hold it, and it marks where one article's paragraphs end and the next one's begin.
_ARTICLE_MARK = "\x1c"
# where a wrapped line starts a new paragraph: a blank line, an article mark (before or after it), or a
# line opening with a marker ``(2)``, ``a)``, ``1.`` (its whitespace on the same line) or a note ``(la data 1``
_PARA_BREAK = re.compile(
    r"\n(?:\n+|(?<=\x1c\n)|(?=\x1c|\(\d+(?:\^\d+)?\)|[a-zăâîșț](?:\^\d+)?\)|\d+(?:\^\d+)?\.[^\S\n]|\(la data \d))"
)
_HYPHEN_BREAK = re.compile(r"(?<=-)\n(?=(.))")


def _hyphen_join(m: re.Match[str]) -> str:
    return "" if m.group(1).islower() else " "


def _first_signature_line(text: str) -> int:
    """A line number at or before the first line that may be a signature (len(text) if there is none): the
    blocks before it need no search. Counted by newlines, never more than the splitlines() index."""
    found = [p for p in (text.find(w) for w in _SIGNATURE_WORDS) if p >= 0]
    return text.count("\n", 0, min(found)) if found else len(text)


def _split_margin_title(lines: list[str], s: int, e: int) -> tuple[int, int, int]:
    """Where the title of the next article starts among the stripped ``lines[s:e]`` of one article:
    (end of body, start of title, end of title), start == end if there is none."""
    n = e
    while n > s and not lines[n - 1]:
        n -= 1
    i = n
    while i > s and lines[i - 1] and len(lines[i - 1]) <= 50 and n - i < 5:
        i -= 1
    for j in range(i, n):
        prev = lines[j - 1] if j > s else ""
        if lines[j][:1].isupper() and (not prev or prev.endswith(_TERMINAL)):
            return j, j, n
    return n, n, n


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
    """Return (document title, units).

    Two passes: the headings decide, block by block, which stripped lines belong to an article's body
    (margin titles, titles after headings, signatures and whole context blocks become blank lines, article
    headings a mark); then one regex split of the joined lines undoes the PDF wrapping of every paragraph
    at once, instead of Python work on every line."""
    text = unify(text)
    raw_lines = text.splitlines()
    heads = [i for i, raw in enumerate(raw_lines) if raw[:1] == "#"]
    titles_after = _titles_follow_headings(raw_lines, heads)
    lines = [ln.strip() for ln in raw_lines]
    signature_from = _first_signature_line(text)
    articles: list[tuple[str, str, str | None, str | None]] = []
    contexts: list[tuple[int, str]] = []
    title = ""
    current: tuple[str, str, str | None, str | None] | None = None
    after_context = False
    context_s: str | None = None  # " / ".join of contexts, kept in step with every change to them

    def finish(s: int, e: int, next_has_title: bool) -> list[str]:
        """Close the block ``lines[s:e]``, blanking what is no article body; returns the next article's
        margin title."""
        nonlocal context_s
        margin: list[str] = []
        end = e
        if not next_has_title and not titles_after:
            e, t, te = _split_margin_title(lines, s, e)
            if t < te:
                margin = lines[t:te]
                if after_context and current is None and te - t > 1 and not any(lines[s:e]):
                    margin = margin[1:]
                    if contexts:
                        contexts[-1] = (contexts[-1][0], contexts[-1][1] + " — " + lines[t])
                        context_s = " / ".join(c for _, c in contexts)
        if current is None:
            e = s
        else:
            number, written, heading, ctx_s = current
            if titles_after and heading is None:
                first = next((j for j in range(s, e) if lines[j]), None)
                if first is not None and _TITLE_LIKE.match(lines[first]):
                    heading = lines[first]
                    lines[first] = ""
            if e > signature_from:
                e = next((j for j in range(s, e) if lines[j][:1] in "PA" and SIGNATURE.match(lines[j])), e)
            articles.append((number, written, heading, ctx_s))
        if e < end:
            lines[e:end] = [""] * (end - e)
        return margin

    start = 0
    for i in heads:
        s, start = start, i + 1
        raw = raw_lines[i]
        level = len(raw) - len(raw.lstrip("#"))  # _heading, inlined: once per heading
        if level > 6:
            level = 6
        content = raw[level:].strip()
        a = ARTICLE.match(content)
        if a or UNIC.match(content):
            inline = a.group(2) if a else None
            margin = finish(s, i, bool(inline))
            lines[i] = _ARTICLE_MARK
            if a:
                written = a.group(1).replace(" ", "")
                number = written if written.isdecimal() else normalise_ro(written)
            else:
                written, number = "unic", "unic"
            heading = inline.strip() if inline else (" ".join(margin) or None)
            current = (number, written, heading, context_s or None)
            after_context = False
            continue
        if level == 1 and not title:
            title = content
            # the title heading does not end the block: the lines before it move down over it
            lines[s + 1 : i + 1] = lines[s:i]
            lines[s] = ""
            start = s + 1
            continue
        finish(s, i, True)
        lines[i] = ""
        current = None
        while contexts and contexts[-1][0] >= level:
            contexts.pop()
        contexts.append((level, content))
        context_s = " / ".join(c for _, c in contexts)
        after_context = True
    finish(start, len(lines), True)

    out: list[Draft] = []
    seen: set[str] = set()
    arts = iter(articles)
    art: tuple[str, str, str | None, str | None] | None = None
    paras: list[str] = []
    for p in _PARA_BREAK.split("\n".join(lines)):
        if not p:
            continue
        if p == _ARTICLE_MARK:
            if art is not None:
                article_units(art[0], art[1], art[2], paras, art[3], seen, out)
            art, paras = next(arts), []
            continue
        p = p.replace("\n", " ") if "-\n" not in p else _HYPHEN_BREAK.sub(_hyphen_join, p).replace("\n", " ")
        if not (p[0] in _NOTE_OR_PAGE_FIRST or p[0].isdigit()) or not (NOTE.match(p) or PAGE.match(p)):
            paras.append(p)
    if art is not None:
        article_units(art[0], art[1], art[2], paras, art[3], seen, out)
    return title, out

"""Romanian codes converted from PDF to Markdown.

Articles are Markdown headings (``###### Art. 1.272`` or ``##### Articolul 5 — Title``); higher
headings (CARTEA, TITLUL, CAPITOLUL, SECȚIUNEA) are context. PDF conversion leaves wrapped lines,
page numbers and, in codes printed with marginal titles, the title of the next article as the last
short lines before its heading; those are moved back to the article they name. Consolidated texts add
titles wrapped below their heading or run into the first line, superscript indexes flattened into digits
("Articolul 151" for 15^1, "(11" + ")" for alin. (1^1)), footnotes ``*)`` and dated amendment notes
after a unit: the titles become headings, the indexes are put back, the notes are no text.
"""

from __future__ import annotations

import re

from corpus.model import Draft
from corpus.numbering import normalise_ro
from corpus.ro.superscripts import join_superscripts, unflatten_articles
from corpus.ro.text import article_units, unify

# the number may carry an index (``8^1``, ``8¹``) and a footnote mark (``Articolul 10 *)``) before its title
ARTICLE = re.compile(
    r"^(?:Art\.|Articolul|ARTICOLUL|Articol)\s*(\d+(?:\.\d{3})?(?:\s*\^\s*\d+|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)?)\s*(?:\*+\)\s*)?"
    r"(?:[—–-]\s*(.*))?$",
    re.I,
)
UNIC = re.compile(r"^Articol(?:ul)?\s+unic\b", re.I)
# an article of an annex ("###### Articol anexă 1" under "## ANEXA Nr. 1"): a unit of that annex, anexa-1/1, not
# another article 1 of the act
ANNEX_ARTICLE = re.compile(r"^Articol(?:ul)?\s+(?:din\s+)?anex[ăa]\s+(\d+(?:\^\d+)?)\s*(?:[—–-]\s*(.*))?$", re.I)
_ANNEX = re.compile(r"^ANEXA\s+(?:NR\.\s*)?(\d+)", re.I)
# editorial notes of a consolidation: "(la data 1-ian-2020 ...)" and "28/07/2022 - litera a fost abrogată prin ..."
NOTE = re.compile(r"^\(la data \d|^\d\d/\d\d/\d{4} - ")
# the closing formula and signatures of a law ("PREȘEDINTELE CAMEREI ...") or of a Government act ("PRIM-MINISTRU")
SIGNATURE = re.compile(r"^(?:PREȘEDINTELE|PREŞEDINTELE)(?:\s+(?:CAMEREI|SENATULUI|ROMÂNIEI)|\s*$)|^Această lege a fost adoptată"
                       r"|^PRIM-MINISTRU\s*$")
_NOTE_OR_PAGE_FIRST = frozenset("(Pp")  # or a digit: what NOTE and PAGE can start with
PAGE = re.compile(r"^\d{1,4}$|^Pagina \d+", re.I)
_TERMINAL = (".", ";", ":", "!", "?", ")", "”", '"', "»")


_SIGNATURE_WORDS = ("PREȘEDINTELE", "PREŞEDINTELE", "Această lege a fost adoptată", "PRIM-MINISTRU")
# An article heading becomes this line in the joined text: splitlines() breaks at U+001C, so no line of the
# document can hold it, and it marks where one article's paragraphs end and the next one's begin.
_ARTICLE_MARK = "\x1c"
# where a wrapped line starts a new paragraph: a blank line, an article mark (before or after it), or a
# line opening with a marker ``(2)``, ``(2^1)``, ``(1.1)``, ``a)``, ``aa)``, ``1.``, ``6.1.`` (its whitespace on the same
# line; a wrapped reference "(2)-(4)" or "a), g)", or an alineat's "(2)" whose "alin." ends the line above, is no
# marker), a note ``(la data 1`` or ``28/07/2022 - `` (unless it stands for the text of a bare marker ``e)``
# above it) or a footnote ``*)``
_PARA_BREAK = re.compile(
    r"\n(?:\n+|(?<=\x1c\n)|(?=\x1c|\((?<!alin\.\n\()\d+(?:[\^.]\d+)?\)(?![-–,;.])|[a-zăâîșț]{1,2}(?:\^\d+)?\)(?![-–,;.])"
    r"|\d+(?:[\^.]\d+)*\.[^\S\n]|\(la data \d)"
    r"|(?=\d\d/\d\d/\d{4} - |\*+\))(?<!\n[a-zăâîșț]\)\n)(?<!\n[a-z][a-z]\)\n)(?<!\n\(\d\)\n)(?<!\n\(\d\d\)\n))"
)
# A marker whose index the PDF set as a superscript comes apart: "(1" + "1" then ")" on the next line for
# alin. (1^1), "20" + "1" then "." for pct. 20^1, "a", "1", ")" on three lines for lit. a^1). Each is found
# from the "\n)" or "\n." it ends in (one scan for the two characters), then what stands before that.
_NORMS_LINK = " Norme metodologice\n"
# a footnote of a consolidated text: "*) Reproducem mai jos ...", after the unit it annotates
_FOOTNOTE = re.compile(r"^\*+\)")
_MARKER = re.compile(r"^(?:\((\d+)(?:\^(\d+))?\)|(\d+)(?:\^(\d+))?\.|([a-zăâîșț])(?:\^(\d+))?\))")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _resuming(paras: list[str]) -> frozenset[str]:
    """The markers that continue the article after a footnote: those that may follow its last marker of
    each kind ("(3)" -> "(4)" or "(3^1)"; "1." -> "2." or "1^1."; "a)" -> "b)" or "a^1)"); none if it has no
    marker. After "(1)" and its "11." the article resumes at "12." or at "(2)"."""
    found: set[str] = set()
    kinds: set[int] = set()
    for p in reversed(paras):
        m = _MARKER.match(p)
        if m is None:
            continue
        kind = 1 if m.group(1) else 3 if m.group(3) else 5
        if kind in kinds:
            continue
        kinds.add(kind)
        if kind == 1:
            n, i = int(m.group(1)), int(m.group(2) or 0)
            found.update((f"({n + 1})", f"({n}^{i + 1})"))
            break  # an alineat encloses the points and letters after it: none before it can resume
        if kind == 3:
            n, i = int(m.group(3)), int(m.group(4) or 0)
            found.update((f"{n + 1}.", f"{n}^{i + 1}."))
        else:
            letter, i = m.group(5), int(m.group(6) or 0)
            k = _LETTERS.find(letter)
            found.update((_LETTERS[k + 1 : k + 2] + ")" if k >= 0 else "", f"{letter}^{i + 1})"))
    return frozenset(found)


def _quotes_open(p: str, before: int) -> int:
    """How many quotations are open after ``p``: "..." pairs, „...” nested."""
    straight = p.count('"')
    depth = before + p.count("„") - p.count("”")
    if straight % 2:
        depth = depth - 1 if depth > 0 and before > 0 else depth + 1
    return max(depth, 0)


_HYPHEN_BREAK = re.compile(r"(?<=-)\n(?=(.))")


def _hyphen_join(m: re.Match[str]) -> str:
    return "" if m.group(1).islower() else " "


def _first_signature_line(text: str) -> int:
    """A line number at or before the first line that may be a signature (len(text) if there is none): the
    blocks before it need no search. Counted by newlines, never more than the splitlines() index."""
    found = [p for p in (text.find(w) for w in _SIGNATURE_WORDS) if p >= 0]
    return text.count("\n", 0, min(found)) if found else len(text)


def _split_margin_title(lines: list[str], s: int, e: int, need_body: bool) -> tuple[int, int, int]:
    """Where the title of the next article starts among the stripped ``lines[s:e]`` of one article:
    (end of body, start of title, end of title), start == end if there is none. With ``need_body`` the block
    is an article's, which keeps at least its first line."""
    n = e
    while n > s and not lines[n - 1]:
        n -= 1
    i = n
    while i > s and lines[i - 1] and len(lines[i - 1]) <= 50 and n - i < 5:
        i -= 1
    for j in range(i, n):
        prev = lines[j - 1] if j > s else ""
        if lines[j][:1].isupper() and (not prev or prev.endswith(_TERMINAL)):
            if need_body and not any(lines[s:j]):
                continue  # an article's whole text ("Abrogat.", one short sentence) is no title of the next
            return j, j, n
    return n, n, n


# A division printed as a plain line, not a Markdown heading ("SUBSECȚIUNEA 2", "Capitolul I", "Secțiunea a 2-a"),
# its name mostly on the next line: context, as a heading is. Found by one scan of the text (they are few), its
# first character a class, so that the scan costs little more than finding the newlines.
_DIVISION_LINE = re.compile(
    r"\n([SCTP](?:UBSEC[ȚT]IUNEA|ubsec[țt]iunea|EC[ȚT]IUNEA|ec[țt]iunea|APITOLUL|apitolul|ITLUL|itlul|ARTEA|artea))"
    r"[^\S\n]+(?:[IVXLC]+|\d+(?:\^\d+)?|[aA][^\S\n]+[\dIVXLC]+-[aA]|unic[ăa]?|UNIC[ĂA]?)(?=[^\S\n]*(?:[—–-][^\n]*)?\n)"
)
_NUMERAL_ENDS = tuple("IVXLC0123456789aAăĂ")
_DIVISION_RANK = {"CARTEA": 0, "PARTEA": 0, "TITLUL": 1, "CAPITOLUL": 2, "SECTIUNEA": 3, "SUBSECTIUNEA": 4}


def _division_rank(content: str) -> int | None:
    return _DIVISION_RANK.get(content.split(" ", 1)[0].upper().replace("Ț", "T"))


def _division_lines(text: str) -> list[int]:
    """The line numbers of divisions printed as plain lines."""
    found: list[int] = []
    line = done = 0
    for m in _DIVISION_LINE.finditer(text):
        line += text.count("\n", done, m.start() + 1)
        done = m.start() + 1
        found.append(line)
    return found


_TITLE_LIKE = re.compile(r"^[A-ZĂÂÎȘȚ][^.;:]{0,78}$")
# a title printed on the first line of the text, run into it: "Obiectul de reglementare (1) Prezentul cod ...",
# or with the "(1)" last on the line and its text on the next one
_TITLE_THEN_ALINEAT = re.compile(r"^([A-ZĂÂÎȘȚ][^.;:()]{2,160}?) (\(1\)(?: .*)?)$")


def _has_first_alineat(line: str) -> bool:
    return "(1) " in line or line.endswith(" (1)")


def _title_before_alineat(lines: list[str], first: int, e: int) -> str | None:
    """The title run into the first line of an article's text before its "(1)", possibly wrapped over two
    lines; that line is left holding the alineat only."""
    line = lines[first]
    if _has_first_alineat(line):
        m = _TITLE_THEN_ALINEAT.match(line)
        if m is None:
            return None
        lines[first] = m.group(2)
        return m.group(1)
    nxt = first + 1
    if nxt < e and _has_first_alineat(lines[nxt]) and line[:1].isupper() and not line.endswith(_TERMINAL):
        m = _TITLE_THEN_ALINEAT.match(line + " " + lines[nxt])
        if m is not None and len(m.group(1)) > len(line):
            lines[first] = ""
            lines[nxt] = m.group(2)
            return m.group(1)
    return None


def _title_continued(lines: list[str], first: int, e: int, heading: str) -> str:
    """A heading's title wrapped onto the line below it ("Articolul 2 — Impozitele ... obligatorii" then
    "reglementate de Codul fiscal"): a lower-case line that is no sentence end nor marker and after which
    the text opens anew (a marker, a capital or nothing); a text that merely starts in lower case goes on.
    A title may take two such short lines ("potrivit art. 40" then "din Codul fiscal"), the second even in capitals
    when the article's "(1)" follows it ("... consiliilor locale/" then "Consiliului General ...")."""
    line = lines[first]
    if line.endswith(_TERMINAL) or line[1:2] in (")", "^"):
        return heading
    nxt = next((j for j in range(first + 1, e) if lines[j]), None)
    if nxt is not None and lines[nxt][:1] != "(":
        second = lines[nxt]
        after = next((lines[j] for j in range(nxt + 1, e) if lines[j]), "")
        lower = second[:1].islower()
        if (len(line) > 75 or len(second) > 75 or second.endswith(_TERMINAL)
                or not (after.startswith("(1)") or (lower and (after[:1] == "(" or after[:1].isupper())))):
            if lower:
                return heading
        else:
            lines[nxt] = ""
            line += ("" if line.endswith("/") else " ") + second
    lines[first] = ""
    return heading + " " + line


def _plain_division(lines: list[str], s: int, i: int, after_heading: bool, contexts: list[tuple[float, str]]) -> str:
    """Put the division printed as the plain line ``lines[i]`` among the ``contexts``, named by the line after it
    (which is blanked) unless it names itself; returns the contexts joined. Right after a heading the lines
    ``lines[s:i]`` are that heading's name ("### TITLUL VIII", "Posesia", "Capitolul I")."""
    content = lines[i]
    names = [ln for ln in lines[s:i] if ln]
    if after_heading and contexts and 0 < len(names) <= 2 and " — " not in contexts[-1][1]:
        contexts[-1] = (contexts[-1][0], contexts[-1][1] + " — " + " ".join(names))
        lines[s:i] = [""] * (i - s)
    if content.endswith(_NUMERAL_ENDS):  # no name on its line: the next line is it
        nxt = next((j for j in range(i + 1, min(i + 3, len(lines))) if lines[j]), None)
        if nxt is not None and lines[nxt][:1] not in "#(" and len(lines[nxt]) <= 200 and not _DIVISION_LINE.match(
                "\n" + lines[nxt] + "\n"):
            content += " — " + lines[nxt]
            lines[nxt] = ""
    rank = _division_rank(content)
    level = 6.5  # under every heading, unless a division of a higher rank encloses it
    for lv, c in reversed(contexts):
        r = _division_rank(c)
        if r is not None and rank is not None and r <= rank:
            level = lv if r == rank else lv + 0.5
            break
    while contexts and contexts[-1][0] >= level:
        contexts.pop()
    contexts.append((level, content))
    return " / ".join(c for _, c in contexts)


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


_TITLE_HEAD = 4000


def _join_split_title(text: str) -> str:
    """The title as one heading, where a PDF conversion split it: "# CODUL DE PROCEDURĂ" then "# CIVILĂ" (a blank
    line between or not), or a heading wrapped onto the next line ("# Codul de procedură" / "civilă"). A line
    goes on the title in its case: capitals after capitals, lower case after a title in mixed case."""
    head, rest = text[:_TITLE_HEAD], text[_TITLE_HEAD:]  # the title is near the top: never split the whole text
    lines = head.split("\n")
    first = next((i for i, ln in enumerate(lines[:40]) if ln.startswith("# ")), None)
    if first is None:
        return text
    title = lines[first][2:].strip()
    j = first + 1
    while j < len(lines) and j < first + 6:
        nxt = lines[j].strip()
        gap = not nxt and j + 1 < len(lines) and lines[j + 1].startswith("# ")
        if gap:
            j += 1
            nxt = lines[j].strip()
        words = nxt[2:].strip() if nxt.startswith("# ") else nxt if not gap and nxt[:1] not in ("#", "") else ""
        if not words or not (words.isupper() if title.isupper() else words[0].islower()):
            break
        title = f"{title} {words}"
        lines[first + 1 : j + 1] = []
        j = first + 1
    lines[first] = f"# {title}"
    return "\n".join(lines) + rest


def parse_markdown(text: str) -> tuple[str, list[Draft]]:
    """Return (document title, units).

    Two passes: the headings decide, block by block, which stripped lines belong to an article's body
    (margin titles, titles after headings, signatures and whole context blocks become blank lines, article
    headings a mark); then one regex split of the joined lines undoes the PDF wrapping of every paragraph
    at once, instead of Python work on every line."""
    text = _join_split_title(join_superscripts(unify(text)))
    if _NORMS_LINK in text:  # the annotated Codul fiscal ends a unit with a link to its norms: no text of it
        for mark in ".;:,":
            text = text.replace(mark + _NORMS_LINK, mark + "\n")
    raw_lines = text.splitlines()
    heads = [i for i, raw in enumerate(raw_lines) if raw[:1] == "#"]
    plain_divisions = _division_lines(text)
    if plain_divisions:
        heads = sorted(heads + plain_divisions)
    titles_after = _titles_follow_headings(raw_lines, heads)
    lines = [ln.strip() for ln in raw_lines]
    signature_from = _first_signature_line(text)
    articles: list[tuple[str, str, str | None, str | None]] = []
    contexts: list[tuple[float, str]] = []
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
            e, t, te = _split_margin_title(lines, s, e, current is not None)
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
            # the first line of the text: mostly right after the heading or after one blank line
            first = s if s < e and lines[s] else s + 1 if s + 1 < e and lines[s + 1] else (
                next((j for j in range(s + 2, e) if lines[j]), None))
            if first is None:
                pass
            elif heading is None:
                heading = _title_before_alineat(lines, first, e)
                if heading is None and titles_after and _TITLE_LIKE.match(lines[first]):
                    heading = lines[first]
                    lines[first] = ""
            elif lines[first][:1].islower():
                heading = _title_continued(lines, first, e, heading)
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
        if raw[:1] != "#":  # a division printed as a plain line
            context_s = _plain_division(lines, s, i, current is None, contexts)
            finish(s, i, True)
            lines[i] = ""
            current = None
            after_context = True
            continue
        level = len(raw) - len(raw.lstrip("#"))  # _heading, inlined: once per heading
        if level > 6:
            level = 6
        content = raw[level:].strip()
        a = ARTICLE.match(content)
        annexed = None if a else ANNEX_ARTICLE.match(content)
        if a or annexed or UNIC.match(content):
            inline = a.group(2) if a else annexed.group(2) if annexed else None
            margin = finish(s, i, bool(inline))
            lines[i] = _ARTICLE_MARK
            if a:
                written = a.group(1).replace(" ", "")
                number = written if written.isdecimal() else normalise_ro(written)
            elif annexed:
                annex = next((m.group(1) for _, c in reversed(contexts) if (m := _ANNEX.match(c))), "")
                written = annexed.group(1)
                number = f"anexa-{annex}/{written}" if annex else f"anexa/{written}"
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
    unflatten_articles(articles)

    out: list[Draft] = []
    seen: set[str] = set()
    arts = iter(articles)
    art: tuple[str, str, str | None, str | None] | None = None
    paras: list[str] = []
    # after a footnote "*) ...", what the note quotes is no text of the article until the article's own
    # numbering resumes: these are the markers that would resume it
    resume: frozenset[str] | None = None
    quoting = 0  # quotations a footnote opened and has not closed: what they quote never resumes the article
    for p in _PARA_BREAK.split("\n".join(lines)):
        if not p:
            continue
        if p == _ARTICLE_MARK:
            if art is not None:
                article_units(art[0], art[1], art[2], paras, art[3], seen, out)
            art, paras, resume = next(arts), [], None
            continue
        if p[0] == "*" and _FOOTNOTE.match(p):
            if resume is None:
                resume, quoting = _resuming(paras), 0
            quoting = _quotes_open(p, quoting)
            continue
        if resume is not None:
            if quoting or p.split(" ", 1)[0] not in resume:
                quoting = _quotes_open(p, quoting)
                continue
            resume = None
        p = p.replace("\n", " ") if "-\n" not in p else _HYPHEN_BREAK.sub(_hyphen_join, p).replace("\n", " ")
        if not (p[0] in _NOTE_OR_PAGE_FIRST or p[0].isdigit()) or not (NOTE.match(p) or PAGE.match(p)):
            paras.append(p)
    if art is not None:
        article_units(art[0], art[1], art[2], paras, art[3], seen, out)
    return title, out

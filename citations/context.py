"""The act of an article its words leave open: a list that shares the act after it, a reference back ("того же
закона", "din aceeași lege"), a sources list that names the act first, and a bare article, which takes an act only
where the text settles it (the same sentence, or the one act the text is about).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from citations import grammar_ro as ro
from citations import grammar_ru as ru
from citations.model import Jurisdiction
from citations.registry import ActMatch, ActRegistry, act_match

_ACT_THEN_ARTICLE = re.compile(
    r"[ \t]*(?:[,:(-][ \t]*)?"
)  # "ГК РФ, ст. 333", "ГК РФ ст. 333", "КоАП РФ — ст. 20.1", "Гражданского кодекса РФ (ст. 123.12)"


@dataclass(slots=True)
class Unit:
    """An article citation as the grammar read it, before its act is settled: one written unit ("п. 2 ст. 5",
    "art. 5-7 și 9") with the items it lists and the act, reference or following unit that may name its act."""

    start: int
    items_end: int
    items: list[tuple[str, str | None, int, int, str | None]]  # article, article_to, start, end, own part
    parts: list[tuple[str, int, int]]  # the written part variants before the article word, with value spans
    act: ActMatch | None = None
    act_start: int = -1
    act_end: int = -1
    ref: str | None = None
    forward: Unit | None = field(default=None, repr=False)


def fill_acts(
    reg: ActRegistry, units: list[Unit], acts: list[ActMatch], text: str, folded: str, j: Jurisdiction
) -> None:
    """Give each unit without an act of its own the act its context names, in place; None where nothing does."""
    for u in units:
        if u.act is None:
            break
    else:
        return  # every article names its act (most answers): nothing to fill
    g = ru if j == "ru" else ro
    if any(u.act is None and u.ref is None for u in units):
        _acts_first(units, acts, folded)
    for i in range(len(units) - 2, -1, -1):
        u, nxt = units[i], units[i + 1]
        if u.act is None and u.ref is None and g.CONNECTOR.fullmatch(folded, u.items_end, nxt.start):
            u.forward = nxt
    subjects: list[set[str | None]] = []  # the acts the text is about, worked out once if needed
    for u in units:
        if u.act is not None:
            continue
        if u.ref is not None:
            u.act = _refer_back(reg, acts, u.start, u.ref)
            if u.act is None and u.ref == "convention" and text[u.act_start : u.act_end].lstrip(" ,").split()[-1][:1].isupper():
                # "art. 6 din Convenție", "ст. 6 Конвенции" with no convention named before: the European one
                u.act = act_match(u.act_start, u.act_end, _CONVENTION, "convention")
            continue
        chain = u.forward
        while chain is not None and chain.act is None and chain.ref is None:
            chain = chain.forward
        if chain is not None:
            u.act = (
                chain.act
                if chain.act is not None
                else _refer_back(reg, acts, chain.start, chain.ref or "any")
            )
            continue
        if g.NOTED is not None and g.NOTED.match(folded, u.items_end):
            u.act = _same_article_elsewhere(units, u)
            continue
        u.act = _context_act(reg, acts, text, folded, u, subjects)


def _same_article_elsewhere(units: list[Unit], u: Unit) -> ActMatch | None:
    """The act of an article an amendment note is about: the act the text cites the same article number of ("Art. 37
    a fost abrogat ..." and, in the case-law note below it, "art. 37 alin. (2) din Legea ... nr. 319/2006"); else
    unknown, since the note's own act is the consolidated text's, which the passage rarely names."""
    number = u.items[0][0]
    for other in units:
        if other is not u and other.act is not None and other.act.key is not None and other.items[0][0] == number:
            return other.act
    return None


def _context_act(
    reg: ActRegistry, acts: list[ActMatch], text: str, folded: str, u: Unit, subjects: list[set[str | None]]
) -> ActMatch | None:
    """The act of an article written bare, where the text settles it: the act named last before it in the
    same sentence, the act an amending text declares it amends, or the one act the whole text names; else the act
    the sentence goes on to name ("(ст. 131–132 ..., см. ГПК РФ)"); else the one act named before it however far
    back ("Legea nr. 85/2014 ..." pages before "potrivit art. 75"). Never an act named sentences before among
    others: better unknown."""
    prev = _refer_back(reg, acts, u.start, "any")
    if prev is not None and not _TEXT_SENTENCE_END.search(text, prev.end, u.start):
        return prev
    amended = _amended_act(acts, folded, u.start)
    if amended is not None:
        return amended
    # the act a text is about: the one it names other than as the act that amended it
    if not subjects:
        subjects.append(
            {
                a.key
                for a in acts
                if a.key is not None and not _AMENDED_BY_BEFORE.search(folded, max(0, a.start - 90), a.start)
            }
        )
    if len(subjects[0]) == 1:
        key = next(iter(subjects[0]))
        return next(a for a in acts if a.key == key)
    nxt = _next_in_sentence(acts, text, folded, u.items_end)
    if nxt is not None or prev is None:
        return nxt
    # the one act the text has named so far, however far back ("Ordonanța ... nr. 202/2008" paragraphs before "este
    # art. 29"), other than as an amending act; several acts named before it leave it unknown
    before = {
        a.key: a
        for a in acts[: bisect_right([a.end for a in acts], u.start)]
        if a.key is not None and not _AMENDED_BY_BEFORE.search(folded, max(0, a.start - 90), a.start)
    }
    return next(iter(before.values())) if len(before) == 1 else None


# "Legea nr. 231/2015 ..., se modifică și se completează după cum urmează:", "Внести в Федеральный закон ...
# следующие изменения:": the articles an amending act then names bare ("1. La articolul 3, ...") are the amended act's
_AMENDS = re.compile(
    r"\bse\s+(?:modifica|completeaza|modifica\s+si\s+se\s+completeaza)(?:\s+dupa\s+cum\s+urmeaza)?\s*:"
    r"|следующ[а-я]+\s+изменени[а-я]*\s*:"
)


def _amended_act(acts: list[ActMatch], folded: str, pos: int) -> ActMatch | None:
    """The act an amending text declares it amends, before `pos`: the first act of the paragraph ending in "se
    modifică ... după cum urmează:"."""
    if folded.find(":", 0, pos) < 0:
        return None
    last = next(reversed(list(_AMENDS.finditer(folded, 0, pos))), None)
    if last is None:
        return None
    lo = folded.rfind("\n", 0, last.start()) + 1  # the declaration opens its paragraph
    return next((a for a in acts if lo <= a.start < last.start() and a.key is not None), None)


def _acts_first(units: list[Unit], acts: list[ActMatch], folded: str) -> None:
    """Sources-list style, the act first: "Legea nr. 85/2014, art. 5", "ГК РФ, ст. 1152"."""
    used = {u.act.start for u in units if u.act is not None}
    ends = [a.end for a in acts]
    for u in units:
        if u.act is not None or u.ref is not None:
            continue
        i = bisect_right(ends, u.start) - 1
        if i >= 0 and acts[i].start not in used and _ACT_THEN_ARTICLE.fullmatch(folded, acts[i].end, u.start):
            a = acts[i]
            u.act, u.act_start, u.act_end, u.start = a, a.start, a.end, a.start
            used.add(a.start)


UNNAMED = "unnamed"  # a unit's act is named, but by nothing the registry reads: it stays unknown


def _refer_back(reg: ActRegistry, acts: list[ActMatch], pos: int, kind: str) -> ActMatch | None:
    if kind == UNNAMED:
        return None
    for i in range(bisect_left([a.start for a in acts], pos) - 1, -1, -1):
        a = acts[i]
        if a.key is not None and (kind == "any" or _kind_fits(kind, a, reg)):
            if kind == "convention" and a.key.startswith(
                _PROTOCOL
            ):  # "art. 14 din Convenție" after "Protocolul
                return act_match(
                    a.start, a.end, _CONVENTION, "convention"
                )  # nr. 1 la Convenție": the Convention
            return a
    return None  # "того же закона" with no law before it: better unknown than the wrong act


_PROTOCOL, _CONVENTION = "echr/protocol-", "echr/convention"
_REF_CODE = re.compile(r"кодекс|(?<![a-z])(cod|codul)(?![a-z])")
_REF_LAW = re.compile(r"закон|фз|lege|legi|legea")


def ref_kind(written: str) -> str:
    w = written.strip()
    if _REF_CODE.search(w):
        return "code"
    if _REF_LAW.search(w):
        return "law"
    if "ordonant" in w:
        return "ordinance"
    if "ordin" in w:
        return "order"
    if "conventi" in w or "конвенци" in w:
        return "convention"
    return "any"


def _kind_fits(kind: str, act: ActMatch, reg: ActRegistry) -> bool:
    if kind == "code":
        return act.type == "code" or reg.kind_of(act.key) == "code"
    if kind == "law":
        return act.type in ("law", "lege")
    if kind == "ordinance":
        return act.type in ("og", "oug", "ordinance")
    if kind == "order":
        return act.type == "ordin"
    if kind == "convention":
        return act.type == "convention"
    return True


def named_back(
    text: str, folded: str, pos: int, before: int, acts: list[ActMatch], head_word: re.Pattern[str]
) -> tuple[ActMatch, int] | None:
    """ "ст. 49 Основ" after "Основ законодательства ... о нотариате", "art. 6 din Convenție" after the Convention
    named in full: a capitalised word after the article that begins as an act named earlier begins is that act."""
    m = head_word.match(folded, pos)
    if m is None or not text[m.start("w")].isupper():
        return None
    stem = m.group("w")[:4]
    for a in reversed(acts):
        if a.start < before and a.key is not None and folded.startswith(stem, a.start):
            return a, m.end()
    return None


def _next_in_sentence(acts: list[ActMatch], text: str, folded: str, pos: int) -> ActMatch | None:
    """The first act after `pos` when no sentence ends before it: "(ст. 131–132 ..., см. ГПК РФ)"; not the act an
    amendment note names as the amending one ("Litera a) din Articolul 24 a fost modificată de ... Legea nr.")."""
    nxt = next((a for a in acts if a.start >= pos and a.key is not None), None)
    if (
        nxt is None
        or _SENTENCE_END.search(folded, pos, nxt.start)
        or _TEXT_SENTENCE_END.search(text, pos, nxt.start)
    ):
        return None
    if _AMENDED_BY.search(folded, pos, nxt.start):
        return None
    return nxt


_SENTENCE_END = re.compile(r"[.!?;]\s+[^a-zа-я0-9]|\n")
# a sentence ends where a capital follows its stop, which only the original text shows
# (a line ending without a stop goes on: "dispoziții din Regulamentul ..., referitoare la:\na) art. 5-7;\nb) ...")
_TEXT_SENTENCE_END = re.compile(
    r"(?<!alin)(?<!art)(?<!lit)(?<!pct)(?<!nr)(?<!ст)(?<![пч])(?<!пп)(?<!абз)"  # "alin. (2)", "ст. Закона" go on
    r"[.!?](?:[ \t]+(?=[A-ZА-ЯЁÎÂȘȚŞŢĂ«\"„*])|\s*\n)|\n\s*\n"
)
_AMENDED_BY_BEFORE = re.compile(
    r"(?:(?:modificat|abrogat|introdus|completat|inlocuit|republicat|suspendat|aprobat)[a-z]*\s+(?:de|prin)"
    r"|care\s+(?:modifica|completeaza|abroga|inlocuieste))\s+(?:[a-z0-9.,^()]+\s+){0,8}?\Z|(?:изменени|редакци|ред\.)[а-я]*\s+(?:[а-я0-9.,№n-]+\s+){0,6}?\Z"
)
_AMENDED_BY = re.compile(
    r"(?:a|au)\s+fost\s+(?:modificat|abrogat|introdus|completat|inlocuit|republicat|suspendat)[a-z]*\s+(?:de|prin)"
    r"|(?:изменен|утратил|признан|введен|дополнен)[а-я]*\s+(?:федеральным\s+законом|законом|силу)"
)

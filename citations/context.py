"""The act of an article its words leave open, settled by a short table of rules tried in order (RULES).

An article names its act in most answers, right after it ("ст. 1152 ГК РФ", "art. 5 din Legea nr. 85/2014"): the
grammar reads that (citations.extract). What is left is settled here: a list that shares the act after its last
member, a reference back ("того же закона", "din aceeași lege"), a sources list that names the act first, and then
a bare article, which takes an act only where the text settles it, by the first rule of RULES that decides.
Each rule's cases are in citations/data/context_rules.yaml, checked by tests/citations/test_context_rules.py;
`Unit.rule` records which rule gave an article its act (citations.extract.explain shows it).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field

from citations.grammar import ro, ru
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
    rule: str = "written-after"  # what gave the unit its act (or left it without one): a name of the rules below


UNNAMED = "unnamed"  # a unit's act is named, but by nothing the registry reads: it stays unknown


@dataclass(slots=True)
class Scene:
    """What the rules look at: the text, every act found in it (ordered, disjoint) and the article units."""

    reg: ActRegistry
    acts: list[ActMatch]
    text: str
    folded: str
    j: Jurisdiction
    units: list[Unit]
    _starts: list[int] | None = None
    _subjects: list[ActMatch] | None = None
    _own: bool | None = None
    _amending: dict[int, bool] = field(default_factory=dict)

    @property
    def starts(self) -> list[int]:
        if self._starts is None:
            self._starts = [a.start for a in self.acts]
        return self._starts

    def amending(self, a: ActMatch) -> bool:
        """Whether the text names `a` as the act that amended, repealed or approved another ("в ред. Федерального
        закона ...", "утрачивает силу (ФЗ от ...)", "modificat prin Legea ...", "aprobată prin Legea ...")."""
        known = self._amending.get(a.start)
        if known is None:
            known = self._amending[a.start] = bool(_AMENDED_BY_BEFORE.search(self.folded, max(0, a.start - 90), a.start))
        return known

    def own_text(self) -> bool:
        """Whether the passage is an act's own text: it heads its articles at line starts or names itself."""
        if self._own is None:
            self._own = bool(_OWN_HEADING.search(self.folded) or _SELF_NAMED.search(self.folded))
        return self._own

    def own_act(self) -> ActMatch | None:
        """The act a passage of its own text opens with, in heading form ("LEGE nr. 47 din 17 aprilie 2014", "Hotărârea
        Guvernului nr. 775/2005" on the first line): the first act, if nothing but its heading lines come before it."""
        first = next((a for a in self.acts if a.key is not None), None)
        if first is None or (self.units and self.units[0].start < first.start):
            return None
        line = self.folded.rfind("\n", 0, first.start) + 1
        if self.folded[line : first.start].strip(" \t•-") or not self.text[first.start].isupper():
            return None
        return first

    def subjects(self) -> list[ActMatch]:
        """The acts the text is about: each act it names other than as an amending one, first mention of each."""
        if self._subjects is None:
            seen: dict[str, ActMatch] = {}
            for a in self.acts:
                if a.key is not None and a.key not in seen and not self.amending(a):
                    seen[a.key] = a
            self._subjects = list(seen.values())
        return self._subjects


# A rule answers None when it does not apply (the next rule is tried), or (act,) when it settles the unit: the
# act, or None for "named, but not by anything the text lets us know".
Decision = tuple[ActMatch | None] | None


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    decide: Callable[[Scene, Unit], Decision]


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
    scene = Scene(reg, acts, text, folded, j, units)
    for u in units:
        if u.act is not None:
            continue
        if u.ref is not None:
            u.rule = "reference-back" if u.ref != UNNAMED else "unnamed-act"
            u.act = _refer_back(reg, acts, u.start, u.ref)
            if u.act is None and u.ref == "convention" and text[u.act_start : u.act_end].lstrip(" ,").split()[-1][:1].isupper():
                # "art. 6 din Convenție", "ст. 6 Конвенции" with no convention named before: the European one
                u.act, u.rule = act_match(u.act_start, u.act_end, _CONVENTION, "convention"), "convention-alone"
            continue
        chain = u.forward
        while chain is not None and chain.act is None and chain.ref is None:
            chain = chain.forward
        if chain is not None:
            u.rule = "list-forward"
            u.act = chain.act if chain.act is not None else _refer_back(reg, acts, chain.start, chain.ref or "any")
            continue
        for rule in RULES:
            decided = rule.decide(scene, u)
            if decided is not None:
                u.act, u.rule = decided[0], rule.name
                break
        else:
            u.act, u.rule = None, "unsettled"
        a = u.act
        if a is not None and a.start >= u.items_end and _FEW_WORDS.fullmatch(folded, u.items_end, a.start):
            u.act_start, u.act_end = u.items_end, a.end  # "ст. 6 Вводного закона от ... № 147-ФЗ": its act, cited once


# ---------------------------------------------------------------------------------------------- the rules
def _amendment_note(s: Scene, u: Unit) -> Decision:
    """The article an amendment note of a consolidated text is about ("Alineatul (1) , Articolul 39 , ... a fost
    abrogat de ..."): the act the text cites the same article number of, else unknown; the note's own act is the
    consolidated text's, which the passage rarely names."""
    g = ru if s.j == "ru" else ro
    if g.NOTED is None or not g.NOTED.match(s.folded, u.items_end):
        return None
    number = u.items[0][0]
    for other in s.units:
        if other is not u and other.act is not None and other.act.key is not None and other.items[0][0] == number:
            return (other.act,)
    return (None,)


def _draft_observation(s: Scene, u: Unit) -> Decision:
    """ "3. La art.2, recomandăm ...": an opinion's observation on the draft it reviews opens with the draft's own
    article, which has no act yet, whatever acts the opinion names around it."""
    if s.j != "ro" or not _LA_OBSERVATION.search(s.folded, max(0, u.start - 12), u.start):
        return None
    if _DRAFT_REVIEWED.search(s.folded):
        return (None,)
    # an opinion's page cut after its preamble: "3. La art.1, pentru o informare completă, este necesară ...", a
    # numbered observation whose sentence amends nothing ("1. La articolul 3, alineatul (2) se modifică" amends)
    folded = s.folded
    if (
        _NUMBERED_LA.search(folded, max(0, u.start - 12), u.start)
        and folded.startswith(",", u.items_end)
        and not _AMENDS.search(folded, 0, u.start)
    ):
        stop = _TEXT_SENTENCE_END.search(s.text, u.items_end)
        if not _AMENDING_VERB.search(folded, u.items_end, stop.start() if stop else len(folded)):
            return (None,)
    return None


def _same_sentence_before(s: Scene, u: Unit) -> Decision:
    """The act named last before the article in the same sentence ("Согласно ГК РФ ... (ст. 333)"), other than one
    named as amending another ("(в ред. Федерального закона ...)")."""
    for i in range(bisect_left(s.starts, u.start) - 1, -1, -1):
        a = s.acts[i]
        if a.key is None or s.amending(a) or not _fits_article(s, a, u):
            continue
        if _TEXT_SENTENCE_END.search(s.text, a.end, u.start) or _RUN_ON_SENTENCE_END.search(s.text, a.end, u.start):
            return None
        if _AMENDS.search(s.folded, a.end, u.start):
            return None  # "... cu următoarea completare:\n- după articolul 14": the amended act's (amended-act)
        return (a,)
    return None


def _amended_act(s: Scene, u: Unit) -> Decision:
    """The act an amending text declares it amends ("Legea nr. 231/2015 ... se modifică după cum urmează:", "Se
    aprobă Ordonanța ..., cu următoarea completare:", "Внести в Федеральный закон ... следующие изменения:"): the
    first act of the sentence that makes the declaration; the articles it then names bare are that act's."""
    folded = s.folded
    if folded.find(":", 0, u.start) < 0:
        return None
    last = next(reversed(list(_AMENDS.finditer(folded, 0, u.start))), None)
    if last is None:
        return None
    lo = folded.rfind("\n", 0, last.start()) + 1
    for end in _TEXT_SENTENCE_END.finditer(s.text, lo, last.start()):
        lo = end.end()  # the declaration's own sentence, not the paragraph (a page may run on one line)
    a = next((a for a in s.acts if lo <= a.start < last.start() and a.key is not None), None)
    return (a,) if a is not None and _fits_article(s, a, u) else None


def _own_text(s: Scene, u: Unit) -> Decision:
    """ "datele menționate la art. 1 pentru persoanele ... potrivit Legii nr. 53/2003": in an act's own text (it heads
    its own articles, "Art. 2", "ARTICOLUL 3", or speaks of itself, "prezenta hotărâre") a bare article is one of its
    own, not an act's named near it: the act the passage opens with in heading form, else unknown."""
    if s.j != "ro" or not s.own_text():
        return None
    head = s.own_act()
    return (head if head is not None and _fits_article(s, head, u) else None,)


def _one_subject(s: Scene, u: Unit) -> Decision:
    """The one act the whole text is about, other than as the act that amended another."""
    subjects = [a for a in s.subjects() if _fits_article(s, a, u)]
    return (subjects[0],) if len(subjects) == 1 else None


def _same_article_later(s: Scene, u: Unit) -> Decision:
    """ "(Excepția de neconstituționalitate a prevederilor art. 434 alin. (2) lit. f) – ...) ... Potrivit art. 434
    alin. (2) lit. f) C.pr.pen.": an article a heading or an opening names bare, before any act, is the one the text
    then cites with its act, when it cites that article number with one act only."""
    if any(a.end <= u.start and a.key is not None for a in s.acts):
        return None
    number = u.items[0][0]
    keys = {
        o.act.key: o.act
        for o in s.units
        if o.start > u.start and o.act is not None and o.act.key is not None and o.rule == "written-after"
        and o.items[0][0] == number
    }
    return (next(iter(keys.values())),) if len(keys) == 1 else None


def _next_in_sentence(s: Scene, u: Unit) -> Decision:
    """The first act after the article when no sentence ends before it ("(ст. 131–132 ..., см. ГПК РФ)"); not the
    act an amendment note names as the amending one ("Litera a) din Articolul 24 a fost modificată de ... Legea
    nr."). Where no act was named before the article either, the article is left unknown here."""
    nxt = next((a for a in s.acts if a.start >= u.items_end and a.key is not None and _fits_article(s, a, u)), None)
    if nxt is not None and _MEASURED_AGAINST.search(s.folded, max(0, nxt.start - 40), nxt.start):
        nxt = None  # "ст. 134 признан не соответствующим Конституции РФ": the act the article is measured against
    if nxt is not None and (
        _SENTENCE_END.search(s.folded, u.items_end, nxt.start)
        or _TEXT_SENTENCE_END.search(s.text, u.items_end, nxt.start)
        or _AMENDED_BY.search(s.folded, u.items_end, nxt.start)
    ):
        nxt = None
    if nxt is not None:
        return (nxt,)
    return None if any(a.end <= u.start and a.key is not None for a in s.acts) else (None,)


def _one_act_before(s: Scene, u: Unit) -> Decision:
    """The one act the text has named so far, however far back ("Ordonanța ... nr. 202/2008" paragraphs before "este
    art. 29"), other than as an amending act; several acts named before leave the article unknown."""
    before = {
        a.key: a
        for a in s.acts[: bisect_right([a.end for a in s.acts], u.start)]
        if a.key is not None and not s.amending(a) and _fits_article(s, a, u)
    }
    return (next(iter(before.values())) if len(before) == 1 else None,)


RULES: tuple[Rule, ...] = (
    Rule("amendment-note", _amendment_note),
    Rule("draft-observation", _draft_observation),
    Rule("same-sentence-before", _same_sentence_before),
    Rule("amended-act", _amended_act),
    Rule("own-text", _own_text),
    Rule("one-subject", _one_subject),
    Rule("same-article-later", _same_article_later),
    Rule("next-in-sentence", _next_in_sentence),
    Rule("one-act-before", _one_act_before),
)
# what the grammar and fill_acts settle before RULES (named in Unit.rule too)
SETTLED_BEFORE = (
    "written-after", "structure-between", "annex-between", "bracket-between", "title-between", "inside-title", "reference-back",
    "approved-rules", "named-back", "constitutional-adjective", "unnamed-act", "convention-alone", "sources-list",
    "list-forward",
)


def _fits_article(s: Scene, a: ActMatch, u: Unit) -> bool:
    """Whether `a` can hold the unit's article at all: codes number their articles in Arabic numerals, so "art. I
    pct. 3", "art. II" written bare belong to an amending or approving act, never to a code named nearby."""
    first = u.items[0][0]
    if first[:1].isalpha() and first != "unic":
        return not (a.type == "code" or s.reg.kind_of(a.key) == "code")
    return True


# ---------------------------------------------------------------------------------------------- the other paths
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
            u.act, u.act_start, u.act_end, u.start, u.rule = a, a.start, a.end, a.start, "sources-list"
            used.add(a.start)


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


# ---------------------------------------------------------------------------------------------- patterns
# "Legea nr. 231/2015 ..., se modifică și se completează după cum urmează:", "Se aprobă Ordonanța ..., cu
# următoarea completare:", "Внести в Федеральный закон ... следующие изменения:": the articles an amending act then
# names bare ("1. La articolul 3, ...") are the amended act's
_AMENDS = re.compile(
    r"\bse\s+(?:modifica|completeaza|modifica\s+si\s+se\s+completeaza)(?:\s+dupa\s+cum\s+urmeaza)?\s*:"
    r"|\bcu\s+urmatoarel?e?a?\s+(?:modificar[ie]|completar[ie])(?:\s+si\s+(?:modificar[ie]|completar[ie]))?\s*:"
    r"|следующ[а-я]+\s+изменени[а-я]*\s*:"
)
# an act's own text: its article headings at line starts ("Art. 2\n", "ART. 1 (1) ...", "Articolul 3 - Definiții") or its
# words about itself ("prezenta hotărâre", "prezentul ordin")
_OWN_HEADING = re.compile(r"(?:^|\n)[ \t+]*(?:art\.|articolul)\s*(?:\d+(?:\^\d+)?|[ivxl]+|unic)(?:\.|\s*-|\s*\n|\s+\()", re.M)
_SELF_NAMED = re.compile(r"\bprezent(?:a|ei|ul|ului)\s+(?:lege|legi|hotarar|ordonant|ordin|decizi|regulament|norm|metodologi)")
# "3. La art.2, ..." at the start of a sentence, a line or a numbered observation
_LA_OBSERVATION = re.compile(r"(?:^|\n|[.;:]\s+|\d+\.\s*)la\s+\Z")
_NUMBERED_LA = re.compile(r"(?:^|\n)[ \t]*\d+\.\s*la\s+\Z")
_AMENDING_VERB = re.compile(
    r"\bse\s+(?:modifica|completeaza|abroga|introduc|insereaza|renumeroteaza)|\bva\s+avea\s+urmatorul|\bdevin"
)
_DRAFT_REVIEWED = re.compile(r"\bproiect(?:ul|ului)?\s+de\s+(?:lege|ordonant|hotarar|ordin|act)")
# On the folded text: a stop and a quote, bracket or dash after it ("alin. (3)" goes on). The abbreviations are tested
# behind the stop once it is found, so the scan skips to a stop first.
_SENTENCE_END = re.compile(
    r"[.!?;](?<!alin\.)(?<!art\.)(?<!lit\.)(?<!pct\.)(?<!nr\.)(?<!ст\.)(?<![пч]\.)(?<!пп\.)(?<!абз\.)(?<!al\.)"
    r"\s+[^a-zа-я0-9]|\n"
)
# a sentence ends where a capital follows its stop (and any closing quote or bracket), which only the original text
# shows (a line ending without a stop goes on: "dispoziții din Regulamentul ..., referitoare la:\na) art. 5-7;\nb) ...")
_TEXT_SENTENCE_END = re.compile(  # "alin. (2)", "Art. I", "ст. Закона" go on
    r"[.!?](?<!(?i:alin)[.!?])(?<!(?i:art)[.!?])(?<!(?i:lit)[.!?])(?<!(?i:pct)[.!?])(?<!(?i:nr)[.!?])"
    r"(?<!(?i:ст)[.!?])(?<!(?i:[пч])[.!?])(?<!(?i:пп)[.!?])(?<!(?i:абз)[.!?])"
    r"[\"”»“')]*(?:[ \t]+(?=[A-ZА-ЯЁÎÂȘȚŞŢĂ«\"„*])|\s*\n)|\n\s*\n"
)
# "...публичных интересов.КонсультантПлюс: примечание.Со дня ...": sentences a page's markup ran together
_RUN_ON_SENTENCE_END = re.compile(r"[.!?](?<=[a-zа-яёăâîșțşţ]{3}[.!?])(?=[A-ZА-ЯЁÎÂȘȚŞŢĂ][a-zа-яёăâîșțşţ])")
_AMENDED_BY_BEFORE = re.compile(
    r"(?:(?:modificat|abrogat|introdus|completat|inlocuit|republicat|suspendat|aprobat)[a-z]*"
    r"\s+(?:cu\s+modificari(?:\s+si\s+completari)?\s+)?(?:de|prin)"
    r"|care\s+(?:modifica|completeaza|abroga|inlocuieste))\s+(?:[a-z0-9.,^()]+\s+){0,8}?\Z"
    r"|(?:изменени|редакци|ред\.)[а-я]*\s+(?:[а-я0-9.,№n-]+\s+){0,6}?\Z"
    r"|(?:утрачива|утратил|утративш)[а-я]*\s+силу\s*(?:[(,—–-]\s*)?(?:[а-я0-9.,№n-]+\s+){0,6}?\Z"
)
_FEW_WORDS = re.compile(r"(?:\s+[^\s.,;:()\[\]]+){0,3}\s+")  # at most three words, no punctuation between
_MEASURED_AGAINST = re.compile(r"(?:соответству|соответстви|противореч)[а-я]*\s+\Z|(?:conform[a-z]*\s+cu|contrar[a-z]*)\s+\Z")
_AMENDED_BY = re.compile(
    r"(?:a|au)\s+fost\s+(?:modificat|abrogat|introdus|completat|inlocuit|republicat|suspendat)[a-z]*\s+(?:de|prin)"
    r"|(?:изменен|утратил|утрачива|признан|введен|дополнен)[а-я]*\s+(?:федеральным\s+законом|законом|силу)"
)

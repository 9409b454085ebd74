"""Find every citation in an answer: articles, whole acts and court decisions, Russian or Romanian.

The grammars run on a folded copy of the text of the same length (citations.text.fold), so every span indexes
the original answer. Acts missing after an article are filled from the structure of the sentence: a list
shares the act written after its last member ("ст. 178, 179 и 180 ТК"), a reference back ("того же закона",
"din aceeași lege") points to the last act of that kind, and a bare article continues the act in force.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from functools import lru_cache
from itertools import product
from operator import attrgetter
from types import ModuleType
from typing import Literal

from citations.context import UNNAMED, Unit, fill_acts, named_back, ref_kind
from citations.decisions import DecisionFinder
from citations.grammar import ro, ru
from citations.model import Citation, Jurisdiction, new_citation
from citations.registry import ActMatch, ActRegistry, act_match, default_registry
from citations.text import TRAILING, fold, is_cyrillic_text, search_back, trim_end


def extract(text: str, jurisdiction: Literal["ru", "ro", "auto"] = "auto") -> list[Citation]:
    """Every citation in `text`, ordered by start; spans index `text` itself."""
    if jurisdiction not in ("ru", "ro", "auto"):
        raise ValueError(f"jurisdiction must be 'ru', 'ro' or 'auto', got {jurisdiction!r}")
    if not text:
        return []
    j: Jurisdiction = jurisdiction if jurisdiction != "auto" else ("ru" if is_cyrillic_text(text) else "ro")
    return (_EXTRACTOR or _extractor()).run(text, j)


def explain(text: str, jurisdiction: Literal["ru", "ro", "auto"] = "auto") -> list[tuple[str, str | None, str | None, str]]:
    """Each article the extractor reads, as (what is written, its first article, the act given, the rule that gave
    it: a name of citations.context.RULES or of a path settled before them): why an article has the act it has."""
    if not text:
        return []
    j: Jurisdiction = jurisdiction if jurisdiction != "auto" else ("ru" if is_cyrillic_text(text) else "ro")
    return [
        (text[u.start : u.items_end], u.items[0][0], u.act.key if u.act is not None else None, u.rule)
        for u in (_EXTRACTOR or _extractor()).units(text, j)
    ]


_EXTRACTOR: Extractor | None = None


def _extractor() -> Extractor:
    """The extractor over the default registry, built on first use (loading the registry compiles its names)."""
    global _EXTRACTOR
    if _EXTRACTOR is None:
        _EXTRACTOR = Extractor(default_registry())
    return _EXTRACTOR


class Extractor:
    def __init__(self, registry: ActRegistry) -> None:
        self.reg = registry
        self._decisions = DecisionFinder(registry)

    # ------------------------------------------------------------------ driver
    def units(self, text: str, j: Jurisdiction) -> list[Unit]:
        """The article units of `text` with their acts settled (what citations.extract.explain shows)."""
        folded = fold(text)
        decisions = self._decisions.ru(text, folded) if j == "ru" else self._decisions.ro(text, folded)
        return self._settled_units(text, folded, j, [(d.start, d.end) for d in decisions], self.reg.acts_in(folded, j))

    def _settled_units(
        self, text: str, folded: str, j: Jurisdiction, taken: list[tuple[int, int]], acts: list[ActMatch]
    ) -> list[Unit]:
        units = self._units(text, folded, j, {a.start: a for a in acts} if acts else {}, acts)
        if taken:
            units = [u for u in units if not _overlaps(u.start, u.items_end, taken)]
        fill_acts(self.reg, units, acts, text, folded, j)
        return units

    def run(self, text: str, j: Jurisdiction) -> list[Citation]:
        folded = fold(text)
        out = self._decisions.ru(text, folded) if j == "ru" else self._decisions.ro(text, folded)
        taken = [(d.start, d.end) for d in out]
        acts = self.reg.acts_in(folded, j)
        units = self._settled_units(text, folded, j, taken, acts)
        for u in units:
            self._unit_citations(u, text, j, out)
        if acts:
            # an article's own act is not cited again on its own
            named = {u.act_start for u in units}
            if j == "ru":
                named.update(self._rule_points(text, folded, acts, out))
            inside: list[tuple[int, int]] | None = None
            beside: set[str] | None = None  # the abbreviations the text writes beside an article of theirs
            for a in acts:
                if a.key is None or a.start in named:
                    continue
                if not _named_enough(folded, a, self.reg):
                    if beside is None:
                        beside = {folded[u.act.start : u.act.end] for u in units if u.act is not None}
                    if not _abbreviation_known_here(text, folded, a, beside, self.reg):
                        continue
                if inside is None:
                    inside = [(u.act_start, u.act_end) for u in units if u.act_end > 0]
                    if len(acts) > 1 or units:
                        inside += _quoted_titles(folded, [*(x.end for x in acts), *(u.act_end for u in units)])
                # not an act written inside an article's citation, but the act whose title holds one is cited
                if (not _starts_inside(a.start, inside) and not (taken and _overlaps(a.start, a.end, taken))
                        and not _DEFINED_AS.search(folded, max(0, a.start - 40), a.start)
                        and not _in_approved_rules_name(folded, a)):
                    end = trim_end(text, a.start, a.end)
                    written = text[a.start : end]
                    out.append(new_citation(a.start, end, written, "act", j, a.key, written))
        if len(out) > 1:
            out.sort(key=_by_span)
        return out

    # ------------------------------------------------------------------ rules
    def _rule_points(self, text: str, folded: str, acts: list[ActMatch], out: list[Citation]) -> list[int]:
        """Rules approved by the Government number points, not articles, and answers cite them so: "п. 9.10
        ПДД", "пунктов 2.1.1 и 2.3.2 Правил дорожного движения". Each point is cited as the rules' article;
        returns where the rules so cited are written (they are not cited again as a whole)."""
        cited: list[int] = []
        for a in acts:
            if a.type == "resolution" and a.key is not None:
                cited += self._approved_points(text, folded, a, out)
            if a.type != "regulation" or a.key is None:
                continue
            m = _RULE_POINTS.search(folded, max(0, a.start - 80), a.start)
            if m is None:
                continue
            end = trim_end(text, m.start(), a.end)
            act_text = text[a.start : end]
            for number in _RULE_NUMBER.findall(folded, m.start("numbers"), m.end("numbers")):
                out.append(new_citation(m.start(), end, text[m.start() : end], "article", "ru", a.key, act_text,
                                        number))
            cited.append(a.start)
        return cited

    def _approved_points(self, text: str, folded: str, a: ActMatch, out: list[Citation]) -> list[int]:
        """ "п. 86 Правил ..., утв. постановлением Правительства РФ № 354": the points of rules a resolution
        approved are cited as that resolution's, by point (article null, part "п. 86")."""
        m = _APPROVED_POINTS.search(folded, max(0, a.start - 300), a.start)
        if m is None:
            return []
        end = trim_end(text, m.start(), a.end)
        for number in _RULE_NUMBER.findall(folded, m.start("numbers"), m.end("numbers")):
            out.append(new_citation(m.start(), end, text[m.start() : end], "article", "ru", a.key, text[a.start : end],
                                    None, None, f"п. {number}"))  # fmt: skip
        return [a.start]

    # ------------------------------------------------------------------ articles
    def _units(
        self, text: str, folded: str, j: Jurisdiction, acts_at: dict[int, ActMatch], acts: list[ActMatch]
    ) -> list[Unit]:
        g = ru if j == "ru" else ro
        units: list[Unit] = []
        act_gap = g.ACT_GAP
        is_ru = j == "ru"
        parts_of = _ru_parts if is_ru else _ro_parts
        for m in g.UNIT.finditer(folded):
            mstart, items_end = m.span()  # the items are the pattern's last group: they end where it ends
            pstart = -1
            if mstart > 1:
                prev = folded[mstart - 1]
                if prev == " ":
                    c = folded[mstart - 2]  # the character before the space decides, unless it is a space too
                    if c == " ":
                        may = _may_follow_parts(folded, mstart, j)
                    elif is_ru:
                        may = c in _RU_PARTS_END or c.isdigit() or c in _RU_ORDINAL_END  # "части второй"
                    else:
                        may = c in "aln" and _may_follow_parts(folded, mstart, j)  # "al", "a", "din", "la"
                    if may:
                        before = search_back(
                            g.PARTS_SCAN, g.PARTS_NOT_AFTER, folded, max(0, mstart - 100), mstart
                        )
                        pstart = before.start() if before is not None else -1
                elif prev.isalnum():
                    continue  # "ст." inside a word ("пост.") or "art." inside "part."
            elif mstart and folded[0].isalnum():
                continue
            if is_ru and mstart > 3 and folded[mstart - 2] in ",." and ru.GAZETTE_BEFORE.search(folded, max(0, mstart - 24), mstart):
                continue  # "СЗ РФ, 1995, N 21, ст. 1929": a gazette's article
            base = m.start("items")
            if (items_end < len(text) and text[items_end].isupper() and text[items_end - 1].isdigit()
                    and items_end not in acts_at):
                continue  # "Articolul 2Prezentul ordin": a heading run into its text by a lost line break
            written_items = folded[base:items_end]
            items: list[tuple[str, str | None, int, int, str | None]]
            if written_items.isdecimal():  # the common "ст. 1152": one article, nothing to split or normalise
                stray = _STRAY_DOT.match(folded, items_end) if is_ru and folded.startswith(" .", items_end) else None
                if stray is not None:  # "статьей 217 .1 НК РФ": a stray space before an inserted article's dot
                    written_items, items_end = written_items + stray.group().lstrip(), stray.end()
                elif is_ru and folded.startswith(". ", items_end):
                    spaced = _SPACED_DOT.match(folded, items_end)  # "ст. 264. 1 УК РФ": a space after the dot
                    if spaced is not None and spaced.end() + 1 in acts_at and folded[spaced.end()] == " ":
                        written_items = f"{written_items}.{spaced.group(1)}"
                        items_end = spaced.end()
                items = [(written_items, None, base, items_end, None)]
            else:
                parsed = _items(written_items, is_ru)
                items = [(a, b, base + s, base + e, sub) for a, b, s, e, sub in parsed
                         if not a[:1].isalpha() or a == "unic" or text[base + s : base + s + 1].isupper()]  # "art. I"
                if not items:
                    continue
                if len(items) < len(parsed) and parsed[-1][2] + base != items[-1][2]:
                    items_end = items[-1][3]  # "art. 5 și i se aplică": the lower-case "i" was no article
            if pstart < 0:
                unit = Unit(mstart, items_end, items, [])
            else:
                unit = Unit(pstart, items_end, items, parts_of(folded[pstart:mstart], pstart))
            # every act was found once, up front; most follow their article after one space
            act = acts_at.get(items_end + 1) if is_ru and folded.startswith(" ", items_end) else None
            if act is None:
                pos = act_gap.match(folded, items_end)
                act = acts_at.get(pos.end() if pos else items_end)
                if act is None and is_ru and folded.startswith(". ", items_end):
                    act = _genitive_act_after_stop(folded, acts_at.get(items_end + 2))
                if act is None and g.STRUCTURE_GAP is not None:
                    structure = g.STRUCTURE_GAP.match(folded, items_end)  # "Articolul LXXIV, Capitolul III din ..."
                    act = acts_at.get(structure.end()) if structure is not None else None
                    unit.rule = "structure-between"
                if act is None and g.ANNEX_GAP is not None and folded.find("anex", items_end, items_end + 12) >= 0:
                    annex = g.ANNEX_GAP.match(folded, items_end)  # "art. 5 din anexa nr. 1 la Ordinul ..."
                    act = acts_at.get(annex.end()) if annex is not None else None
                    unit.rule = "annex-between"
                opens = folded[items_end + 1 : items_end + 2] if folded.startswith(" ", items_end) else folded[items_end : items_end + 1]
                if act is None and opens == "(" and g.PAREN_GAP is not None:
                    bracketed = g.PAREN_GAP.match(folded, items_end)  # "art. IV pct. 40 (cu referire la art. 61^1 din ...) din"
                    act = acts_at.get(bracketed.end()) if bracketed is not None else None
                    unit.rule = "bracket-between"
                if act is None and opens in _QUOTES:
                    titled = g.TITLE_GAP.match(folded, items_end)  # "статьи 318 "Возбуждение ..." УПК Российской Федерации"
                    act = acts_at.get(titled.end()) if titled is not None else None
                    unit.rule = "title-between"
                if act is None and pos is not None and _inside_an_act(acts, pos.end()):
                    # "pentru ... abrogarea art. XXVIII din Ordonanța de urgență ... nr. 130/2021": the article's
                    # act is written inside another act's title, which the scan read whole
                    act = self.reg.match_at(folded, pos.end(), j)
                    unit.rule = "inside-title"
                if act is None:
                    unit.rule = "written-after"
                if act is not None and is_ru and pos is not None and pos.group("after") and len(items) == 1:
                    a, b, s, e, _ = items[0]  # "ст. 12.9 ч. 2 КоАП РФ": the part written after the number
                    unit.items = [(a, b, s, e, _ru_part_after(pos.group("after")))]
            if act is not None and len(items) == 1 and (
                (folded.find("\n", items_end, act.start) >= 0 and _is_heading(text, folded, mstart, base, items_end))
                or (not is_ru and act.start == items_end + 1 and _NOMINATIVE_ACT.match(folded, act.start)
                    and text[act.start].isupper() and text[mstart:base].rstrip(". ").isupper())
            ):
                continue  # "Articolul 16\nLegea nr. ...", "ART. I Legea nr. 207/2015 ... se modifică": a heading, and the
                # text under it, which begins with an act in the nominative (a citation writes "din Legea", "al Legii")
            if act is not None:
                unit.act, unit.act_start, unit.act_end = act, act.start, act.end
            else:
                # what follows the article, past any subdivision written after it ("ст. 5 п. 2 договора")
                after = pos.end() if is_ru and pos is not None and pos.group("after") else items_end
                if not self._act_around(unit, text, folded, g, after, mstart, base, acts_at, acts):
                    continue
            units.append(unit)
        return units

    def _act_around(
        self, unit: Unit, text: str, folded: str, g: ModuleType, after: int, mstart: int, base: int,
        acts_at: dict[int, ActMatch], acts: list[ActMatch],
    ) -> bool:
        """The act of an article no act follows, from the words around it; False when it is no citation at all
        (a clause of a contract, an act's own heading)."""
        items_end = unit.items_end
        one = len(unit.items) == 1
        ref = g.REFERENCE.match(folded, after)
        if ref is not None:
            if one and folded.find("\n", items_end, ref.end()) >= 0 and _is_heading(text, folded, mstart, base, items_end):
                return False  # "Articolul 16\nPrezenta lege intră în vigoare ...": a heading
            unit.ref = ref_kind(ref.group(0))
            unit.act_start, unit.act_end = items_end, ref.end()
            return True
        rules = g.APPROVED_RULES.match(folded, after)
        approver = acts_at.get(rules.end()) if rules is not None else None
        if approver is not None:  # "art. 251 din Regulamentul ..., aprobat prin Hotărârea ... nr. 8/1994"
            unit.act, unit.act_start, unit.act_end, unit.rule = approver, approver.start, approver.end, "approved-rules"
            return True
        back = named_back(text, folded, after, mstart, acts, g.HEAD_WORD) if acts else None
        if back is not None:  # "ст. 49 Основ": the act named before, by the word written here
            unit.act, unit.act_start, unit.act_end, unit.rule = back[0], items_end, back[1], "named-back"
            return True
        lo = max(0, unit.start - 60)
        adjective = (
            g.CONSTITUTIONAL_BEFORE.search(folded, lo, unit.start)
            if folded.find(g.CONSTITUTIONAL_WORD, lo, unit.start) >= 0 else None
        )
        if adjective is not None:  # "dispozițiile constituționale ale art. 21": the Constitution, before the article
            unit.act = act_match(adjective.start(), adjective.end(), g.CONSTITUTION, "code")
            unit.act_start, unit.act_end, unit.start = adjective.start(), adjective.end(), adjective.start()
            unit.rule = "constitutional-adjective"
            return True
        unnamed = g.UNNAMED_ACT.match(folded, after) if g.UNNAMED_ACT is not None else None
        if unnamed is not None and (text[unnamed.start("w")].isupper() or not g.UNNAMED_NEEDS_CAPITAL):
            unit.ref = UNNAMED  # "art. 46(2) din Regulamentul de organizare ...": cited, its act unknown
            return True
        if g.NOT_AN_ACT.match(folded, after):
            return False  # "п. 5.2 договора", "art. 5 din contract": a clause of a private document
        return not (one and _is_heading(text, folded, mstart, base, items_end))  # "Articolul 15\n", "ART. 3 In"

    def _unit_citations(self, u: Unit, text: str, j: Jurisdiction, out: list[Citation]) -> None:
        key = u.act.key if u.act is not None else None
        end = u.act_end if u.act_end > u.items_end else u.items_end
        if text[end - 1] in TRAILING:
            end = trim_end(text, u.start, end)
        act_text = text[u.act_start : u.act_end].strip(" ,;:\r\n\t\u00a0") if u.act_end > 0 else None
        # most citations: one article, at most one subdivision written before it
        if len(u.items) == 1 and len(u.parts) < 2:
            article, article_to, _, _, part = u.items[0]
            if u.parts:
                before = u.parts[0][0]
                part = before if not part else (f"{part} {before}" if j == "ru" else f"{before} {part}")
            out.append(new_citation(u.start, end, text[u.start : end], "article", j, key, act_text, article,
                                    article_to, part))  # fmt: skip
            return
        parts = u.parts or [("", u.start, u.start)]
        for n, (article, article_to, s, e, sub) in enumerate(u.items):
            first, last = n == 0, n == len(u.items) - 1
            variants = parts if first else [("", s, s)]
            for k, (part, ps, pe) in enumerate(variants):
                full = " ".join(x for x in (sub, part) if x) or None
                if j == "ro":
                    full = " ".join(x for x in (part, sub) if x) or None
                start = u.start if first and k == 0 else (ps if first else s)
                stop = (
                    end
                    if last and k == len(variants) - 1
                    else (pe if len(variants) > 1 and k < len(variants) - 1 else e)
                )
                if not (last and k == len(variants) - 1) and len(u.items) > 1 and k == len(variants) - 1:
                    stop = e
                stop = trim_end(text, start, stop)
                out.append(
                    new_citation(
                        start, stop, text[start:stop], "article", j, key, act_text, article, article_to, full
                    )
                )


# ---------------------------------------------------------------------- helpers
@lru_cache(maxsize=8192)
def _items(written: str, is_ru: bool) -> tuple[tuple[str, str | None, int, int, str | None], ...]:
    """The articles of a written list or range, offsets relative to it: answers repeat the same lists."""
    out = []
    for it in (ru.ITEM_RE if is_ru else ro.ITEM_RE).finditer(written):
        if is_ru:
            a, b, bracket = it.group("a"), it.group("b"), it.group("sub")
            sub = _ru_part_after(bracket) if bracket else None  # "35 (часть 2)"
            if b is not None and b.isdigit() and it.end("a") + 1 == it.start("b") and int(b) < int(a.split(".")[0]):
                a, b = f"{a}.{b}", None  # "ст. 14.1.1-1": an inserted article (the corpus's 14.1.1.1), no range
        else:
            a, b, written_sub = ro.article_number(it.group("a")), it.group("b"), it.group("sub")
            b = ro.article_number(b) if b else None
            sub = ro.sub_parts(written_sub) if written_sub else None
        out.append((a, b, it.start(), it.end(), sub))
    return tuple(out)


_LINE_LEAD = frozenset(" \t+*#>-\"„“«'")  # '"Art. 14^1. - Ori de câte ori ...': the heading of a quoted new article
_QUOTES = frozenset('"«„“')
_STOP_DASH = re.compile(r"\.[ \t]*[-–—−][ \t]+(?:\(\d|[A-ZĂÂÎȘȚŞŢА-ЯЁ])")  # "Art. 2. − Procedurile ...", "Art. 77^1. - (1)"
_NOMINATIVE_ACT = re.compile(r"(?:legea|ordonanta|hotararea|ordinul|decizia|decretul)(?![a-z])")
_INFLECTED_RU_WORD = re.compile(r"стат(?:ь(?:и|е|ю|ей|ям|ями|ях)|ей)(?![а-я])")
_DASH_TITLE = re.compile(r"[ \t]*[-–—−][ \t]+[A-ZĂÂÎȘȚŞŢА-ЯЁ]")  # "Articolul 668 - Somația": the article's title


def _is_heading(text: str, folded: str, start: int, items: int, end: int) -> bool:
    """Whether an article word and number with no act after them head an article of the text itself rather than
    cite one: written in capitals ("ART. 1", "ARTICOLUL 15"), or alone at the start of a line ("Articolul 15" and
    the line ends, "Art. 1." then the text, "Articolul 1Se aprobă" run together by a lost line break)."""
    word = text[start:items].strip()
    if word == "Articolul" and folded.startswith("\n", end):
        return True  # "... emite următorul ordin: Articolul 1\n(1) Se aprobă": a heading a lost line break ran on
    if _INFLECTED_RU_WORD.match(folded, start):
        return False  # "ЧАСТЬЮ ПЕРВОЙ СТАТЬИ 128.1\nУГОЛОВНОГО КОДЕКСА": a heading's word is "Статья", never inflected
    if word[:1].isupper() and _STOP_DASH.match(text, end):
        return True  # "... Codul fiscal: Definirea venitului ... Art. 77^1. - (1) La transferul": a quoted article's heading
    if (len(word) > 2 and word.replace(".", "").isupper()) or text[end : end + 1].isupper():
        return True
    k = start - 1
    while k >= 0 and (text[k] in _LINE_LEAD or unicodedata.category(text[k])[0] == "S"):
        k -= 1
    if k >= 0 and folded[k] != "\n":
        return False
    rest = folded[end : end + 3]
    if not rest or rest[0] == "\n" or text[end].isupper() or _DASH_TITLE.match(text, end):
        return True
    if rest[0] in ".:" and _DASH_TITLE.match(text, end + 1):
        return True  # "Art. 1. – La articolul 4 ...", "Art. 14^1. - Ori de câte ori ...": the article's own text follows
    return rest[0] in ".:" and (len(rest) < 2 or rest[1] == "\n" or (rest[1] == " " and text[end + 2 : end + 3].isupper()))


def _ru_parts(prefix: str, base: int) -> list[tuple[str, int, int]]:
    if base == 0:
        return list(_ru_parts_at_zero(prefix))
    return [(name, base + s, base + e) for name, s, e in _ru_parts_at_zero(prefix)]


@lru_cache(maxsize=4096)
def _ru_parts_at_zero(prefix: str) -> tuple[tuple[str, int, int], ...]:
    """The part variants of a written prefix ("п. 3 ч. 1 "), offsets relative to it: a handful of prefixes
    make up most answers, so each is read once."""
    levels: list[list[tuple[str, int, int]]] = []
    for m in ru.PART_RE.finditer(prefix):
        name = ru.part_name(m.group("word"))
        vals = [
            (f"{name} {ru.part_value(v.group())}", m.start("vals") + v.start(), m.start("vals") + v.end())
            for v in ru.PART_VAL_RE.finditer(m.group("vals"))
        ]
        if vals:
            levels.append(vals)
    if len(levels) < 2:
        # one level ("п. 3", "пп. 1 и 2"): its values are the variants
        return tuple(levels[0]) if levels else ()
    out = []
    for combo in product(*levels):
        out.append((" ".join(c[0] for c in combo), min(c[1] for c in combo), max(c[2] for c in combo)))
    return tuple(out)


@lru_cache(maxsize=1024)
def _ru_part_after(written: str) -> str | None:
    """'ч. 1 п. 6' written after the article number -> 'п. 6 ч. 1', the order of a part written before it."""
    names = []
    for m in ru.PART_RE.finditer(written):
        v = ru.PART_VAL_RE.search(m.group("vals"))
        if v is not None:
            names.append(f"{ru.part_name(m.group('word'))} {ru.part_value(v.group())}")
    return " ".join(reversed(names)) or None


def _ro_parts(prefix: str, base: int) -> list[tuple[str, int, int]]:
    part = ro.sub_parts(prefix) if prefix else None
    return [(part, base, base + len(prefix))] if part else []


_RU_PARTS_END = frozenset('0123456789")')
_RU_ORDINAL_END = frozenset("йюяе")  # the last letters of "первой", "вторую", "третья", "шестые"


def _may_follow_parts(folded: str, pos: int, j: str) -> bool:
    """Cheap test before reading subdivisions backwards: they end in a number, a letter in quotes or a
    bracket (ru), or in "al" / "a" / "din" (ro, "alin. (2) al art. 5")."""
    k = pos - 1
    while k >= 0 and folded[k] == " ":
        k -= 1
    if k < 0 or k == pos - 1:
        return False
    if j == "ru":
        return folded[k].isdigit() or folded[k] in '")'
    return folded.endswith((" al", " a", "din", " la"), 0, k + 1)


# "п. 9.10 ", "пунктов 2.1.1 и 2.3.2 ", "подп. 2.1.1, 2.1.2 " right before the rules' name
_RULE_POINTS = re.compile(
    r"(?:подпункт[а-я]*|подп\.|пп\.|пункт[а-я]*|п\.)\s*(?P<numbers>\d+(?:\.\d+)*(?:\s*(?:,|и)\s*\d+(?:\.\d+)*)*)\s+\Z"
)
_RULE_NUMBER = re.compile(r"\d+(?:\.\d+)*")
_APPROVED_POINTS = re.compile(
    r"(?<![а-я])(?:подпункт[а-я]*|подп\.|пп\.|пункт[а-я]*|п\.)\s*(?P<numbers>\d+(?:\.\d+)*(?:\s*(?:,|и)\s*\d+(?:\.\d+)*)*)"
    r"\s+(?:правил|положени|порядк|регламент|требовани)[а-я]*(?:[^.;()]{0,200}?)[,\s]+(?:утв\.|утвержд[её]нн[а-я]*)\s+\Z"
)
# "Налоговый кодекс РФ (далее — НК РФ)", "Legea nr. 85/2014 (în continuare „Legea insolvenței”)": the short name
# a text defines for an act it has just cited is not a second citation of it.
_DEFINED_AS = re.compile(r"\((?:далее(?:\s+по\s+тексту)?|(?:denumit[a-z]*\s+)?in\s+continuare)[\s:,-]*\"?\s*\Z")
# "Normele metodologice de aplicare a Legii nr. 571/2003 privind Codul fiscal, aprobate prin Hotărârea Guvernului
# nr. 44/2004": the law is part of the name of the rules, and the rules are cited as the act that approved them.
_RULES_OF = re.compile(r"(?:norme|normele|normelor|metodologia|metodologiei|regulamentul|regulamentului)"
                       r"(?:\s+metodologice)?\s+de\s+aplicare\s+a(?:le)?\s+(?:<[^>]{0,40}>\s*)?\Z")
_APPROVED_AFTER = re.compile(r"\s*,?\s*aprobat[a-z]*\s+prin\s")


def _in_approved_rules_name(folded: str, act: ActMatch) -> bool:
    return bool(_APPROVED_AFTER.match(folded, act.end) and _RULES_OF.search(folded, max(0, act.start - 70), act.start))


def _named_enough(folded: str, act: ActMatch, reg: ActRegistry) -> bool:
    """A bare two- or three-letter abbreviation is an act only beside an article: alone, "СК" is more often an
    insurance company than the Family Code; so are the registry's `beside_article` names ("ОСАГО")."""
    written = folded[act.start : act.end]
    return len(written) - written.count(" ") - written.count(".") >= 4 and (
        written not in reg.beside_article_only
    )


def _abbreviation_known_here(text: str, folded: str, act: ActMatch, beside: set[str], reg: ActRegistry) -> bool:
    """ "ГК, другими законами ... может быть предусмотрено иное" after "ст. 430 ГК": a bare code abbreviation is the
    code where the same text writes it, in capitals, beside an article of that code."""
    written = folded[act.start : act.end]
    return (
        written in beside
        and written not in reg.beside_article_only
        and text[act.start : act.end].isupper()
        and act.type == "code"
    )


_STRAY_DOT = re.compile(r" (?:\.\d+)+(?![\d])")
_GENITIVE_HEAD = re.compile(r"[а-я]+(?:а|ого|ой)(?![а-я])|[а-я]{2,5}\s+рф(?![а-я])")
_SPACED_DOT = re.compile(r"\. (\d{1,2})(?![\d.])")


def _genitive_act_after_stop(folded: str, act: ActMatch | None) -> ActMatch | None:
    """ "по статье 314.1. Гражданского кодекса", "ч. 1 ст. 12.8. КоАП РФ": an article number closed by a stop, its
    act after it. Only an act in the genitive or a code's initials with "РФ" go with the article; a new sentence
    beginning with an act names it ("Гражданский кодекс ...")."""
    if act is None or not _GENITIVE_HEAD.match(folded, act.start):
        return None
    return act


_by_span = attrgetter("start", "end")
_start_of = attrgetter("start")


# the quoted title written right after an act or an article's citation, past an edition note: "Распоряжение ... N
# 870-р (ред. от 15.12.2016) "О внесении изменений в распоряжение ... N 791-р"", "ст. 264.1 УК РФ «Нарушение правил
# дорожного движения ...»"
_QUOTED_TITLE = re.compile(
    r"[ \t]*(?:\((?:в\s+)?ред\.[^)\n]{0,60}\)[ \t]*)?(?:\"[^\"\n]{3,400}\"|«[^»\n]{3,400}»|„[^“”\"\n]{3,400}[“”\"])"
)


def _quoted_titles(folded: str, ends: list[int]) -> list[tuple[int, int]]:
    """The spans of the quoted titles that follow an act or an article: an act named inside one (an amending act's
    "О внесении изменений в ...", an article's title) is part of that title, not cited on its own."""
    out = []
    for end in ends:
        if end > 0:
            m = _QUOTED_TITLE.match(folded, end)
            if m is not None:
                out.append((end, m.end()))
    return out


def _starts_inside(start: int, spans: list[tuple[int, int]]) -> bool:
    return any(s <= start < e for s, e in spans)


def _inside_an_act(acts: list[ActMatch], pos: int) -> bool:
    """Whether `pos` lies inside an act's span (its title), not at its start: `acts` are ordered and disjoint."""
    i = bisect_right(acts, pos, key=_start_of) - 1
    return i >= 0 and acts[i].start < pos < acts[i].end


def _overlaps(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(start < e and s < end for s, e in spans)

"""The act and court registry: canonical keys (docs/formats.md, "Canonical act keys") and every way answers write them.

Kept as data (citations/data/*.yaml) so the corpus engineer and reviewers can add a name without touching the
grammar; the corpus maps document titles to act keys through `ActRegistry.key_for` as well, so one file decides
what "ГК РФ" means everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from citations.grammar import eu
from citations.grammar import ro as ro_grammar
from citations.grammar import ru as ru_grammar
from citations.name_patterns import first_char_alternation, name_pattern
from citations.registry_data import (
    DATA,
    ActEntry,
    Court,
    NumberedForm,
    load_courts,
    load_entries,
    load_numbered,
    load_unverifiable,
)
from citations.text import DATE, fold

__all__ = ["DATA", "ActEntry", "ActMatch", "ActRegistry", "Court", "NumberedForm", "default_registry"]


@dataclass(frozen=True, slots=True)
class ActMatch:
    """An act written at [start, end) of the folded text; key is None for a law we cannot name (untitled)."""

    start: int
    end: int
    key: str | None
    type: str  # code | law | ordinance | ...: what a later "того же закона" / "același cod" may point back to


_new = object.__new__
_m_start, _m_end, _m_key, _m_type = (getattr(ActMatch, f).__set__ for f in ("start", "end", "key", "type"))


def _act_match(start: int, end: int, key: str | None, type_: str) -> ActMatch:
    """An ActMatch without the frozen dataclass __init__: a scan makes one per act written (see new_citation)."""
    m: ActMatch = _new(ActMatch)
    _m_start(m, start)
    _m_end(m, end)
    _m_key(m, key)
    _m_type(m, type_)
    return m


act_match = _act_match  # for the extractor, which names an act the grammar reads outside the registry


_RU_SUFFIX = r"(?:\s+(?:рф|российской\s+федерации|россии|рсфср)(?![а-я]))?"
_RU_BARE_FZ = r"(?P<bnum>\d+)-фз(?![а-я])"
# Scanning for "-фз" first (a literal the regex engine skips to in C) instead of for the digits before it.
_RU_BARE_FZ_TAIL = re.compile(r"-фз(?![а-я])")
_NUMBER_SIGN = re.compile(r"(?:№|n)\s*\Z")
# between a code's name and the number of the law that enacted it: its part, a closing quote, the date
_CODE_OWN_NUMBER = re.compile(rf"\s*(?:\(\s*част[а-я]*\s+[а-я]+\s*\))?\s*[\"»]?\s*(?:от\s+{DATE}\s*(?:г\.\s*)?)?")
_RU_LAW_AFTER_TITLE = re.compile(
    rf"(?:\s+от\s+{DATE})?\s*(?:№|n)\s*\d+(?:-\d+)?(?:-фк?з)?(?![а-я0-9])(?:\s+от\s+{DATE})?|\s+от\s+{DATE}"
)
_LATE_NUMBER = re.compile(r"(?:№|n)\s*(\d+(?:-\d+)?)(-фк?з)?")
_TITLE_HEAD_AT = re.compile(r"\s*\"?\s*([а-я]+)\s+([а-я]{1,3})")


def _title_head(title: str) -> tuple[str, str]:
    """A title's first word and the first three letters of the next: literal in its pattern (stems keep three)."""
    words = title.split()
    return (words[0], words[1][:3]) if len(words) > 1 else (words[0], "")


_BARE_NUMBER_AFTER = re.compile(r"\s+(\d+)-фз(?![а-я])")
_UNKNOWN_TITLE = re.compile(r"\s+(?:о|об|обо)\s+[а-я]")
_SLUG_SAFE = re.compile(r"[^a-z0-9-]+")
_TRANSLIT = str.maketrans(
    "абвгдежзийклмнопрстуфхцчшщъыьэюя", "abvgdejziiklmnoprstufhccss_y_eua"
)


_BARE_DECISION = re.compile(r"hotarare\s+nr")
# What may follow an act's name in a document title without changing which act it is:
# "(часть первая)", "(ред. от 31.07.2025)", "часть вторая", "din 17 iulie 2009", "republicată", a quoted title.
_TITLE_TRAILER = re.compile(
    r"[\s.]*(?:(?:\(|,|-|часть\s|ред\.|в\s+ред|с\s+изм|от\s+\d|din\s+\d|republicat|actualizat|\").*)?", re.S
)


def _by_start_longest_first(act: ActMatch) -> tuple[int, int]:
    return act.start, -act.end


def _word_start(folded: str, pos: int) -> bool:
    return pos == 0 or not folded[pos - 1].isalpha()


def _ro_type(word: str) -> str:
    w = word.replace(".", "").replace(" ", "")
    if w.startswith("ordin"):
        return "ordin"
    if "camerei" in w:
        return "hcd"
    if "ministri" in w or w.startswith("hcm"):
        return "hcm"
    if "parlamentului" in w:
        return "hparl"
    if "prim" in w:
        return "dpm"
    if w.startswith(("legea", "legii", "lege")) or w == "l":
        return "lege"
    if w.startswith("oug") or "urgen" in w:
        return "oug"
    if w.startswith("og") or w.startswith("ordonan"):
        return "og"
    if w.startswith("hg") or w.startswith(("hotarar", "hotrr")):  # "Hotrrea": a PDF layer dropped the diacritics
        return "hg"
    return "decret"


class ActRegistry:
    """Canonical act keys with their names; compiled once into one matcher per jurisdiction."""

    def __init__(
        self,
        entries: list[ActEntry],
        courts: list[Court],
        numbered: list[NumberedForm] | None = None,
        unverifiable: tuple[str, ...] = (),
    ) -> None:
        self.entries = {e.key: e for e in entries}
        self.numbered = numbered or []
        self.unverifiable = unverifiable
        self.courts = courts
        self._by_slug: dict[str, str] = {}
        heads: dict[tuple[str, str], list[tuple[str, str]]] = {}
        alias: dict[str, list[tuple[str, str]]] = {"ru": [], "ro": []}
        # written forms that name the act only beside an article: alone, "ОСАГО" is the insurance, not the law
        self.beside_article_only = frozenset(fold(n).strip() for e in entries for n in e.beside_article)
        for e in entries:
            for lang in e.languages:
                for name in e.beside_article:
                    alias[lang].append((name_pattern(name, lang), e.key))
                for name in e.names:
                    alias[lang].append((name_pattern(name, lang), e.key))
            for slug in (*e.slugs, e.key.split("/", 1)[1]):
                self._by_slug[f"{e.key.split('/', 1)[0]}/{slug}"] = e.key
            for t in e.titles:
                heads.setdefault(_title_head(fold(t)), []).append((name_pattern(t, "ru"), e.key))
        self._alias_keys: dict[str, dict[str, str]] = {}
        self._alias_re: dict[str, re.Pattern[str]] = {}
        self._alias_scan: dict[str, re.Pattern[str]] = {}
        self._alias_by_char: dict[str, dict[str, re.Pattern[str]]] = {}
        # written form -> (key, type): answers repeat "ГК РФ" a lot
        self._alias_cache: dict[str, dict[str, tuple[str, str]]] = {}
        for j, pairs in alias.items():
            pairs.sort(key=lambda p: -len(p[0]))
            groups = {f"a{i}": key for i, (_, key) in enumerate(pairs)}
            self._alias_keys[j] = groups
            suffix = _RU_SUFFIX if j == "ru" else ""
            body = "|".join(f"(?P<a{i}>{pat})" for i, (pat, _) in enumerate(pairs))
            self._alias_re[j] = re.compile(rf"(?<![а-яa-z])(?:{body}){suffix}")
            self._alias_scan[j] = re.compile(
                f"(?:{first_char_alternation([pat for pat, _ in pairs])}){suffix}"
            )
            self._alias_cache[j] = {}
            by_char: dict[str, list[int]] = {}
            for i, (pat, _) in enumerate(pairs):
                by_char.setdefault(pat[0], []).append(i)
            self._alias_by_char[j] = {
                c: re.compile("(?:" + "|".join(f"(?P<a{i}>{pairs[i][0]})" for i in idx) + f"){suffix}")
                for c, idx in by_char.items()
            }
        # After a law, only the titles sharing its first word and the first letters of the next one can match:
        # one small pattern each instead of trying every title in turn after every law an answer names.
        self._title_by_head: dict[tuple[str, str], tuple[re.Pattern[str], list[str]]] = {}
        for head, pairs in heads.items():
            pairs.sort(key=lambda p: -len(p[0]))
            body = "|".join(f"(?P<t{i}>{pat})" for i, (pat, _) in enumerate(pairs))
            self._title_by_head[head] = (re.compile(rf"\s*\"?\s*(?:{body})\s*\"?"), [k for _, k in pairs])
        self._quoted_re = re.compile(r"\s*\"[^\"\n]{3,250}\"")
        # No look-behind in front: the scans then start from a literal first letter, which the regex engine
        # skips to in C; word boundaries are checked on each hit instead.
        self._ru_law_re = re.compile(ru_grammar.LAW)
        self._ru_bare_fz = re.compile(_RU_BARE_FZ)
        self._ro_law_re = re.compile(ro_grammar.ACT_LAW)
        self._ro_law_cache: dict[str, tuple[str, str]] = {}  # written law -> (key, type)
        self._court_re = {c.court: re.compile(c.pattern) for c in courts}

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(cls, acts: Path = DATA / "acts.yaml", courts: Path = DATA / "courts.yaml") -> ActRegistry:
        return cls(load_entries(acts), load_courts(courts), load_numbered(acts), load_unverifiable(acts))

    # ------------------------------------------------------------------ public look-ups
    def key_for(self, name: str, jurisdiction: str) -> str | None:
        """The act key a whole name stands for ("Гражданского кодекса" -> ru/gk), or None."""
        folded = fold(name).strip().rstrip(",;")
        m = self.match_at(folded, 0, jurisdiction)
        if m is None or not _TITLE_TRAILER.fullmatch(folded, m.end):
            return None
        if m.type == "hg" and _BARE_DECISION.match(folded):
            return None  # a document headed "HOTĂRÂRE nr. 14 ..." may be a chamber's: its issuer decides, not this
        return m.key

    def title(self, key: str) -> str:
        entry = self.entries.get(key)
        return entry.title if entry is not None else key

    def aliases(self, key: str) -> tuple[str, ...]:
        entry = self.entries.get(key)
        return () if entry is None else (*entry.names, *entry.titles)

    @property
    def examples(self) -> dict[str, tuple[str, ...]]:
        return {key: e.examples for key, e in self.entries.items()}

    def kind_of(self, key: str | None) -> str:
        entry = self.entries.get(key or "")
        if entry is not None:
            return entry.type
        return "law"

    def is_verifiable_act(self, key: str) -> bool:
        """Whether the corpus can hold the act at all: not an EU act, the ECHR or a regional law."""
        return not key.startswith(self.unverifiable)

    def court_pattern(self, court: str) -> re.Pattern[str]:
        return self._court_re[court]

    def is_verifiable(self, court: str | None) -> bool:
        return any(c.court == court and c.verifiable for c in self.courts)

    # ------------------------------------------------------------------ matching inside a folded text
    def match_at(self, folded: str, pos: int, jurisdiction: str) -> ActMatch | None:
        """The act written exactly at `pos` of a folded text, the longest reading first."""
        for scan, make in self._other_scans(jurisdiction):
            other = scan.match(folded, pos)
            if other is not None and _word_start(folded, pos):
                return make(other)
        if jurisdiction == "ru":
            law = self._ru_law(folded, pos)
            if law is not None:
                return law
        else:
            m = self._ro_law_re.match(folded, pos)
            law = self._ro_law(m) if m is not None and _word_start(folded, pos) else None
            if law is not None:
                return law
        m = self._alias_re[jurisdiction].match(folded, pos)
        if m is None or m.lastgroup is None:
            return None
        key = self._alias_keys[jurisdiction][m.lastgroup]
        return _act_match(pos, m.end(), key, self.kind_of(key))

    def find_all(self, folded: str, jurisdiction: str) -> Iterator[ActMatch]:
        """Every act written anywhere in a folded text, left to right, without overlaps."""
        yield from self.acts_in(folded, jurisdiction)

    def acts_in(self, folded: str, jurisdiction: str) -> list[ActMatch]:
        """find_all as a list: the extractor's hot path, without a generator's step per act."""
        found: list[ActMatch] = []
        if jurisdiction == "ru":
            for m in self._ru_law_re.finditer(folded):
                law = self._ru_law(folded, m.start(), m)
                if law is not None:
                    found.append(law)
            laws, i = len(found), 0
            for m in _RU_BARE_FZ_TAIL.finditer(folded):
                start = m.start()
                while start and folded[start - 1].isdigit():
                    start -= 1
                if start == m.start():
                    continue  # "-фз" after no number
                while i < laws and found[i].end <= start:
                    i += 1
                if i < laws and found[i].start <= start:
                    continue  # the "№ 127-ФЗ" of a law read whole above: its bare reading would be dropped below
                law = self._ru_law(folded, start)
                if law is not None:
                    found.append(law)
        else:
            found.extend(
                law for m in self._ro_law_re.finditer(folded) if _word_start(folded, m.start())
            if (law := self._ro_law(m)) is not None
            )
        for scan, make in self._other_scans(jurisdiction, folded):
            found.extend(make(m) for m in scan.finditer(folded) if _word_start(folded, m.start()))
        laws = len(found)  # the alias scan below yields its own hits in order and without overlaps
        by_char = self._alias_by_char[jurisdiction]
        cache = self._alias_cache[jurisdiction]
        for hit in self._alias_scan[jurisdiction].finditer(folded):
            start, end = hit.span()
            if start and folded[start - 1].isalpha():
                continue
            written = hit.group()
            known = cache.get(written)
            if known is None:
                # the scan finds where; the few names sharing the first letter say which act
                named = by_char[folded[start]].fullmatch(written)
                if named is None or named.lastgroup is None:
                    continue
                key = self._alias_keys[jurisdiction][named.lastgroup]
                known = cache[written] = (key, self.kind_of(key))
            found.append(_act_match(start, end, *known))
        if laws == 0:
            return found
        found.sort(key=_by_start_longest_first)
        out: list[ActMatch] = []
        end = -1
        for act in found:
            if act.start >= end:
                end = act.end
                out.append(act)
        if jurisdiction == "ru" and len(out) > 1:
            out = self._codes_with_their_numbers(folded, out)
        return out

    def _codes_with_their_numbers(self, folded: str, acts: list[ActMatch]) -> list[ActMatch]:
        """ "Семейный кодекс Российской Федерации от 29.12.1995 N 223-ФЗ", "Налоговый кодекс Российской Федерации
        (часть вторая)" от 05.08.2000 N 117-ФЗ": a code is enacted as a federal law, and the number written after
        its name is that law's, not a second act."""
        out = [acts[0]]
        for act in acts[1:]:
            prev = out[-1]
            if (prev.type == "code" and act.type == "law" and act.key is not None and act.key.startswith("ru/fz-")
                    and _CODE_OWN_NUMBER.fullmatch(folded, prev.end, act.start)):
                out[-1] = _act_match(prev.start, act.end, prev.key, prev.type)
            else:
                out.append(act)
        return out

    def _other_scans(
        self, jurisdiction: str, folded: str | None = None
    ) -> list[tuple[re.Pattern[str], Callable[[re.Match[str]], ActMatch]]]:
        """The scans for acts outside the codes and laws: European acts in both languages, Russian Government
        and Duma resolutions and regional laws. Given the text, only those whose gate words it contains (each a
        C-speed substring test: most texts name none of them)."""
        table = _OTHER_SCANS[jurisdiction]
        if folded is None:
            return [(scan, make) for _, scan, make in table]
        for n in _GATE_WORDS[jurisdiction]:  # a C-speed substring test each: most texts name none of these acts
            if n in folded:
                break
        else:
            return []
        return [(scan, make) for needles, scan, make in table if any(n in folded for n in needles)]

    def _ru_law(self, folded: str, pos: int, m: re.Match[str] | None = None) -> ActMatch | None:
        """The law written at `pos`; `m` is the law pattern's match there when the caller's scan has it."""
        if not _word_start(folded, pos):
            return None
        if m is None:
            bare = self._ru_bare_fz.match(folded, pos)
            if bare is not None:
                sign = _NUMBER_SIGN.search(folded, max(0, pos - 4), pos)
                start = sign.start() if sign else pos
                return _act_match(start, bare.end(), self._slug("ru", f"fz-{bare.group('bnum')}"), "law")
            m = self._ru_law_re.match(folded, pos)
            if m is None:
                return None
        end = m.end()
        key: str | None = None
        num = m.group("num")
        if num is not None:
            if num.endswith("-i"):
                num = num[:-1] + "1"  # "№ 2300-I": the Roman one of the Supreme Soviet's laws
            head, fz_sign = m.group("lawhead"), m.group("fz")
            if fz_sign == "-фкз" or "конституционн" in head:  # "Федеральный конституционный закон № 3-ФКЗ"
                slug = f"fkz-{num}"  # numbered apart from the federal laws
            else:
                # "ФЗ от 07.02.1992 № 2300-1": a number ending "-1" is a law of the Supreme Soviet (1991-1993),
                # never a federal law (those end "-ФЗ") whatever word the writer put before it
                federal = fz_sign or (head.startswith(("федеральн", "фз")) and not num.endswith("-1"))
                slug = f"fz-{num}" if federal else f"zakon-{num}"
            key = self._slug("ru", slug)
        t = self._title_after(folded, end)
        if t is not None:
            key = key or t[0]
            end = t[1]
        else:
            q = self._quoted_re.match(folded, end)
            if q is not None:
                end = q.end()
            elif num is None:
                bare = _BARE_NUMBER_AFTER.match(folded, end)
                if bare is not None:  # "Федерального закона 127-ФЗ": the number without its sign
                    return _act_match(pos, bare.end(), self._slug("ru", f"fz-{bare.group(1)}"), "law")
                if _UNKNOWN_TITLE.match(folded, end):
                    return _act_match(
                        pos, end, None, "law"
                    )  # "Закона о полиции": a law, just not one we know
                regional = ru_grammar.REGIONAL.match(folded, pos)
                if regional is not None:  # "Закон г. Москвы от 05.05.2010 № 17": a region's law
                    return _ru_regional(regional)
                return None  # the bare word "закон" names no act
        if num is None and end > m.end():
            after = _RU_LAW_AFTER_TITLE.match(folded, end)  # «О ...» от 26.10.2002 № 127-ФЗ: the number last
            if after is not None:
                end = after.end()
                late = _LATE_NUMBER.search(after.group())
                if key is None and late is not None:  # a title we do not know: the number still names the law
                    kind = "fkz" if late.group(2) == "-фкз" or "конституционн" in m.group("lawhead") else "fz"
                    key = self._slug("ru", f"{kind}-{late.group(1)}")
        return _act_match(pos, end, key, "law")

    def _title_after(self, folded: str, pos: int) -> tuple[str, int] | None:
        """The key and end of a known law title written at `pos` ("«О защите прав потребителей»"), if any."""
        h = _TITLE_HEAD_AT.match(folded, pos)
        if h is None:
            return None
        found = self._title_by_head.get((h.group(1), h.group(2)))
        if found is None:
            return None
        t = found[0].match(folded, pos)
        if t is None or t.lastgroup is None:
            return None
        return found[1][int(t.lastgroup[1:])], t.end()

    def _ro_law(self, m: re.Match[str]) -> ActMatch | None:
        written = m.group()
        known = self._ro_law_cache.get(written)  # answers repeat "Legea nr. 85/2014" a lot
        if known is None:
            rtype = _ro_type(m.group("rtype"))
            words = m.group("words")
            if rtype != "ordin" and words and ("," in words or words.count(" ") + words.count("\n") > 5):
                return None  # a law's name between "Legea" and its number is short and has no comma
            slug = f"{rtype}-{m.group('rnum').replace('.', '')}-{m.group('ryear') or m.group('ryear2')}"
            known = (self._slug("ro", slug), rtype)
            if len(self._ro_law_cache) > 4096:
                self._ro_law_cache.clear()
            self._ro_law_cache[written] = known
        return _act_match(
            m.start(), m.end(), *known
        )  # type as written: "aceeași lege" points back to a Legea

    def ro_law_in(self, folded: str) -> tuple[int, str, str] | None:
        """The first Romanian act `folded` names by type and number ("legea nr. 287/2009", "oug nr. 195/2002",
        "legea 53 din 2003"): where it starts, its key and its number as "number/year"."""
        for m in self._ro_law_re.finditer(folded):
            law = self._ro_law(m) if _word_start(folded, m.start()) else None
            if law is not None:
                number = f"{m.group('rnum').replace('.', '')}/{m.group('ryear') or m.group('ryear2')}"
                return m.start(), law.key or "", number
        return None

    def _slug(self, jurisdiction: str, slug: str) -> str:
        return self._by_slug.get(f"{jurisdiction}/{slug}", f"{jurisdiction}/{slug}")


def _eu_regulation(m: re.Match[str]) -> ActMatch:
    return _act_match(m.start(), m.end(), eu.regulation_key(m), "eu")


def _eu_directive(m: re.Match[str]) -> ActMatch:
    return _act_match(m.start(), m.end(), eu.directive_key(m), "eu")


def _eu_decision(m: re.Match[str]) -> ActMatch:
    return _act_match(m.start(), m.end(), eu.decision_key(m), "eu")


def _echr_protocol(m: re.Match[str]) -> ActMatch:
    return _act_match(m.start(), m.end(), eu.protocol_key(m), "convention")


def _ru_government(m: re.Match[str]) -> ActMatch:
    return _act_match(m.start(), m.end(), f"ru/pp-{m.group('num')}", "resolution")


def _ru_government_order(m: re.Match[str]) -> ActMatch:
    return _act_match(m.start(), m.end(), f"ru/rp-{m.group('num')}", "resolution")


def _ru_duma(m: re.Match[str]) -> ActMatch:
    return _act_match(m.start(), m.end(), f"ru/gd-{m.group('num')}", "resolution")


def _ru_regional(m: re.Match[str]) -> ActMatch:
    region = m.group("region").split()[-1] if m.group("region").startswith(("г.", "город")) else m.group("region")
    slug = _SLUG_SAFE.sub("-", region.translate(_TRANSLIT).replace("_", "")).strip("-")
    number = _SLUG_SAFE.sub("-", m.group("num").translate(_TRANSLIT).replace("_", "")).strip("-")
    return _act_match(m.start(), m.end(), f"ru/region-{slug}-{number}", "law")


def _gdpr(m: re.Match[str]) -> ActMatch:
    return _act_match(m.start(), m.end(), eu.GDPR, "eu")


_EU_SCANS: list[tuple[tuple[str, ...], re.Pattern[str], Callable[[re.Match[str]], ActMatch]]] = [
    (("regulament", "регламент"), eu.REGULATION, _eu_regulation),
    (("regulament", "регламент", "gdpr"), eu.GDPR_NAME, _gdpr),
    (("directiv", "директив"), eu.DIRECTIVE, _eu_directive),
    # gated on the union written with the number: "decizi" and "решени" are in most court texts
    (("/ce", "/ue", "(ue", "/ес"), eu.DECISION, _eu_decision),
    (("protocol", "протокол"), eu.PROTOCOL, _echr_protocol),
]
_OTHER_SCANS = {
    "ro": _EU_SCANS,
    "ru": [
        *_EU_SCANS,
        (("правительств",), ru_grammar.GOVERNMENT, _ru_government),
        (("правительств",), ru_grammar.GOVERNMENT_ORDER, _ru_government_order),
        (("думы",), ru_grammar.DUMA, _ru_duma),
    ],
}


_GATE_WORDS = {j: tuple(dict.fromkeys(n for needles, _, _ in table for n in needles)) for j, table in _OTHER_SCANS.items()}


@lru_cache(maxsize=1)
def default_registry() -> ActRegistry:
    return ActRegistry.load()

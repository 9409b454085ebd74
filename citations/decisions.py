"""Court decisions cited in an answer: Plenum resolutions, constitutional and supreme court decisions, lower
courts, the ECHR and the CJEU, Russian or Romanian.

A decision is read from its document word ("постановления", "decizia") onwards; what may stand before it (a
point, or the court in "КС РФ в постановлении ...") is read backwards from there. Answers that name no court
at all skip every scan here, which is most of them.
"""

from __future__ import annotations

import re
from types import ModuleType

from citations.grammar import ro, ru
from citations.model import Citation, new_citation
from citations.registry import ActRegistry
from citations.text import fold, iso_date, search_back, trim_end

_RU_COURT_ABBREVIATIONS = ("вс", "кс", "вас")  # before "рф": the courts named without the word "суд"


class DecisionFinder:
    """The decision scans, compiled once from the registry's courts."""

    def __init__(self, registry: ActRegistry) -> None:
        self.reg = registry
        ru_courts = "|".join(f"(?:{c.pattern})" for c in registry.courts if c.jurisdiction == "ru")
        ro_courts = "|".join(f"(?:{c.pattern})" for c in registry.courts if c.jurisdiction == "ro")
        self._ru_decisions = ru.decision_patterns(ru_courts)
        self._ro_decision = ro.decision_pattern(ro_courts)
        self._courts = {j: [c for c in registry.courts if c.jurisdiction == j] for j in ("ru", "ro")}
        self._court_full = {c.court: re.compile(c.pattern + r"\Z") for c in registry.courts}
        self._court_cache: dict[tuple[str, str], str | None] = {}  # answers name the same few courts
        self._known_courts = frozenset(c.court for c in registry.courts)

    def _canonical_court(self, folded_court: str, j: str) -> str | None:
        if (folded_court, j) in self._court_cache:
            return self._court_cache[(folded_court, j)]
        court = next(
            (c.court for c in self._courts[j] if self._court_full[c.court].match(folded_court)), None
        )
        if len(self._court_cache) > 4096:
            self._court_cache.clear()
        self._court_cache[(folded_court, j)] = court
        return court

    def ru(self, text: str, folded: str) -> list[Citation]:
        """Russian decisions. The gate below assumes every Russian court pattern (courts.yaml) holds "суд" or
        "еспч" or ends in "ВС/КС/ВАС РФ": a court named otherwise needs its word added to the gate."""
        found: list[Citation] = []
        if (
            "суд" not in folded
            and "еспч" not in folded
            and "пленум" not in folded
            and "пвс" not in folded
            and "пвас" not in folded
            and not _names_court_abbreviation(folded)
        ):
            return found  # no court named at all: skip the decision scans (most answers)
        after_word, court_before, rest = self._ru_decisions
        for p in _word_starts(folded, ru.DOC_WORDS):
            if p and folded[p - 1].isalpha():
                continue
            start, point = p, None
            m = after_word.match(folded, p)
            if m is not None:
                start, point = _point_before(ru, folded, p)
                court = self._ru_court(m)
            else:
                cb = court_before.search(folded, max(0, p - 160), p)
                m = rest.match(folded, p) if cb is not None else None
                if cb is not None and m is not None and (m.group("num") or m.group("d1") or m.group("d2")):
                    start, court = cb.start(), self._ru_court(cb)
                else:
                    m = ru.PLENUM_ALONE.match(folded, p)
                    if m is None:
                        low = ru.LOWER_COURT.match(folded, p)
                        if low is not None:
                            prefix = ru.LOWER_PREFIX.search(folded, max(0, p - 30), p)
                            found.append(self._ru_lower(text, low, prefix.start() if prefix else p))
                        continue
                    court = _plenum_spoken_of(folded, p)
                    start, point = _point_before(ru, folded, p)
            num, d = m.group("num"), m.group("d1") or m.group("d2")
            if num is None and d is None:
                continue
            date = iso_date(d) if d else None
            end, num_at = m.end(), (m.start("num"), m.end("num")) if num else None
            defined = _DEFINED_NUMBER.match(folded, end) if num is None else None
            if defined is not None:  # "Постановление Пленума ВС РФ от 28.06.2012 (далее - Постановление N 17)"
                num, num_at, end = defined.group("num"), defined.span("num"), defined.end()
            after = ru.POINT_AFTER.match(folded, end)
            if point is None and after is not None:
                point, end = after.group("point"), after.end()
            else:
                title = ru.TITLE_AFTER.match(folded, end)  # the resolution's title names acts too
                if title is not None and "«" in text[end : title.start() + 4]:
                    nested = ru.NESTED_TITLE_AFTER.match(text, end)
                    title = nested if nested is not None and nested.end() > title.end() else title
                end = title.end() if title is not None else end
            end = trim_end(text, start, end)
            number = text[num_at[0] : num_at[1]] if num_at else None
            found.append(new_citation(start, end, text[start:end], "decision", "ru", court=court, number=number,
                                  date=date, year=date[:4] if date else None, point=point))  # fmt: skip
            nxt = ru.NEXT_DECISION.match(folded, m.end()) if num else None
            while nxt is not None:
                head, tail = nxt.start("head"), trim_end(text, 0, nxt.end())
                d = nxt.group("d1") or nxt.group("d2")
                date = iso_date(d) if d else None
                found.append(new_citation(head, tail, text[head:tail], "decision", "ru", court=court,
                                          number=text[nxt.start("num") : nxt.end("num")], date=date,
                                          year=date[:4] if date else None))  # fmt: skip
                nxt = ru.NEXT_DECISION.match(folded, nxt.end())
        for p in _word_starts(folded, ("ппвс", "ппвас", "пвс")) if "пв" in folded else ():
            m = ru.PLENUM_INITIALS.match(folded, p)
            if m is None or (p and folded[p - 1].isalpha()) or m.group("num") is None:
                continue
            start, point = _point_before(ru, folded, p)
            end = trim_end(text, p, m.end())
            d = m.group("d1") or m.group("d2")
            date = iso_date(d) if d else None
            found.append(new_citation(start, end, text[start:end], "decision", "ru",
                                      court="ВАС РФ Пленум" if m.group("vas") else "ВС РФ Пленум",
                                      number=text[m.start("num") : m.end("num")], date=date,
                                      year=date[:4] if date else None,
                                      point=point))  # fmt: skip
        for e in ru.ECHR.finditer(folded) if "еспч" in folded or "европейск" in folded else ():
            found.append(new_citation(e.start(), e.end(), text[e.start() : e.end()], "decision", "ru", court="ЕСПЧ",
                                  number=e.group("num")))  # fmt: skip
        return _no_overlaps(self._not_own_case(text, folded, found, ru.OWN_CASE) if found else found)

    def _not_own_case(self, text: str, folded: str, found: list[Citation], own: re.Pattern[str]) -> list[Citation]:
        """A lower court's ruling in the case being decided ("Решением ... районного суда ... исковые требования
        удовлетворены", "prin sentința civilă nr. ... a Judecătoriei ..., apelul a fost respins") is the case's
        history, not a citation of practice: dropped when its sentence tells the case's course."""
        out = []
        for c in found:
            if c.court is not None and c.court not in self._known_courts:
                lo, hi = _sentence(text, c.start, c.end)
                if own.search(folded, lo, hi):
                    continue
            out.append(c)
        return out

    def _ru_court(self, m: re.Match[str]) -> str | None:
        court = self._canonical_court(m.group("court"), "ru")
        if m.group("court2"):
            court = f"{court} / {self._canonical_court(m.group('court2'), 'ru')}"
        return court

    def _ru_lower(self, text: str, m: re.Match[str], start: int) -> Citation:
        end = trim_end(text, start, m.end())
        court = " ".join(text[m.start("court") : m.end("court")].split())
        number = text[m.start("num") : m.end("num")]
        return new_citation(start, end, text[start:end], "decision", "ru", court=court, number=number)

    def ro(self, text: str, folded: str) -> list[Citation]:
        found: list[Citation] = []
        starts = [p for p in _word_starts(folded, ro.DOC_WORDS) if not p or not folded[p - 1].isalpha()]
        echr = "cedo" in folded or "europe" in folded
        if not starts and not echr and "drepturilor omului" not in folded and not _has_case_number(folded):
            return found  # no decision word, no case number: skip the decision scans (most answers)
        for p in starts:
            if p and folded[p - 1].isalpha():
                continue
            m = self._ro_decision.match(folded, p)
            if m is None:
                continue
            start = m.start()
            court: str | None = None
            written = m.group("pre") or m.group("post")
            if m.group("dcc"):
                court = "CCR"
            elif written:
                court = self._canonical_court(written, "ro")
            else:
                lower = ro.LOWER_BEFORE.search(folded, max(0, start - 120), start)
                if lower is not None:
                    start = lower.start()
                    court = _lower_court_name(text, lower.start("lower"), lower.end("lower"))
                elif m.group("lowgen"):
                    court = _lower_court_name(text, m.start("lowgen"), m.end("lowgen"))
            num = m.group("num")
            if court is None:
                # a unification mechanism (RIL / HP) nearby, or a Roman numeral, means the High Court
                window = folded[max(0, start - 200) : start] + " " + folded[m.end() : m.end() + 150]
                if ro.ROMAN.fullmatch(num) or _mechanism(folded, start, m.end()) is not None:
                    court = "ÎCCJ"
                elif ro.CCR_HINT.search(window):
                    court = "CCR"
                else:
                    court = self._nearest_court(folded, m.start(), m.end())
            if court is None:
                continue  # "decizia nr. 15/2023" of an employer or a company body is not court practice
            number = _ro_number(num)
            start, point = _point_before(ro, folded, start)
            end = trim_end(text, start, m.end())
            found.append(
                new_citation(
                    start,
                    end,
                    text[start:end],
                    "decision",
                    "ro",
                    court=court,
                    number=number,
                    year=m.group("year") or m.group("year2"),
                    point=point,
                )
            )
            nxt = ro.NEXT_DECISION.match(folded, m.end("year") if m.group("year") else m.end("year2"))
            while nxt is not None:
                num = nxt.group("num")
                found.append(new_citation(nxt.start("head"), nxt.end(), text[nxt.start("head") : nxt.end()],
                                          "decision", "ro", court=court,
                                          number=_ro_number(num),
                                          year=nxt.group("year") or nxt.group("year2")))  # fmt: skip
                nxt = ro.NEXT_DECISION.match(folded, nxt.end())
        for m in ro.ECHR.finditer(folded) if echr else ():
            found.append(
                new_citation(
                    m.start(),
                    m.end(),
                    text[m.start() : m.end()],
                    "decision",
                    "ro",
                    court="CEDO",
                    number=m.group("num"),
                )
            )
        for m in ro.CASE_NUMBER.finditer(folded):
            start = m.start() - 1  # the scan starts at the dash: "c" or "t" stands before it
            if start < 0 or folded[start] not in "ct":
                continue
            if start and (folded[start - 1].isalnum() or folded[start - 1] == "-"):
                continue
            heads = list(ro.CJUE_HEAD.finditer(folded, max(0, start - 200), start))
            if heads:
                start = heads[-1].start()
            found.append(
                new_citation(
                    start,
                    m.end(),
                    text[start : m.end()],
                    "decision",
                    "ro",
                    court="CJUE",
                    number=text[m.start() - 1 : m.end()].upper(),
                )
            )
        return _no_overlaps(self._not_own_case(text, folded, found, ro.OWN_CASE) if found else found)

    def _nearest_court(self, folded: str, start: int, end: int) -> str | None:
        lo = max(0, folded.rfind(". ", 0, start) - 120)
        best: tuple[int, str] | None = None
        for c in self._courts["ro"]:
            for m in self.reg.court_pattern(c.court).finditer(folded, lo, min(len(folded), end + 120)):
                dist = start - m.end() if m.end() <= start else m.start() - end
                if dist >= 0 and (best is None or dist < best[0]):
                    best = (dist, c.court)
        return best[1] if best else None


def _point_before(grammar: ModuleType, folded: str, pos: int) -> tuple[int, str | None]:
    """Where a decision citation starts and the point it names, when one is written before the decision word
    ("п. 34 постановления ...", "paragraful 25 din Decizia ..."): read backwards from `pos`."""
    pb = search_back(grammar.POINT_BEFORE, grammar.POINT_NOT_AFTER, folded, max(0, pos - 40), pos)
    return (pb.start(), pb.group("point")) if pb is not None else (pos, None)


def _ro_number(num: str) -> str:
    """A Romanian decision number as written: a Roman one (RIL/HP) in capitals, thousands dots dropped."""
    return num.upper() if ro.ROMAN.fullmatch(num) else num.replace(".", "")


def _plenum_spoken_of(folded: str, pos: int) -> str:
    """ "постановления Пленума от ... № 9" names no court: the Plenum is that of the supreme court named last
    before it (the Higher Arbitration Court's when that is the one), the Supreme Court's by default."""
    named = ru.SUPREME_COURT_NAMED.findall(folded, max(0, pos - 400), pos)
    return "ВАС РФ Пленум" if named and named[-1] else "ВС РФ Пленум"  # the group holds the ВАС reading only


def _mechanism(folded: str, start: int, end: int) -> str | None:
    """RIL or HP, from the words nearest the decision (a sentence may name both mechanisms)."""
    best: tuple[int, str] | None = None
    lo, hi = max(0, start - 200), min(len(folded), end + 150)
    for name, pattern in (("HP", ro.MECHANISM_HP), ("RIL", ro.MECHANISM_RIL)):
        for m in pattern.finditer(folded, lo, hi):
            dist = (
                0 if start <= m.start() < end else (start - m.end() if m.end() <= start else m.start() - end)
            )
            if best is None or dist < best[0]:
                best = (dist, name)
    return best[1] if best else None


# the fifteen courts of appeal by their cities' names as a text without diacritics, or with cedillas, writes them
_APPEAL_CITIES = {fold(c).split()[0]: c for c in (
    "Alba Iulia", "Bacău", "Brașov", "București", "Cluj", "Constanța", "Craiova", "Galați", "Iași", "Oradea",
    "Pitești", "Ploiești", "Suceava", "Târgu Mureș", "Timișoara")}  # fmt: skip
_COMMA_BELOW = str.maketrans("şţŞŢ", "șțȘȚ")


def _lower_court_name(text: str, start: int, end: int) -> str:
    words = text[start:end].translate(_COMMA_BELOW).split()
    head = fold(" ".join(words[:-1]))
    name = words[-1]
    if head.startswith(("curt", "c.")):  # "Curtea de Apel Cluj", "C.A. Timişoara"
        return f"Curtea de Apel {_APPEAL_CITIES.get(fold(name), name)}"
    if head.startswith("tribunal"):
        return f"Tribunalul {name}"
    if len(words) > 2:  # judecătoria sectorului N
        return "Judecătoria " + " ".join(words[1:])
    return f"Judecătoria {name}"


def _word_starts(folded: str, words: tuple[str, ...]) -> list[int]:
    """Where any of `words` begins, in order: one str.find loop per word runs at memchr speed, where one regex
    alternation stops at every letter any of the words begins with."""
    out: list[int] = []
    for w in words:
        at = folded.find(w)
        while at >= 0:
            out.append(at)
            at = folded.find(w, at + len(w))
    out.sort()
    return out


def _has_case_number(folded: str) -> bool:
    return any(m.start() and folded[m.start() - 1] in "ct" for m in ro.CASE_NUMBER.finditer(folded))


def _names_court_abbreviation(folded: str) -> bool:
    """ "ВС РФ", "КС РФ", "ВАС РФ": found from each "рф" backwards, since "рф" is rare and "с" is not."""
    at = folded.find("рф")
    while at >= 0:
        if (
            folded[max(0, at - 8) : at].rstrip().endswith(_RU_COURT_ABBREVIATIONS)
            and folded[at - 1].isspace()
        ):
            return True
        at = folded.find("рф", at + 2)
    return False


# "от 28.06.2012 (далее - Постановление N 17)": a resolution cited by date whose number its defined short name gives
_DEFINED_NUMBER = re.compile(
    r"\s*\(\s*далее\s*[-–—]?\s*(?:постановлени|определени|решени)[а-я]*\s*(?:№|n)\s*(?P<num>\d+(?:[/-][0-9а-я]+)*)\s*\)"
)
_STOP = re.compile(r"[.!?](?:[ \t]+(?=[A-ZА-ЯЁÎÂȘȚŞŢĂ«\"„(])|\s*\n)|\n\s*\n")


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of the sentence holding text[start:end]."""
    lo = max(0, start - 400)
    stops = [m.end() for m in _STOP.finditer(text, lo, start)]
    line_end = text.find("\n", end, end + 3)
    if line_end >= 0 and not text[end:line_end].strip():
        return (stops[-1] if stops else lo), line_end  # "Decizia civila nr. 37 din 19 aprilie 2016\n": a heading
    after = _STOP.search(text, end, min(len(text), end + 400))
    return (stops[-1] if stops else lo), (after.start() + 1 if after else min(len(text), end + 400))


def _no_overlaps(found: list[Citation]) -> list[Citation]:
    if len(found) < 2:
        return found
    found.sort(key=lambda c: (c.start, -(c.end - c.start)))
    out: list[Citation] = []
    for c in found:
        if not out or c.start >= out[-1].end:
            out.append(c)
    return out

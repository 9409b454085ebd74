"""Critical-error and hallucination candidates, prepared by the program from the answer's citations.

The judge never searches for errors freely (a free hunt is where judges hallucinate themselves): the
program finds what can be checked mechanically (sources absent from the corpus, an article number under
the wrong act, a repealed act, figures and quotations with no counterpart in the etalon or the cited
texts) and the model only confirms whether the answer really relies on it. Ids are positional in the
order below, so the same inputs always give the same `critical:<n>` / `hallucination:<n>`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from etalons.model import Etalon
from evaluation.elements import YES_NO, Element
from evaluation.quotes import normalise

_NUMBER = r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?"
_UNIT = (r"%|процент\w*|руб\w*|₽|коп\w*|тыс\w*|млн|евро|долл\w*|lei|leu|ron|eur|euro|\$|€|"
         r"дн\w*|день|месяц\w*|лет|год\w*|недел\w*|час\w*|zile|zi|luni|lună|luna|ani|an|săptăm\w*|ore|"
         r"days?|months?|years?|weeks?|hours?")
FIGURE = re.compile(rf"(?<![\w.,])({_NUMBER})\s*({_UNIT})(?!\w)", re.IGNORECASE)
_ANY_NUMBER = re.compile(_NUMBER)
# Number words, so that "6 месяцев" in an answer matches "шести месяцев" in the law: stems anchored at a
# word start. A stem that also begins an unrelated word only makes a figure look known (a missed
# candidate), never an invented one.
_NUMBER_WORDS: tuple[tuple[str, int], ...] = (
    (r"одиннадцат", 11), (r"двенадцат", 12), (r"пятнадцат", 15), (r"двадцат", 20), (r"тридцат", 30),
    (r"шестьдесят|шестидесят", 60), (r"девяност", 90), (r"сто\b|ста\b", 100),
    (r"один\b|одн(ого|ому|ой|у|а)\b", 1), (r"дв(а|е|ух|ум)\b", 2), (r"тр(и|ех|ёх|ем|ём)\b", 3),
    (r"четыр(е|ех|ёх)\b", 4), (r"пят(ь|и|ью)\b", 5), (r"шест(ь|и|ью)\b", 6), (r"сем(ь|и|ью)\b", 7),
    (r"восем(ь|ью)\b|восьм(и|ью)\b", 8), (r"девят(ь|и|ью)\b", 9), (r"десят(ь|и|ью)\b", 10),
    (r"unu\b|una\b|o\s(?=lun|zi|săpt)", 1), (r"doi\b|două\b|doua\b", 2), (r"trei\b", 3),
    (r"patru\b", 4), (r"cinci\b", 5), (r"șase\b|şase\b|sase\b", 6), (r"șapte\b|şapte\b|sapte\b", 7),
    (r"opt\b", 8), (r"nouă\b", 9), (r"zece\b", 10), (r"cincisprezece\b", 15), (r"treizeci\b", 30),
    (r"one\b", 1), (r"two\b", 2), (r"three\b", 3), (r"six\b", 6), (r"ten\b", 10), (r"thirty\b", 30),
)
_WORDS = [(re.compile(rf"(?<!\w)(?:{stem})", re.IGNORECASE), str(n)) for stem, n in _NUMBER_WORDS]
QUOTED = re.compile(r"«([^«»]{20,})»|“([^“”]{20,})”|„([^„“”]{20,})[“”]|\"([^\"]{20,})\"")


def build_candidates(
    etalon: Etalon,
    answer_text: str,
    citations: Sequence[Mapping[str, Any]],
    corpus_texts: Mapping[str, str],
    *,
    expected: Sequence[Mapping[str, Any]] = (),
    repealed_acts: Collection[str] = (),
) -> list[Element]:
    """Candidates for one answer.

    `citations`: the answer's resolved citation records (docs/formats.md, "Citation records", with `status`);
    `corpus_texts`: texts of the cited and expected units; `expected`: the etalon's sources resolved to
    records (`act`, `article`, `citation`, `priority`); `repealed_acts`: canonical act keys no longer in force.
    """
    critical: list[tuple[str, str, dict[str, Any]]] = []
    halluc: list[tuple[str, str, dict[str, Any]]] = []

    for c in citations:
        status, cited = c.get("status"), c.get("text") or ""
        span = {"citation": cited, "start": c.get("start"), "end": c.get("end")}
        if status in ("not_found", "unknown_act"):
            category = "invented_case_law" if c.get("kind") == "decision" else "nonexistent_source"
            halluc.append((category, f"The answer cites {cited!r}, which the corpus does not contain "
                           f"({status}). Does the answer present it as existing law or practice and rely on it?",
                           span))
        if c.get("act") and c.get("act") in repealed_acts:
            critical.append(("repealed_act_applied", f"The answer cites {cited!r} from an act that is no longer "
                             "in force. Does the answer present that act as applicable law to this case?", span))
        if c.get("kind") == "decision" and status == "found":
            critical.append(("binding_decision_stretched", f"The answer relies on the decision {cited!r}. Does "
                             "it extend that decision beyond what the decision's text actually decides?", span))
    for c, wanted in _wrong_act(citations, expected):
        halluc.append(("wrong_attribution", f"The answer attributes article {c.get('article')} to "
                       f"{c.get('act_text') or c.get('act')!r} ({c.get('text')!r}), while the etalon relies on "
                       f"{wanted!r}. Does the answer attribute the rule to the wrong act?",
                       {"citation": c.get("text"), "expected": wanted}))

    known = _numbers(_etalon_text(etalon), *corpus_texts.values())
    for figure, start in _figures(answer_text, citations):
        if _canonical(figure.group(1)) not in known:
            halluc.append(("invented_figure", f"The answer states the figure {figure.group(0)!r}, which appears "
                           "neither in the case nor in the texts of the cited sources. Does the answer present "
                           "it as a term, sum or rate set by law or by the case, without deriving it?",
                           {"figure": figure.group(0), "start": start}))
    sources_text = normalise(" ".join(corpus_texts.values()))
    question = normalise(etalon.question)
    for passage in _quoted(answer_text):
        norm = normalise(passage)
        if norm and norm not in sources_text and norm not in question:
            halluc.append(("invented_quote", f"The answer quotes {passage!r}, a passage found in none of the "
                           "cited texts. Does the answer present it as the wording of a source?",
                           {"quote": passage}))

    mandatory = [s.citation for s in etalon.sources if s.priority == "mandatory"]
    for citation in mandatory:
        critical.append(("contradicts_mandatory_source", f"Does the answer state something that the text of "
                         f"{citation!r} (a mandatory source of this case) contradicts?", {"citation": citation}))
    if mandatory:
        critical.append(("reversed_direction", "Does the answer present a general rule as governing where the "
                         f"special rule of {', '.join(mandatory)} displaces it (the rule in reverse)?",
                         {"citations": mandatory}))

    out = [Element(f"critical:{i}", "critical", text, YES_NO, {"category": cat, **d})
           for i, (cat, text, d) in enumerate(critical, 1)]
    out += [Element(f"hallucination:{i}", "hallucination", text, YES_NO, {"category": cat, **d})
            for i, (cat, text, d) in enumerate(halluc, 1)]
    return out


def _wrong_act(citations: Iterable[Mapping[str, Any]],
               expected: Sequence[Mapping[str, Any]]) -> Iterable[tuple[Mapping[str, Any], str]]:
    by_article: dict[str, list[Mapping[str, Any]]] = {}
    for e in expected:
        if e.get("article"):
            by_article.setdefault(str(e["article"]), []).append(e)
    for c in citations:
        if c.get("kind") != "article" or not c.get("article"):
            continue
        same = by_article.get(str(c["article"]), [])
        if same and all(e.get("act") != c.get("act") for e in same):
            yield c, str(same[0].get("citation") or same[0].get("act"))


def _etalon_text(etalon: Etalon) -> str:
    parts = [etalon.question, etalon.decisive_issue, etalon.solution_fact or "", etalon.reference_answer,
             etalon.next_steps or "", *etalon.branches, *etalon.gross_errors,
             *(s.condition or "" for s in etalon.sources)]
    return "\n".join(parts)


def _canonical(number: str) -> str:
    return re.sub(r"[ \u00a0\u202f]", "", number).replace(",", ".")


def _numbers(*texts: str) -> set[str]:
    found = {_canonical(m.group(0)) for t in texts for m in _ANY_NUMBER.finditer(t)}
    found.update(n for t in texts for pattern, n in _WORDS if pattern.search(t))
    return found


def _figures(text: str, citations: Sequence[Mapping[str, Any]]) -> Iterable[tuple[re.Match[str], int]]:
    """Figures outside citation spans (an article number is not a figure)."""
    spans = [(int(c["start"]), int(c["end"])) for c in citations
             if isinstance(c.get("start"), int) and isinstance(c.get("end"), int)]
    seen: set[str] = set()
    for m in FIGURE.finditer(text):
        if any(s <= m.start() < e for s, e in spans) or m.group(0).lower() in seen:
            continue
        seen.add(m.group(0).lower())
        yield m, m.start()


def _quoted(text: str) -> Iterable[str]:
    for m in QUOTED.finditer(text):
        yield next(g for g in m.groups() if g)

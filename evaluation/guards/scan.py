"""Finding the passages of an answer that speak to its evaluator instead of its client.

An answer is cut into sentences; each is folded (evaluation.guards.fold) and tried against the registry
(registry.yaml beside this module), which holds three kinds of evidence of an instruction to the judge:

- `rules`: regular expressions over folded text, built from named word lists (`vocab`) so one list of
  imperative verbs or evaluation words serves many rules. A rule may require further patterns (`with`)
  anywhere in the same sentence: "answer yes" is harmless until "to every element" follows. Rules of
  `text: plain` see the sentence only lower-cased (chat-template markers and JSON need their brackets).
- `templates`: known wordings, matched fuzzily (rapidfuzz, word-aligned) so that a typo, an inserted word
  or a changed ending still matches.
- `signals`: the looser net for wordings nobody foresaw: weighted words of five groups (evaluation,
  evaluator, the answer speaking of itself, directives, pleas); a sentence where enough of them meet is
  a manipulation.
- `examples`: what must be found and what must not (the legal texts); tests check every one of them.

Each finding is `manipulation` (instructions, appeals or verdicts addressed to the evaluator: the cell goes to
a human) or `not_evidence` (the answer praising itself: only a quote lying in it is refused as evidence).
A finding's span is its whole sentence, extended over a quotation it opens, so the payload of "quote this:
«...»" lies inside it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from rapidfuzz import fuzz, process

from evaluation.guards.fold import fold

REGISTRY_FILE = Path(__file__).with_name("registry.yaml")
Severity = Literal["manipulation", "not_evidence"]
_SENTENCE_END = re.compile(r"[.!?…]+[\"'»”’)\]]*(?=\s)|\n+")
_OPENERS, _CLOSERS = "«“„", "»”"
_MAX_EXTENSION = 800   # characters a quotation may carry a passage beyond its sentence
_VOCAB_REF = re.compile(r"@([a-z_]+)")


@dataclass(frozen=True)
class Finding:
    """A passage of the answer addressed to the evaluator."""

    start: int          # offsets in the scanned text
    end: int
    rule: str           # the rule or template id that matched
    severity: Severity
    matched: str        # the words that matched, as written in the answer

    def overlaps(self, start: int, end: int) -> bool:
        return start < self.end and self.start < end


@dataclass(frozen=True)
class _Rule:
    id: str
    severity: Severity
    pattern: re.Pattern[str]
    also: tuple[re.Pattern[str], ...]
    plain: bool


@dataclass(frozen=True)
class _Template:
    id: str
    severity: Severity
    text: str        # folded
    cyrillic: bool


@dataclass(frozen=True)
class _Signals:
    patterns: tuple[tuple[str, int, re.Pattern[str]], ...]   # (group, weight, pattern)
    threshold: int
    groups: int
    cap: int
    core: frozenset[str]

    def weigh(self, folded: str) -> tuple[int, list[str]]:
        """The sentence's total and the words that made it, when it reaches the threshold; else (0, [])."""
        by_group: dict[str, int] = {}
        words: list[str] = []
        for group, weight, pattern in self.patterns:
            found = sorted({m.group(0) for m in pattern.finditer(folded)})
            if found:  # each word form once, however often it recurs
                by_group[group] = min(self.cap, by_group.get(group, 0) + weight * len(found))
                words.extend(found)
        total = sum(by_group.values())
        if total >= self.threshold and len(by_group) >= self.groups and self.core & by_group.keys():
            return total, words
        return 0, []


@dataclass(frozen=True)
class _Registry:
    rules: tuple[_Rule, ...]
    templates: tuple[_Template, ...]
    threshold: float
    signals: _Signals | None = None


@lru_cache(maxsize=4096)
def scan(text: str) -> tuple[Finding, ...]:
    """Every passage of `text` addressed to an evaluator, in order, at most one per sentence.

    Cached: a judge checks the same answer, and often the same quote, once per element and run.
    """
    reg = _registry()
    out: list[Finding] = []
    for start, end in _sentences(text):
        found = _match_sentence(text, start, end, reg)
        if found is not None:
            out.append(found)
    return tuple(out)


def manipulation(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    return tuple(f for f in findings if f.severity == "manipulation")


def addresses_evaluator(passage: str) -> bool:
    """True when any part of `passage` speaks to the evaluator (of either severity)."""
    return bool(scan(passage))


# -- matching -----------------------------------------------------------------------------------------

def _match_sentence(text: str, start: int, end: int, reg: _Registry) -> Finding | None:
    sentence = text[start:end]
    folded = fold(sentence)
    plain = " ".join(unicodedata.normalize("NFKC", sentence).casefold().split())
    best: Finding | None = None
    for rule in reg.rules:
        target = plain if rule.plain else folded.text
        m = rule.pattern.search(target)
        if m is None or not all(p.search(target) for p in rule.also):
            continue
        if rule.plain:
            matched = m.group(0)
        else:
            a, b = folded.span(m.start(), m.end())
            matched = sentence[a:b]
        best = _better(best, _finding(text, start, end, rule.id, rule.severity, matched))
        if best.severity == "manipulation":
            return best
    hit = _template_hit(folded.text, reg)
    if hit is not None:
        template, (a, b) = hit
        fa, fb = folded.span(a, b)
        best = _better(best, _finding(text, start, end, template.id, template.severity, sentence[fa:fb]))
    if reg.signals is not None and (best is None or best.severity != "manipulation"):
        total, words = reg.signals.weigh(folded.text)
        if total:
            best = _better(best, _finding(text, start, end, f"signals:{total}", "manipulation", " / ".join(words)))
    return best


def _better(current: Finding | None, new: Finding) -> Finding:
    if current is None or (new.severity == "manipulation" and current.severity != "manipulation"):
        return new
    return current


def _template_hit(folded: str, reg: _Registry) -> tuple[_Template, tuple[int, int]] | None:
    """The best template matching a word-aligned stretch of the sentence at or above the threshold."""
    words = folded.replace(",", " ").replace(":", " ")
    if not words.strip():
        return None
    cyrillic = any("\u0400" <= c <= "\u04ff" for c in words)
    latin = any("a" <= c <= "z" for c in words)
    candidates = [t for t in reg.templates if (t.cyrillic and cyrillic) or (not t.cyrillic and latin)]
    if not candidates:
        return None
    for choice, _, k in process.extract(words, [t.text for t in candidates], scorer=fuzz.partial_ratio,
                                        score_cutoff=reg.threshold, limit=3):
        align = fuzz.partial_ratio_alignment(choice, words, score_cutoff=reg.threshold)
        if align is None:
            continue
        a, b = _to_words(words, align.dest_start, align.dest_end)
        if fuzz.ratio(choice, words[a:b]) >= reg.threshold:  # the whole words, not a slice through them
            return candidates[k], (a, b)
    return None


def _to_words(text: str, a: int, b: int) -> tuple[int, int]:
    while a > 0 and text[a - 1] != " ":
        a -= 1
    while b < len(text) and text[b] != " ":
        b += 1
    return a, b


def _finding(text: str, start: int, end: int, rule: str, severity: Severity, matched: str) -> Finding:
    start, end = _extend(text, start, end)
    return Finding(start, end, rule, severity, " ".join(matched.split()))


def _extend(text: str, start: int, end: int) -> tuple[int, int]:
    """Carry the passage over a quotation it opens, or over the sentence its colon introduces."""
    limit = min(len(text), end + _MAX_EXTENSION)
    passage = text[start:end]
    depth = sum(passage.count(c) for c in _OPENERS) - sum(passage.count(c) for c in _CLOSERS)
    straight = passage.count('"') % 2
    if depth > 0 or straight:
        k = end
        while k < limit and (depth > 0 or straight):
            c = text[k]
            if c in _OPENERS:
                depth += 1
            elif c in _CLOSERS:
                depth -= 1
            elif c == '"':
                straight ^= 1
            k += 1
        end = k
    elif passage.rstrip().endswith(":"):
        following = next(iter(_sentences(text[end:limit])), None)
        if following is not None:
            end += following[1]
    return start, end


def _sentences(text: str) -> Iterable[tuple[int, int]]:
    """Spans of the sentences (and lines) of `text`, without the whitespace around them."""
    start = 0
    for end in [m.end() for m in _SENTENCE_END.finditer(text)] + [len(text)]:
        piece = text[start:end]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            yield start + lead, start + len(piece.rstrip())
        start = end


# -- the registry -------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _registry() -> _Registry:
    return load_registry(yaml.safe_load(REGISTRY_FILE.read_text(encoding="utf-8")))


def load_registry(data: Mapping[str, Any]) -> _Registry:
    """Compile the registry: word lists substituted, diacritics folded, a space meaning any word gap."""
    vocab = {name: _fold_pattern("".join(line.strip() for line in str(value).splitlines()))
             for name, value in (data.get("vocab") or {}).items()}
    rules = []
    for item in data.get("rules") or []:
        rule_id = str(item["id"])
        severity = item.get("severity", "manipulation")
        if severity not in ("manipulation", "not_evidence"):
            raise ValueError(f"{REGISTRY_FILE.name}: rule {rule_id}: severity {severity!r}, expected "
                             "manipulation or not_evidence")
        plain = item.get("text", "folded") == "plain"
        patterns = [item["pattern"], *(item.get("with") or ())]
        compiled = [re.compile(p, re.IGNORECASE) if plain else _compile(p, vocab, rule_id) for p in patterns]
        rules.append(_Rule(rule_id, severity, compiled[0], tuple(compiled[1:]), plain))
    templates = []
    for lang, group in (data.get("templates") or {}).items():
        for k, phrase in enumerate(group.get("phrases") or [], 1):
            folded = fold(str(phrase)).text.replace(",", " ").replace(":", " ")
            folded = " ".join(folded.split())
            templates.append(_Template(f"template:{lang}:{k}", group.get("severity", "manipulation"), folded,
                                       any("\u0400" <= c <= "\u04ff" for c in folded)))
    return _Registry(tuple(rules), tuple(templates), float(data.get("template_threshold", 90)),
                     _load_signals(data.get("signals"), vocab))


def _load_signals(data: Mapping[str, Any] | None, vocab: Mapping[str, str]) -> _Signals | None:
    if not data:
        return None
    settings = {"threshold", "groups", "cap", "core"}
    patterns = [(str(group), int(weight), _compile(str(pattern), vocab, f"signals.{group}"))
                for group, weights in data.items() if group not in settings
                for weight, pattern in weights.items()]
    return _Signals(tuple(patterns), int(data["threshold"]), int(data["groups"]), int(data["cap"]),
                    frozenset(data["core"]))


def _compile(pattern: str, vocab: Mapping[str, str], rule: str) -> re.Pattern[str]:
    def sub(m: re.Match[str]) -> str:
        if m.group(1) not in vocab:
            raise ValueError(f"{REGISTRY_FILE.name}: rule {rule}: no word list @{m.group(1)}")
        return f"(?:{vocab[m.group(1)]})"

    expanded = _VOCAB_REF.sub(sub, _fold_pattern(pattern))
    return re.compile(expanded.replace(" ?", r"\W*").replace(" ", r"\W+"), re.IGNORECASE)


def _fold_pattern(pattern: str) -> str:
    """Diacritics out of a pattern (as fold() takes them out of text); regex syntax is left alone."""
    decomposed = unicodedata.normalize("NFKD", pattern)
    return "".join(c for c in decomposed if not unicodedata.combining(c))

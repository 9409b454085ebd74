"""Act names as regular expressions, and many names as one alternation the regex engine scans quickly.

Russian names match by word stem (case endings vary: "Гражданского кодекса", "Гражданскому кодексу"), dots and
spaces are flexible ("C.civ." / "C. civ"), and the registry's ~150 names become one alternation grouped by first
letter and shared prefixes, which Python's engine skips through in C.
"""

from __future__ import annotations

import re

from citations.text import fold

_VOWEL_TAIL = re.compile(r"[аеиоуыэюяйь]{1,2}$")
_CYR_RUN = re.compile(r"[а-я]+")


def _ru_word(run: str) -> str:
    if len(run) < 5:
        return run
    return _VOWEL_TAIL.sub("", run) + "[а-я]{0,3}"


def name_pattern(name: str, jurisdiction: str) -> str:
    """A name as a pattern: Russian words by stem, dots and spaces flexible, quotes optional."""
    folded = fold(name).strip()
    parts: list[str] = []
    tokens = folded.split()
    for i, token in enumerate(tokens):
        last = i == len(tokens) - 1
        out = []
        pos = 0
        for m in _CYR_RUN.finditer(token) if jurisdiction == "ru" else ():
            out.append(re.escape(token[pos : m.start()]))
            out.append(_ru_word(m.group()))
            pos = m.end()
        out.append(re.escape(token[pos:]))
        piece = "".join(out).replace(r"\.", r"\.\s*")
        if last and piece.endswith(r"\.\s*"):
            # the closing dot may be left out ("C.civ"), but the word may not go on ("C. P" is not "C. Popescu")
            piece = piece[: -len(r"\.\s*")] + r"\.?(?![а-яa-z])"
        parts.append(piece)
        if not last:
            parts.append("" if token.endswith(".") else r"\s+")
    body = "".join(parts)
    if folded[-1].isalnum():
        body += r"(?![а-яa-z0-9])"
    return body


def first_char_alternation(patterns: list[str]) -> str:
    """One alternation grouped by first letter: the regex engine then skips, in C, every position whose
    character starts no name, which makes scanning a whole answer for ~150 names several times faster.
    Inside a group the names share their further leading letters as a trie (prefix_tree)."""
    groups: dict[str, list[str]] = {}
    for pat in patterns:
        groups.setdefault(pat[0] if pat[0].isalpha() else "", []).append(pat)
    branches = [f"{c}(?:{prefix_tree([p[1:] for p in pats])})" for c, pats in groups.items() if c]
    branches += groups.get("", [])
    return "|".join(branches)


def prefix_tree(patterns: list[str]) -> str:
    """The alternation of `patterns` with common leading letters factored out ("od(?:ul|ului)" for "odul|
    odului"), so a position is tested once per shared letter instead of once per name. First-match order is
    kept: alternatives are only regrouped past ones starting with another literal (a letter, or an escaped dot
    as in "c\\.civ"), which cannot match at the same place; anything else (a class, a space, an empty rest)
    stays where it was."""
    out: list[str] = []
    run: dict[str, list[str]] = {}

    def flush() -> None:
        for c, rests in run.items():
            out.append(c + rests[0] if len(rests) == 1 else f"{c}(?:{prefix_tree(rests)})")
        run.clear()

    for pat in patterns:
        head = pat[:2] if pat.startswith("\\.") else pat[:1]
        if (head == "\\." or head.isalpha()) and pat[len(head) : len(head) + 1] not in ("?", "*", "+", "{"):
            run.setdefault(head, []).append(pat[len(head) :])
        else:
            flush()
            out.append(pat)
    flush()
    return "|".join(out)

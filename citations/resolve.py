"""Resolve citations against the corpus: is the cited unit there, and if not, why not.

The index is built once from the corpus tables (two dicts keyed by act and by article, and a tree of unit
paths per document), so resolving a whole evaluation run is a dictionary probe per citation, never a query.

A found article lands on the deepest unit its part names (`п. 3 ч. 1 ст. 81 ТК` -> `81/1/3`, `art. 1.110
alin. (1) lit. b)` -> `1110/1/b`; citations.units says how the words map to paths), or on the article when
the part is absent or its first level is not in the corpus. A Plenum point (`п. 34 постановления ... № 9`)
lands on that point of the resolution, and is not_found when the resolution lists its points without it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Protocol

import pyarrow as pa
import pyarrow.compute as pc

from citations.model import Citation, Resolution
from citations.parts import leading_number, parted_acts
from citations.registry import default_registry
from citations.units import EMPTY, NUMBERED_TEXT, UnitTree, build_trees, part_levels


class Lookup(Protocol):
    """What the resolver needs from a corpus; tests and the warehouse plug in their own."""

    def has_act(self, act: str) -> bool: ...

    def article(self, act: str, article: str) -> tuple[tuple[str, str], ...]:
        """(doc_id, unit_path) of every document of `act` holding `article`."""
        ...

    def act_documents(self, act: str) -> tuple[str, ...]: ...

    def acts_with_article(self, article: str) -> tuple[str, ...]: ...

    def decision(self, court: str, number: str) -> tuple[str, ...]:
        """doc_ids of the decisions of `court` with `number`."""
        ...

    def has_court(self, court: str) -> bool: ...

    def has_article_between(self, act: str, first: int, last: int) -> bool:
        """Whether the corpus holds any article of `act` numbered first..last (by the leading number): does
        it hold that part of a code enacted in parts (citations.parts)."""
        ...

    def units(self, doc_id: str) -> UnitTree:
        """Every unit of a document, for the part of an article or the point of a resolution."""
        ...


class SetLookup:
    """An in-memory Lookup over the corpus tables (or over plain rows, for tests)."""

    def __init__(
        self,
        articles: Iterable[tuple[str, str, str, str]],
        acts: Iterable[tuple[str, str]] = (),
        decisions: Iterable[tuple[str, str, str]] = (),
        units: Iterable[tuple[str, str, str | None, str, bool]] | None = None,
    ) -> None:
        """articles: (doc_id, act, article, path); acts: (doc_id, act); decisions: (doc_id, court, number);
        units: (doc_id, path, kind, jurisdiction, text opens with 'N.') of every unit, decisions' points
        included (citations.units.build_trees); without it the article rows stand for the units, any part
        word fitting any level."""
        articles = list(articles)
        self._units: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
        self._by_article: dict[str, set[str]] = defaultdict(set)
        self._acts: dict[str, set[str]] = defaultdict(set)
        self._decisions: dict[tuple[str, str], list[str]] = defaultdict(list)
        self._courts: set[str] = set()
        numbers: dict[str, set[int]] = defaultdict(set)
        for doc_id, act, article, path in articles:
            entries = self._units[(act, article)]
            if all(d != doc_id for d, _ in entries):
                entries.append((doc_id, path))
            elif len(path) < len(
                next(p for d, p in entries if d == doc_id)
            ):  # the article itself, not a part
                entries[:] = [(d, path if d == doc_id else p) for d, p in entries]
            self._by_article[article].add(act)
            self._acts[act].add(doc_id)
            lead = leading_number(article)
            if lead is not None:
                numbers[act].add(lead)
        self._numbers = {act: sorted(found) for act, found in numbers.items()}
        for doc_id, act in acts:
            self._acts[act].add(doc_id)
        for doc_id, court, number in decisions:
            self._decisions[(court, _decision_number(number))].append(doc_id)
            self._courts.add(court)
        if units is None:
            units = ((doc_id, path, None, "", False) for doc_id, _, _, path in articles)
        self._trees = build_trees(units)

    @classmethod
    def from_tables(cls, documents: pa.Table, units: pa.Table) -> SetLookup:
        """Build from the corpus tables; columns as in docs/views.md (extra columns are ignored)."""
        d = documents.to_pydict()
        u = units.select(
            [c for c in ("doc_id", "act", "article", "path", "kind") if c in units.column_names]
        ).to_pydict()
        missing = {"doc_id", "act", "article", "path"} - set(u)
        if missing:
            raise ValueError(f"units table: missing column(s) {sorted(missing)}")
        n_units = units.num_rows
        if "text" in units.column_names and "kind" in u:
            numbered = pc.fill_null(pc.match_substring_regex(units["text"], NUMBERED_TEXT), False).to_pylist()
            unit_kinds = u["kind"]
        else:  # without the text a numbered пункт cannot be told from a часть: any word fits any level
            numbered, unit_kinds = [False] * n_units, [None] * n_units
        articles = [
            (doc, act, str(art), path or f"{art}")
            for doc, act, art, path in zip(u["doc_id"], u["act"], u["article"], u["path"], strict=True)
            if act and art is not None
        ]
        n = documents.num_rows
        kinds = d.get("kind", [None] * n)
        courts = d.get("court", [None] * n)
        numbers = d.get("number", [None] * n)
        acts_col = d.get("act", [None] * n)
        acts = [(doc, act) for doc, act in zip(d["doc_id"], acts_col, strict=True) if act]
        decisions = [
            (doc, court, str(num))
            for doc, kind, court, num in zip(d["doc_id"], kinds, courts, numbers, strict=True)
            if court and num is not None and kind != "act"
        ]
        jurisdictions = dict(zip(d["doc_id"], d.get("jurisdiction", [None] * n), strict=True))
        tree_rows = [
            (doc, path, kind, jurisdictions.get(doc) or (act or "")[:2], num)
            for doc, act, path, kind, num in zip(
                u["doc_id"], u["act"], u["path"], unit_kinds, numbered, strict=True
            )
            if path is not None
        ]
        return cls(articles, acts, decisions, tree_rows)

    def has_act(self, act: str) -> bool:
        return act in self._acts

    def article(self, act: str, article: str) -> tuple[tuple[str, str], ...]:
        return tuple(self._units.get((act, article), ()))

    def act_documents(self, act: str) -> tuple[str, ...]:
        return tuple(sorted(self._acts.get(act, ())))

    def acts_with_article(self, article: str) -> tuple[str, ...]:
        return tuple(sorted(self._by_article.get(article, ())))

    def decision(self, court: str, number: str) -> tuple[str, ...]:
        return tuple(self._decisions.get((court, _decision_number(number)), ()))

    def has_court(self, court: str) -> bool:
        return court in self._courts

    def has_article_between(self, act: str, first: int, last: int) -> bool:
        numbers = self._numbers.get(act, [])
        i = bisect_left(numbers, first)
        return i < len(numbers) and numbers[i] <= last

    def units(self, doc_id: str) -> UnitTree:
        return self._trees.get(doc_id, EMPTY)


def resolve(citations: Sequence[Citation], lookup: Lookup) -> list[Resolution]:
    """One Resolution per citation, in the same order."""
    return [_resolve_one(c, lookup) for c in citations]


def _resolve_one(c: Citation, lookup: Lookup) -> Resolution:
    if c.kind == "decision":
        return _decision(c, lookup)
    if c.act is not None and not default_registry().is_verifiable_act(c.act):
        return Resolution(c, "unverifiable", None, None, (), f"{c.act} ({default_registry().title(c.act)}) is outside "
                          "the corpus by design (an EU, ECHR or regional act: shown apart, not scored)")  # fmt: skip
    if c.act is None:
        others = lookup.acts_with_article(c.article) if c.article else ()
        return Resolution(
            c, "unknown_act", None, None, others, f"the act of '{c.text}' could not be identified"
        )
    if not lookup.has_act(c.act):
        title = default_registry().title(c.act)
        others = lookup.acts_with_article(c.article) if c.article else ()
        return Resolution(c, "unknown_act", None, None, others, f"{c.act} ({title}) is not in the corpus")
    if c.kind == "act" or c.article is None:
        docs = lookup.act_documents(c.act)
        held = f" ({len(docs)} documents: {', '.join(docs)})" if len(docs) > 1 else ""
        return Resolution(c, "found", docs[0] if docs else None, None, (), f"{c.act} is in the corpus{held}")
    wanted = [c.article] + ([c.article_to] if c.article_to else [])
    hits = [lookup.article(c.act, a) for a in wanted]
    others = tuple(a for a in lookup.acts_with_article(c.article) if a != c.act)
    missing = [a for a, h in zip(wanted, hits, strict=True) if not h]
    if missing:
        absent = _part_not_held(c.act, missing, lookup)
        if absent is not None:
            return Resolution(c, "unknown_act", None, None, others, absent)
        hint = f"; article {c.article} exists in {', '.join(others)}" if others else ""
        return Resolution(
            c,
            "not_found",
            None,
            None,
            others,
            f"{c.act} has no article {', '.join(missing)} in the corpus{hint}",
        )
    first = hits[0]
    if len({doc for doc, _ in first}) > 1:
        names = ", ".join(doc for doc, _ in first)
        return Resolution(
            c,
            "ambiguous",
            None,
            None,
            others,
            f"article {c.article} of {c.act} is in several documents: {names}",
        )
    doc_id, path = first[0]
    span = f"articles {c.article}-{c.article_to}" if c.article_to else f"article {c.article}"
    if c.part and not c.article_to:
        # the deepest unit the part leads to; the article itself when its first level is not in the corpus
        path = lookup.units(doc_id).deepest(path, part_levels(c.part))
        span = f"{span} ({c.part})"
    return Resolution(c, "found", doc_id, path, others, f"{span} of {c.act} found in {doc_id} at {path}")


def _decision(c: Citation, lookup: Lookup) -> Resolution:
    court = c.court or "?"
    # a joint resolution ("ВС РФ Пленум / ВАС РФ Пленум") is as verifiable as the courts that made it
    if not c.court or not all(default_registry().is_verifiable(one) for one in c.court.split(" / ")):
        return Resolution(
            c,
            "unverifiable",
            None,
            None,
            (),
            f"decisions of {court} are outside the corpus by design (shown apart, not scored)",
        )
    if c.number is None:
        return Resolution(c, "not_found", None, None, (), f"the decision of {court} has no number to look up")
    docs = lookup.decision(court, c.number)
    if len(docs) == 1 and c.point is not None:
        points = lookup.units(docs[0])
        if c.point in points:
            return Resolution(c, "found", docs[0], c.point, (), f"point {c.point} of {court} No {c.number} found "
                              f"in {docs[0]}")  # fmt: skip
        if points.names:  # the document lists its points, and not this one
            return Resolution(c, "not_found", docs[0], None, (),
                              f"{court} No {c.number} ({docs[0]}) has no point {c.point} in the corpus")  # fmt: skip
        # a decision stored without its points: the document is there, the point cannot be checked
    if len(docs) == 1:
        return Resolution(c, "found", docs[0], None, (), f"{court} No {c.number} found in {docs[0]}")
    if len(docs) > 1:
        return Resolution(
            c,
            "ambiguous",
            None,
            None,
            (),
            f"{court} No {c.number} matches {len(docs)} documents: {', '.join(docs)}",
        )
    if not lookup.has_court(court):
        return Resolution(c, "unknown_act", None, None, (), f"the corpus holds no decisions of {court}")
    # Holding some decisions of a court proves nothing about the others: not_found would call a real one
    # invented. A held decision without the cited point is not_found (above).
    return Resolution(c, "unknown_act", None, None, (), f"{court} No {c.number} is not in the corpus (it holds "
                      f"other decisions of {court})")  # fmt: skip


def _part_not_held(act: str, articles: list[str], lookup: Lookup) -> str | None:
    """Why an article missing from a code enacted in parts cannot be judged: its part is not in the corpus."""
    parted = parted_acts().get(act)
    if parted is None:
        return None
    for article in articles:
        part = parted.part_of(article)
        if part is not None and not lookup.has_article_between(act, part.first, part.last):
            return f"article {article} is in {part.name} of {act}, which the corpus does not hold"
    return None


def _decision_number(number: str) -> str:
    return number.replace(".", "").replace(" ", "").upper()

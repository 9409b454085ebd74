"""The current corpus as the engine reads it: the resolver's lookup, unit texts, and dependency fingerprints.

Resolving a citation reads a few corners of the corpus: whether its act is held (and which parts of a code
enacted in parts), the units of the cited article, which other acts have an article of that number, the
decisions of a court. Each corner has a key (`deps`) and a fingerprint (`fingerprint`) that changes exactly
when what the resolver would see there changes. A row that stores the keys it looked up and the hash of their
fingerprints is therefore current as long as that hash is; a new document version that changes one article
re-resolves only the rows that cite that article. `tests/engine/test_corpus_deps.py` checks the promise against
the resolver itself on random corpus edits.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

import pyarrow as pa

from evaluation.engine.keys import digest


def _text_hash(text: str | None) -> str:
    return hashlib.blake2b((text or "").encode("utf-8"), digest_size=8).hexdigest()


def _decision_number(number: str) -> str:
    return number.replace(".", "").replace(" ", "").upper()


def deps(record: Mapping[str, Any]) -> list[str]:
    """The corpus keys a citation's resolution (and the text shown of it) depends on."""
    kind, act, article = record.get("kind"), record.get("act"), record.get("article")
    if kind == "decision":
        court, number = record.get("court"), record.get("number")
        if not court:
            return []
        out = [f"court:{court}"]
        if number is not None:
            out.append(f"dec:{court}:{_decision_number(str(number))}")
        return out
    if act is None:
        return [f"any:{article}"] if article else []
    out = [f"act:{act}"]
    if kind != "act" and article:
        out.append(f"art:{act}:{article}")
        if record.get("article_to"):
            out.append(f"art:{act}:{record['article_to']}")
        out.append(f"any:{article}")
    return out


class CorpusView:
    """Built once per run from the current corpus tables (documents, units)."""

    def __init__(self, documents: pa.Table, units: pa.Table, version: str) -> None:
        self.documents = documents
        self.units = units
        self.version = version
        self._fp: dict[str, str] = {}

    @classmethod
    def from_lake(cls, lake: Any, sources: dict[str, int] | None = None) -> CorpusView:
        """The corpus of the configured sources, name -> priority (those the last update recorded when None; all
        stored sources when it recorded none)."""
        from corpus.store import _version_of, current_tables
        documents, units = current_tables(lake, sources)
        version = _version_of(documents) if documents.num_rows else "empty"
        return cls(documents, units, version)

    @cached_property
    def lookup(self) -> Any:
        from citations import SetLookup

        return SetLookup.from_tables(self.documents, self.units)

    @cached_property
    def _docs(self) -> dict[str, dict[str, Any]]:
        cols = [c for c in ("doc_id", "act", "kind", "status", "court", "number") if c in self.documents.column_names]
        return {r["doc_id"]: r for r in self.documents.select(cols).to_pylist()}

    @cached_property
    def _units(self) -> tuple[dict[tuple[str, str], list[tuple[str, str, str, str, str]]],
                              dict[str, list[tuple[str, str, str, str]]],
                              dict[tuple[str, str], str]]:
        """Units by (act, article), units of decisions by doc, and every unit's text by (doc_id, path)."""
        by_article: dict[tuple[str, str], list[tuple[str, str, str, str, str]]] = defaultdict(list)
        by_doc: dict[str, list[tuple[str, str, str, str]]] = defaultdict(list)
        texts: dict[tuple[str, str], str] = {}
        if not self.units.num_rows:
            return by_article, by_doc, texts
        names = ("doc_id", "act", "article", "path", "kind", "status", "text")
        cols = {n: (self.units[n].to_pylist() if n in self.units.column_names else [None] * self.units.num_rows)
                for n in names}
        decision_docs = {d for d, r in self._docs.items() if r.get("court") and r.get("kind") != "act"}
        for doc, act, article, path, kind, status, text in zip(*(cols[n] for n in names), strict=True):
            if path is None:
                continue
            texts[(doc, path)] = text or ""
            entry = (doc, path, kind or "", status or "", _text_hash(text))
            if act and article is not None:
                by_article[(act, str(article))].append(entry)
            if doc in decision_docs:
                by_doc[doc].append(entry[1:])
        return by_article, by_doc, texts

    @cached_property
    def _statuses(self) -> dict[tuple[str, str], str]:
        return {(doc, path): status for (_, _), entries in self._units[0].items()
                for doc, path, _, status, _ in entries if status}

    def unit_status(self, doc_id: str, path: str | None) -> str | None:
        """A unit's status (in_force / repealed) where the corpus records one."""
        return self._statuses.get((doc_id, path or ""))

    def text(self, doc_id: str | None, path: str | None) -> str | None:
        if not doc_id or path is None:
            return None
        return self._units[2].get((doc_id, path))

    @cached_property
    def article_texts(self) -> dict[tuple[str, str], str]:
        """The text of each article unit by (act, article): what the judge is shown of a cited norm."""
        out: dict[tuple[str, str], str] = {}
        texts = self._units[2]
        for (act, article), entries in self._units[0].items():
            for doc, path, kind, _, _ in entries:
                if kind == "article":
                    out.setdefault((act, article), texts.get((doc, path), ""))
        return out

    @cached_property
    def repealed_acts(self) -> frozenset[str]:
        return frozenset(r["act"] for r in self._docs.values() if r.get("act") and r.get("status") == "repealed")

    def fingerprint(self, key: str) -> str:
        found = self._fp.get(key)
        if found is None:
            found = self._fp[key] = digest(self._raw(key))
        return found

    def touch_hash(self, keys: Iterable[str]) -> str:
        return digest(sorted({k: self.fingerprint(k) for k in keys}.items()))

    def _raw(self, key: str) -> Any:
        kind, _, rest = key.partition(":")
        lookup = self.lookup
        if kind == "act":
            docs = lookup.act_documents(rest)
            statuses = [(d, (self._docs.get(d) or {}).get("status")) for d in docs]
            return ["act", statuses, self._parts_held(rest)]
        if kind == "art":
            act, _, article = rest.rpartition(":")
            return ["art", sorted(self._units[0].get((act, article), []))]
        if kind == "any":
            return ["any", list(lookup.acts_with_article(rest))]
        if kind == "court":
            return ["court", lookup.has_court(rest)]
        if kind == "dec":
            court, _, number = rest.rpartition(":")
            docs = lookup.decision(court, number)
            return ["dec", [(d, sorted(self._units[1].get(d, []))) for d in docs]]
        raise ValueError(f"unknown corpus dependency key {key!r}")

    def _parts_held(self, act: str) -> list[bool]:
        from citations.parts import parted_acts

        parted = parted_acts().get(act)
        if parted is None:
            return []
        return [self.lookup.has_article_between(act, p.first, p.last) for p in parted.parts]


def citation_deps(records: Sequence[Mapping[str, Any]]) -> list[str]:
    return sorted({k for r in records for k in deps(r)})

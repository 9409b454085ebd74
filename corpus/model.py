"""The corpus records every other stage codes against.

Immutable records (frozen dataclasses, a named tuple for the many units) so a parsed document can be
hashed, compared between runs and shared between threads without anyone mutating a unit after its
content hash was computed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

IN_FORCE = "in_force"
REPEALED = "repealed"
# A unit that only stands in for text left out of an abridged copy ("2 - 34. Пункты опущены в сокращённом
# образце."): kept so the numbering reads whole, never a unit a citation can land on (corpus.store.current_tables).
OMITTED = "omitted"
# (The Romanian files of the sample leave articles out without a placeholder: there is none to mark.)
OMISSION = re.compile(r"\bопущен[аоы]?\s+в\s+сокращённом\s+образце", re.I)


def is_omission(text: str) -> bool:
    """Whether a unit's whole text is a placeholder for text an abridged copy left out."""
    return len(text) < 200 and "опущен" in text and OMISSION.search(text) is not None


class Unit(NamedTuple):
    """One addressable piece of a document.

    ``path`` is unique within the document and built from normalised numbers joined by ``/``:
    ``"1152"`` is the article, ``"1152/1"`` its part (ч. / punct / alineat), ``"1152/1/2"`` a point
    (п. / subpunct) of that part and ``"1152/1/2/а"`` a letter. A Russian citation ``п. 2 ч. 1 ст. 1152``
    and a Romanian ``art. 1152 alin. (1) lit. a)`` therefore map onto the same shape of path. A point
    of a Plenum resolution or a court decision is ``"34"`` (and ``article`` is ``"34"`` too).

    A named tuple, not a frozen dataclass: just as immutable and hashable, but made in one C call (the
    dataclass set each of the 11 fields through ``object.__setattr__``: a sixth of a full ingest on the
    ~28k units of the shared corpus) and turned into table columns by ``zip``.
    """

    doc_id: str
    act: str | None
    article: str | None
    path: str
    kind: str
    number: str
    heading: str | None
    text: str
    ord: int
    status: str
    context: str | None


# A unit as a reader finds it, before it knows its document: [article, path, kind, number, heading, text,
# status, context]. A list, so a reader can still complete its text or status (a part's text grows with the
# lines after it); ``finish`` turns the drafts into Units once the document's id and act are known.
Draft = list[Any]
# Hot loops build a draft as a list literal in that order and complete its text by index: a helper call per
# unit was a measurable share of reading the ~20k Russian units of the shared corpus.
DRAFT_TEXT = 5
_FIELD = {"text": DRAFT_TEXT, "status": 6}
_tuple_new = tuple.__new__


def draft(article: str | None, path: str, kind: str, number: str, heading: str | None, text: str, status: str,
          context: str | None) -> Draft:
    return [article, path, kind, number, heading, text, status, context]


def amend(unit: Draft, field: str, value: str) -> None:
    """Complete a draft's text or status before ``finish``."""
    unit[_FIELD[field]] = value


def finish(doc_id: str, act: str | None, drafts: Sequence[Draft]) -> tuple[Unit, ...]:
    """The document's units in order, equal to ``Unit(...)`` field for field (built without its ``__new__``,
    whose keyword handling costs more than the tuple)."""
    return tuple([_tuple_new(Unit, (doc_id, act, a, p, k, n, h, t, i, s, c))
                  for i, (a, p, k, n, h, t, s, c) in enumerate(drafts)])


@dataclass(frozen=True)
class Document:
    doc_id: str
    jurisdiction: str
    act: str | None
    kind: str
    issuer: str | None
    court: str | None
    number: str | None
    date: str | None
    title: str
    version: str
    status: str
    source: str
    file: str
    content_hash: str
    units: tuple[Unit, ...]
    # How the bytes were decoded and why: never a silent guess (e.g. "windows-1251 (meta)").
    encoding: str | None = None
    format: str | None = None


@dataclass(frozen=True)
class IngestError:
    source: str
    file: str
    reason: str
    detail: str
    position: str | None


class IngestFailure(Exception):
    """Raised inside a reader; ``parse_path`` turns it into an :class:`IngestError` for the batch."""

    def __init__(self, reason: str, detail: str, position: str | None = None) -> None:
        super().__init__(f"{reason}: {detail}" + (f" at {position}" if position else ""))
        self.reason = reason
        self.detail = detail
        self.position = position

"""The corpus records every other stage codes against.

Frozen dataclasses so a parsed document can be hashed, compared between runs and shared between
threads without anyone mutating a unit after its content hash was computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

IN_FORCE = "in_force"
REPEALED = "repealed"


@dataclass(frozen=True)
class Unit:
    """One addressable piece of a document.

    ``path`` is unique within the document and built from normalised numbers joined by ``/``:
    ``"1152"`` is the article, ``"1152/1"`` its part (ч. / punct / alineat), ``"1152/1/2"`` a point
    (п. / subpunct) of that part and ``"1152/1/2/а"`` a letter. A Russian citation ``п. 2 ч. 1 ст. 1152``
    and a Romanian ``art. 1152 alin. (1) lit. a)`` therefore map onto the same shape of path. A point
    of a Plenum resolution or a court decision is ``"34"`` (and ``article`` is ``"34"`` too).
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


_new = object.__new__
_set_dict = object.__setattr__


def draft(article: str | None, path: str, kind: str, number: str, heading: str | None, text: str, status: str,
          context: str | None) -> Unit:
    """A unit as a reader finds it, before it knows its document: ``finish`` fills doc_id, act and ord.

    Readers build the final record directly (no intermediate object copied field by field): filling the
    instance dict in one step is three times faster than the frozen dataclass's ``__init__``, which sets
    each field through ``object.__setattr__``. Until ``finish`` hands the units out, a reader may still
    complete a draft's text or status with :func:`amend`; nobody changes a unit after that.
    """
    unit = _new(Unit)
    _set_dict(unit, "__dict__", {
        "doc_id": "", "act": None, "article": article, "path": path, "kind": kind, "number": number,
        "heading": heading, "text": text, "ord": -1, "status": status, "context": context,
    })
    return unit


def amend(unit: Unit, field: str, value: str) -> None:
    """Complete a draft's text or status (a part's text grows with the lines after it) before ``finish``."""
    unit.__dict__[field] = value


def finish(doc_id: str, act: str | None, drafts: Sequence[Unit]) -> tuple[Unit, ...]:
    """The document's units in order, equal to ``Unit(...)`` field for field and just as frozen."""
    for i, unit in enumerate(drafts):
        fields = unit.__dict__
        fields["doc_id"] = doc_id
        fields["act"] = act
        fields["ord"] = i
    return tuple(drafts)


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

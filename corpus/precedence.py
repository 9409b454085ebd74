"""Which copy of a document is current when several hold it: one rule, stated here and nowhere else in Python.

The same document (the same ``doc_id``) can sit in several sources — the official code a person ingested and the
abridged copy of the embedded sample, a folder and a file inside it, a scheduled source and an inbox drop — and
in several files of one source. Exactly one copy is current; the others stay in the lake as versions. The copy
that wins is the greatest by, in order:

1. **the source's priority** (``priority:`` in sources.yaml, higher wins; 0 by default, -1 for the embedded
   sample, so the demo's abridged texts never shadow a document a person brought);
2. **the newer edition**: the edition date the copy carries (the "ред. от" of a Russian consolidated text, the
   date in force of a Romanian record; the date before ``+`` in its version). A copy that states its edition
   wins over one that does not;
3. **the file modified last** (the time of the file the copy was read from);
4. **the source's name, then the file's path** — only so that the choice never depends on the order things
   happened to be read.

Every criterion is a property of the inputs as they are now, never of the order of past commands: a fresh
warehouse given the same files makes the same choice (the differential tests hold the engine to that). The
catalog's ``corpus.documents`` view says the same in SQL (warehouse/sql/10_corpus.documents.sql);
``tests/corpus/test_precedence.py`` holds the two equal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

_EDITION = re.compile(r"^(\d{4}-\d{2}-\d{2})\+")


def edition_of(version: str | None) -> str | None:
    """The edition date a document version carries (``2023-08-04+eca91917`` -> ``2023-08-04``), or None."""
    m = _EDITION.match(version or "")
    return m.group(1) if m else None


def modified_of(file: str | None) -> str | None:
    """When a copy's file was last modified (UTC, to the microsecond), or None when it cannot be read now."""
    if not file:
        return None
    try:
        ns = Path(file).stat().st_mtime_ns
    except OSError:
        return None
    return datetime.fromtimestamp(ns / 1e9, UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class Copy:
    """One current copy of a document in one source (or one file of a source)."""

    doc_id: str
    source: str
    version: str
    priority: int = 0
    edition: str | None = None
    modified: str | None = None
    file: str = ""

    @property
    def key(self) -> tuple[int, int, str, int, str, str, str]:
        return (self.priority, self.edition is not None, self.edition or "", self.modified is not None,
                self.modified or "", self.source, self.file)


def best(copies: Iterable[Copy]) -> Copy:
    return max(copies, key=lambda c: c.key)


def why(winner: Copy, loser: Copy) -> str:
    """Why `winner` is current rather than `loser`, in words (the first criterion that tells them apart)."""
    if winner.priority != loser.priority:
        yields = " (the embedded sample yields to any other source)" if loser.priority == SAMPLE_PRIORITY and \
            loser.source.startswith(SAMPLE) else ""
        return f"a higher source priority ({winner.priority} over {loser.priority}){yields}"
    if winner.edition != loser.edition:
        if loser.edition is None:
            return f"it states its edition ({winner.edition}), the other copy does not"
        return f"a newer edition ({winner.edition} over {loser.edition})"
    if winner.modified != loser.modified:
        return f"its file was modified later ({(winner.modified or '')[:19]} over {(loser.modified or '')[:19]})"
    if winner.version == loser.version:
        return "the same version (either copy reads the same)"
    return "the source name orders after (same priority, edition and file time)"


@dataclass(frozen=True)
class Outcome:
    """What the rule decided for one document: the current copy and the copies it shadows."""

    current: Copy
    shadowed: tuple[Copy, ...]


def decide(copies: Iterable[Copy]) -> dict[str, Outcome]:
    """Per doc_id, the current copy and the others (greatest first)."""
    grouped: dict[str, list[Copy]] = {}
    for c in copies:
        grouped.setdefault(c.doc_id, []).append(c)
    out = {}
    for doc_id, group in grouped.items():
        ranked = sorted(group, key=lambda c: c.key, reverse=True)
        out[doc_id] = Outcome(ranked[0], tuple(ranked[1:]))
    return out


SAMPLE = "sample"        # the embedded sample's source name (corpus.sources registers it)
SAMPLE_PRIORITY = -1     # it yields to any other copy of a document


def default_priority(source: str) -> int:
    """A source's priority where no update recorded one (a lake read before its first update)."""
    return SAMPLE_PRIORITY if source == SAMPLE else 0


def copies_of(rows: Sequence[Mapping[str, object]], priorities: Mapping[str, int]) -> list[Copy]:
    """Copies from document rows (doc_id, source, version, edition, modified, file), priorities by source."""
    out = []
    for r in rows:
        source = str(r.get("source") or "")
        version = str(r.get("version") or "")
        edition = r.get("edition")
        modified = r.get("modified")
        out.append(Copy(str(r["doc_id"]), source, version, int(priorities.get(source, default_priority(source))),
                        str(edition) if edition else edition_of(version),
                        str(modified) if modified else None, str(r.get("file") or "")))
    return out

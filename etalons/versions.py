"""Version history and archive detection.

Every version ever loaded is kept, with its full content, so a score stays explainable by the exact etalon it
was scored on. An etalon whose file disappears is archived, never deleted; an etalon whose file is present
but broken is held as it was: a typo must not archive anything.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from etalons.loader import LoadedEtalon, LoadResult


@dataclass(frozen=True)
class EtalonVersion:
    """One `bench.etalon_versions` row: a version of an etalon, when it was first and last seen."""

    benchmark: str
    code: str
    version: str
    title: str
    question_version: str
    rubric_version: str
    methodology: str
    file: str
    file_hash: str
    first_seen: str
    last_seen: str
    content: str  # the whole etalon as JSON, title included


def version_row(loaded: LoadedEtalon, seen_at: str) -> EtalonVersion:
    return EtalonVersion(
        benchmark=loaded.benchmark,
        code=loaded.code,
        version=loaded.version,
        title=loaded.etalon.title,
        question_version=loaded.question_version,
        rubric_version=loaded.rubric_version,
        methodology=loaded.methodology,
        file=loaded.file,
        file_hash=loaded.file_hash,
        first_seen=seen_at,
        last_seen=seen_at,
        content=json.dumps(loaded.etalon.model_dump(mode="json", exclude_defaults=True), ensure_ascii=False),
    )


def record_versions(
    history: Iterable[EtalonVersion], loaded: Iterable[LoadedEtalon], seen_at: str
) -> list[EtalonVersion]:
    """The history with this load folded in: new versions appended, seen ones refreshed (title, file, last_seen).

    A version's `first_seen` never changes; a changed title updates the row of the same version.
    """
    rows = {(row.code, row.version): row for row in history}
    for item in loaded:
        key = (item.code, item.version)
        fresh = version_row(item, seen_at)
        old = rows.get(key)
        rows[key] = fresh if old is None else replace(fresh, first_seen=old.first_seen)
    return sorted(rows.values(), key=lambda r: (r.benchmark, r.code, r.first_seen, r.version))


@dataclass(frozen=True)
class Stored:
    """What the warehouse holds of an etalon before this load."""

    version: str
    title: str
    file: str
    archived: bool = False


@dataclass(frozen=True)
class Changes:
    """What a load means for the warehouse, code by code."""

    added: list[str] = field(default_factory=list)  # never seen before
    changed: list[str] = field(default_factory=list)  # a new version (signature revoked)
    retitled: list[str] = field(default_factory=list)  # same version, new title
    unchanged: list[str] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)  # archived before, its file is back
    archived: list[str] = field(default_factory=list)  # its file is gone
    held: list[str] = field(default_factory=list)  # its file is there but did not load: kept as it was

    @property
    def to_materialise(self) -> list[str]:
        return sorted({*self.added, *self.changed, *self.retitled, *self.restored})


def plan_changes(stored: Mapping[str, Stored], result: LoadResult) -> Changes:
    changes = Changes()
    loaded = result.by_code()
    for code, item in sorted(loaded.items()):
        before = stored.get(code)
        if before is None:
            changes.added.append(code)
        elif before.archived:
            changes.restored.append(code)
        elif before.version != item.version:
            changes.changed.append(code)
        elif before.title != item.etalon.title:
            changes.retitled.append(code)
        else:
            changes.unchanged.append(code)
    failed = result.failed_files
    for code, before in sorted(stored.items()):
        if code in loaded or before.archived:
            continue
        held = before.file in failed or code in result.failed_codes
        (changes.held if held else changes.archived).append(code)
    return changes


def archived_codes(stored: Mapping[str, Stored], result: LoadResult) -> list[str]:
    """Codes to archive now: stored, not archived yet, absent from this load, and no broken file of theirs."""
    return plan_changes(stored, result).archived


def latest(history: Sequence[EtalonVersion]) -> dict[str, EtalonVersion]:
    """The most recently seen version of each code."""
    out: dict[str, EtalonVersion] = {}
    for row in history:
        if row.code not in out or (row.last_seen, row.first_seen) > (
            out[row.code].last_seen,
            out[row.code].first_seen,
        ):
            out[row.code] = row
    return out

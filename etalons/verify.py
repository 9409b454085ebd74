"""Every source of an etalon, looked up in the corpus through the citations library.

A signature vouches that the etalon rests on real law, so the check runs on every load and again after every
corpus refresh: the result is one row per source (`bench.sources`), and `lost_sources` flags the etalons
whose sources were found before and are gone now.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from etalons.loader import LoadedEtalon

Status = Literal["found", "not_found", "unknown_act", "ambiguous", "unverifiable"]
# Unverifiable sources (lower courts, CJEU, ECHR) cannot be in the corpus by design: they do not block signing.
RESOLVED: frozenset[str] = frozenset({"found", "unverifiable"})
_WORST_FIRST: tuple[str, ...] = ("not_found", "unknown_act", "ambiguous", "unverifiable", "found")

Extract = Callable[[str, str], Sequence[Any]]
Resolve = Callable[[Sequence[Any], Any], Sequence[Any]]


@dataclass(frozen=True)
class SourceCheck:
    """One `bench.sources` row: a source of one etalon version and where it landed in the corpus."""

    benchmark: str
    code: str
    version: str
    index: int  # 1-based position in the etalon's sources
    citation: str
    priority: str
    condition: str | None
    kind: str | None
    act: str | None
    article: str | None
    article_to: str | None
    part: str | None
    court: str | None
    number: str | None
    point: str | None
    status: str
    reason: str
    points: str | None = None  # the etalon's required points of court practice, comma-separated

    @property
    def resolved(self) -> bool:
        return self.status in RESOLVED

    def to_row(self) -> dict[str, object]:
        """The row for the warehouse's `etalon_sources` table, where the position is named `idx`."""
        row = asdict(self)
        row["idx"] = row.pop("index")
        return row

    def describe(self) -> str:
        return f"sources[{self.index}] {self.citation!r}: {self.status} ({self.reason})"


def verify_sources(
    etalon: LoadedEtalon, lookup: object, extract: Extract | None = None, resolve: Resolve | None = None
) -> list[SourceCheck]:
    """One row per source; a source holding several citations (a list) resolves only when all of them do."""
    extract = extract or _library("extract")
    resolve = resolve or _library("resolve")
    rows: list[SourceCheck] = []
    for index, source in enumerate(etalon.etalon.sources, start=1):
        found = list(extract(source.citation, etalon.etalon.jurisdiction))
        resolutions = list(resolve(found, lookup)) if found else []
        first = found[0] if found else None
        status, reason = combine(resolutions)
        rows.append(
            SourceCheck(
                benchmark=etalon.benchmark,
                code=etalon.code,
                version=etalon.version,
                index=index,
                citation=source.citation,
                priority=source.priority,
                condition=source.condition,
                kind=_get(first, "kind"),
                act=_get(first, "act"),
                article=_get(first, "article"),
                article_to=_get(first, "article_to"),
                part=_get(first, "part"),
                court=_get(first, "court"),
                number=_get(first, "number"),
                point=_get(first, "point"),
                status=status,
                reason=reason,
                points=", ".join(source.points) or None,
            )
        )
    return rows


def unresolved(checks: Iterable[SourceCheck]) -> list[SourceCheck]:
    return [check for check in checks if not check.resolved]


def lost_sources(before: Iterable[SourceCheck], after: Iterable[SourceCheck]) -> list[SourceCheck]:
    """Sources resolved before a corpus refresh and unresolved after it (same etalon version, same source)."""
    was_resolved = {(c.code, c.version, c.index) for c in before if c.resolved}
    return [c for c in after if not c.resolved and (c.code, c.version, c.index) in was_resolved]


def report(etalon: LoadedEtalon, checks: Sequence[SourceCheck]) -> str:
    """The per-etalon verification report, in Markdown, as the signing lawyer reads it."""
    bad = unresolved(checks)
    verdict = "can be signed" if not bad else f"cannot be signed: {len(bad)} source(s) unresolved"
    lines = [
        f"# {etalon.code} — {etalon.etalon.title}",
        "",
        f"Version {etalon.version}: {verdict}.",
        "",
        "| # | citation | priority | status | why |",
        "|---|---|---|---|---|",
    ]
    for c in checks:
        lines.append(f"| {c.index} | {_cell(c.citation)} | {c.priority} | {c.status} | {_cell(c.reason)} |")
    return "\n".join(lines) + "\n"


def combine(resolutions: Sequence[Any]) -> tuple[str, str]:
    """One status for a source holding several citations: the worst of them, with the reasons that made it."""
    if not resolutions:
        return "not_found", "no citation of a norm or a decision recognised in the source"
    statuses = [str(r.status) for r in resolutions]
    worst = min(statuses, key=_WORST_FIRST.index)
    if len(resolutions) == 1:
        return worst, str(resolutions[0].reason)
    shown = [r for r in resolutions if r.status == worst] if worst != "found" else list(resolutions)
    return worst, "; ".join(f"{r.citation.text}: {r.reason}" for r in shown)


def _get(citation: object, name: str) -> str | None:
    value = getattr(citation, name, None)
    return None if value is None else str(value)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _library(name: str) -> Any:
    module = importlib.import_module("citations")
    function = getattr(module, name, None)
    if not callable(function):
        raise RuntimeError(f"the citations library has no {name}() yet: sources cannot be verified")
    return function

"""The review queue: what needs a human, filtered, counted per filter and paged, in SQL over the snapshot.

One request builds the filtered queue once as a temporary table and answers everything from it (the page,
the counts per benchmark, system, etalon and situation, the neighbours of an item), so its cost does not
grow with the number of filters shown. Situations are the methodology's four, named by the element kind,
plus the audit sample of the judge (labelled blind) and the etalons whose signature waits to be given again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import duckdb

from app.web.snapshot import Snapshot

PAGE = 50
SITUATIONS: dict[str, str] = {
    "text": "text element",
    "condition": "conditional source",
    "critical": "possible critical error",
    "hallucination": "possible hallucination",
    "audit": "audit sample (blind)",
    "signature": "signature to re-confirm",
}
SITUATION_SQL = """CASE WHEN r.situation = 'audit' THEN 'audit' ELSE CASE split_part(r.target, ':', 1)
    WHEN 'condition' THEN 'condition' WHEN 'critical' THEN 'critical' WHEN 'gross_error' THEN 'critical'
    WHEN 'hallucination' THEN 'hallucination' ELSE 'text' END END"""
ORDER = "code, system, attempt, target"   # codes are unique across benchmarks
FACETS = ("benchmark", "system", "code", "situation")


@dataclass(frozen=True)
class Filters:
    benchmark: str | None = None
    system: str | None = None
    code: str | None = None
    situation: str | None = None
    reviewed: bool = False        # include items the viewer already reviewed (waiting for others)
    page: int = 1

    @classmethod
    def from_query(cls, params: Any) -> Filters:
        def pick(name: str) -> str | None:
            value = (params.get(name) or "").strip()
            return value or None

        situation = pick("situation")
        try:
            page = max(1, int(params.get("page") or 1))
        except ValueError:
            page = 1
        return cls(pick("benchmark"), pick("system"), pick("etalon") or pick("code"),
                   situation if situation in SITUATIONS else None, params.get("reviewed") == "1", page)

    def query(self, **changes: Any) -> dict[str, str]:
        """These filters as query parameters (for links), with some changed."""
        values = {"benchmark": self.benchmark, "system": self.system, "etalon": self.code,
                  "situation": self.situation, "reviewed": "1" if self.reviewed else None}
        values.update(changes)
        return {k: str(v) for k, v in values.items() if v not in (None, "")}


@dataclass
class QueueView:
    filters: Filters
    items: list[dict[str, Any]]
    signatures: list[dict[str, Any]]
    total: int
    counts: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    pages: int = 1


def _build(cur: duckdb.DuckDBPyConnection, viewer: str) -> None:
    """The whole queue with, per item, whether the viewer reviewed it since its last disagreement."""
    cur.execute(f"""
        CREATE OR REPLACE TEMP TABLE q AS
        WITH mine AS (
            SELECT system, code, version, attempt, target, max(decided_at) AS at FROM decisions
            WHERE decided_by = ? AND revoked_at IS NULL AND kind <> 'disagreement' GROUP BY ALL),
        reviewed AS (
            SELECT m.* FROM mine m WHERE NOT EXISTS (
                SELECT 1 FROM decisions x WHERE x.system = m.system AND x.code = m.code AND x.version = m.version
                  AND x.attempt = m.attempt AND x.target = m.target AND x.kind = 'disagreement'
                  AND x.revoked_at IS NULL AND x.decided_at > m.at))
        SELECT r.id, r.system, r.code, r.version, r.attempt, r.target, r.why, r.options,
               e.benchmark, e.title, {SITUATION_SQL} AS situation, m.code IS NOT NULL AS reviewed
        FROM review r
        JOIN etalons e ON e.code = r.code AND e.version = r.version
        LEFT JOIN reviewed m ON m.system = r.system AND m.code = r.code AND m.version = r.version
                            AND m.attempt = r.attempt AND m.target = r.target""", [viewer.strip()])


def _where(filters: Filters, skip: str | None = None) -> tuple[str, list[Any]]:
    clauses, params = [], []
    for name, value in (("benchmark", filters.benchmark), ("system", filters.system), ("code", filters.code),
                        ("situation", filters.situation)):
        if value is not None and name != skip:
            clauses.append(f"{name} = ?")
            params.append(value)
    if not filters.reviewed:
        clauses.append("NOT reviewed")
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def signatures_to_confirm(snap: Snapshot, filters: Filters) -> list[dict[str, Any]]:
    """Etalons whose signature waits: revoked by an edit (an older version was signed), or given before a
    law they cite changed (the engine's `corpus_changed`, where the warehouse has it)."""
    changed = "coalesce(e.corpus_changed, false)" if snap.has_column("etalons", "corpus_changed") else "false"
    clauses, params = ["e.status <> 'archived'"], []
    if filters.benchmark:
        clauses.append("e.benchmark = ?")
        params.append(filters.benchmark)
    if filters.code:
        clauses.append("e.code = ?")
        params.append(filters.code)
    return snap.rows(f"""
        SELECT e.benchmark, e.code, e.title, e.version, e.status, e.signed_by,
               CASE WHEN {changed} THEN 'a law it cites changed since it was signed'
                    ELSE 'edited since ' || s.signed_by || ' signed version ' || s.version END AS why
        FROM etalons e
        LEFT JOIN (SELECT code, version, signed_by, signed_at FROM history
                   WHERE signed_by IS NOT NULL AND NOT is_current
                   QUALIFY row_number() OVER (PARTITION BY code ORDER BY signed_at DESC) = 1) s USING (code)
        WHERE {' AND '.join(clauses)}
          AND ({changed} OR (e.status = 'pool' AND s.code IS NOT NULL))
        ORDER BY e.benchmark, e.code""", params)


def queue(snap: Snapshot, filters: Filters, viewer: str) -> QueueView:
    cur = snap.cursor()
    try:
        _build(cur, viewer)
        signatures = signatures_to_confirm(snap, filters) if filters.system is None else []
        counts: dict[str, list[tuple[str, int]]] = {}
        for facet in FACETS:
            where, params = _where(filters, skip=facet)
            rows = cur.execute(f"SELECT {facet}, count(*) FROM q{where} GROUP BY 1 ORDER BY 1", params).fetchall()
            counts[facet] = [(str(v), int(n)) for v, n in rows]
        sign_count = len(signatures_to_confirm(snap, Filters(filters.benchmark, None, filters.code)))
        counts["situation"] = [c for c in counts["situation"] if c[0] != "signature"]
        if sign_count:
            counts["situation"].append(("signature", sign_count))
        if filters.situation == "signature":
            return QueueView(filters, [], signatures, len(signatures), counts, 1)
        where, params = _where(filters)
        total = int(cur.execute(f"SELECT count(*) FROM q{where}", params).fetchone()[0])  # type: ignore[index]
        offset = (filters.page - 1) * PAGE
        result = cur.execute(f"SELECT * FROM q{where} ORDER BY {ORDER} LIMIT {PAGE} OFFSET {offset}", params)
        names = [d[0] for d in result.description]
        items = [dict(zip(names, r, strict=True)) for r in result.fetchall()]
        return QueueView(filters, items, [], total, counts, max(1, -(-total // PAGE)))
    finally:
        cur.close()


def neighbours(snap: Snapshot, filters: Filters, viewer: str, item_id: str,
               key: tuple[str, str, str, int, str]) -> tuple[str | None, str | None, int, int]:
    """(previous id, next id, position, total) of an item in the filtered queue; an item that has left the
    queue (decided) still has a next: the first after its place."""
    cur = snap.cursor()
    try:
        _build(cur, viewer)
        where, params = _where(filters)
        rows = cur.execute(f"""
            WITH o AS (SELECT id, benchmark, code, system, attempt, target,
                              row_number() OVER (ORDER BY {ORDER}) AS n FROM q{where})
            SELECT
              (SELECT id FROM o WHERE (code, system, attempt, target) < (?, ?, ?, ?) ORDER BY n DESC LIMIT 1),
              (SELECT id FROM o WHERE (code, system, attempt, target) > (?, ?, ?, ?) ORDER BY n LIMIT 1),
              (SELECT n FROM o WHERE id = ?), (SELECT count(*) FROM o)""",
                           [*params, key[1], key[0], key[3], key[4], key[1], key[0], key[3], key[4], item_id]
                           ).fetchone()
        assert rows is not None
        return rows[0], rows[1], int(rows[2] or 0), int(rows[3] or 0)
    finally:
        cur.close()

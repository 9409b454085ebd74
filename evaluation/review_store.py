"""Human decisions, undos and approvals in the lake.

Each is an immutable event file: a decision is never erased, an undo is its own event naming the decision,
so the automatic conclusion, the decision and its undo all stay on record. Each cell's review state has a
fingerprint, so the orchestrator re-scores exactly the cells whose decisions changed.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict
from typing import Any

from evaluation.records import Decision
from warehouse.lake import Lake


def record_decision(lake: Lake, decision: Decision) -> str:
    row = asdict(decision)
    row.pop("revoked_at", None)
    row.pop("revoked_by", None)
    return lake.append_event("decisions", row, event_id=decision.decision_id)


def record_undo(lake: Lake, decision_id: str, by: str, at: str, via: str | None = None) -> None:
    lake.append_event("revocations", {"decision_id": decision_id, "revoked_by": by, "revoked_at": at,
                                      "via": via}, event_id=f"undo-{decision_id}")


def record_approval(lake: Lake, system: str, code: str, version: str, attempt: int, by: str, at: str,
                    via: str | None = None) -> None:
    lake.append_event("approvals", {"system": system, "code": code, "version": version, "attempt": attempt,
                                    "approved_by": by, "approved_at": at, "via": via})


def all_decisions(lake: Lake) -> list[Decision]:
    """Every decision with its undo folded in (revoked_at / revoked_by)."""
    undo = {r["decision_id"]: r for r in lake.read_all("revocations").to_pylist()}
    out = []
    for row in lake.read_all("decisions").to_pylist():
        u = undo.get(row["decision_id"], {})
        out.append(Decision(
            decision_id=row["decision_id"], system=row["system"], code=row["code"], version=row["version"],
            attempt=int(row["attempt"]), target=row["target"], decision=row["decision"],
            decided_by=row["decided_by"], decided_at=row["decided_at"], note=row.get("note"),
            revoked_at=u.get("revoked_at"), revoked_by=u.get("revoked_by"),
            kind=row.get("kind") or "decision", via=row.get("via"),
        ))
    return sorted(out, key=lambda d: (d.decided_at, d.decision_id))


def approvals(lake: Lake) -> list[dict[str, Any]]:
    return sorted(lake.read_all("approvals").to_pylist(), key=lambda r: r["approved_at"])


def cell_fingerprints(lake: Lake) -> dict[tuple[str, str], str]:
    """(code, system) -> hash of every decision, undo and approval on that cell."""
    per_cell: dict[tuple[str, str], list[Any]] = defaultdict(list)
    for d in all_decisions(lake):
        per_cell[(d.code, d.system)].append(asdict(d))
    for a in approvals(lake):
        per_cell[(a["code"], a["system"])].append(a)
    return {cell: _hash(items) for cell, items in per_cell.items()}


def for_cell(items: Iterable[Decision], code: str, system: str) -> list[Decision]:
    return [d for d in items if d.code == code and d.system == system]


def _hash(items: list[Any]) -> str:
    raw = json.dumps(items, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:16]

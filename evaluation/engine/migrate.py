"""Warehouses written by the Etalon before shards: carried over at the first update, nothing people did lost.

That layout kept one Parquet file per cell and table (`answers/<code>/<system>.parquet`), every version of an
etalon in `etalon_versions/<code>.parquet`, and human events as Parquet files named by their id. What people did
— decisions, undos, approvals, signatures, imported answers — and what was paid for — the model-call cache — is
carried over into the current layout; the corpus keeps its layout; everything the engine derives is moved aside
(`lake/_before-shards/`) and recomputed, every model call served from the cache. Signatures of that layout had no
seal (anyone could write one); they are sealed now, marked `via: migrated`, so a person can tell them apart.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from warehouse.lake import Lake
from warehouse.tables import ApprovalRow, DecisionRow, RevocationRow

FORMAT = 2
MARKER = "_format.json"
ASIDE = "_before-shards"
_DERIVED = ("etalon_versions", "etalon_sources", "etalon_errors", "benchmarks", "answers", "candidates", "citations",
            "judgments", "scores", "review_items", "leaderboard", "paired", "slices", "judge_agreement",
            "judge_disagreements", "pass_at_k", "calibration", "leaderboard_indicative", "passport")
_EVENTS = ("decisions", "revocations", "approvals", "signatures")


def format_of(lake: Lake) -> int | None:
    """The lake's layout: FORMAT, 1 for the per-cell layout, None for an empty lake."""
    if not lake.is_local:
        return FORMAT   # object-store lakes were only ever written in the current layout's predecessor's shape
    root = lake.root
    marker = root / MARKER
    if marker.exists():
        try:
            return int(json.loads(marker.read_text(encoding="utf-8")).get("format", 1))
        except (OSError, ValueError, AttributeError):
            return 1
    # The per-cell layout's own shapes: an etalon's versions, or a human event, as a file right under its table
    # (now they sit in benchmark folders), a cell table two levels deep (now three).
    old = [*root.glob("etalon_versions/*.parquet"), *root.glob("decisions/*.parquet"),
           *root.glob("signatures/*.parquet"), *root.glob("scores/*/*.parquet")]
    return 1 if any(not p.name.startswith("_") for p in old) else None


def mark(lake: Lake) -> None:
    if lake.is_local:
        lake.root.mkdir(parents=True, exist_ok=True)
        (lake.root / MARKER).write_text(json.dumps({"format": FORMAT}), encoding="utf-8")


def migrate(lake: Lake, signing_key: bytes) -> list[str]:
    """Carry a per-cell warehouse over; returns what was done, in sentences."""
    from etalons.signatures import signature_record
    from etalons.signing import Signature

    root = lake.root
    benchmark_of = _benchmarks(root)
    rows: dict[str, list[dict[str, Any]]] = {t: _read_old(root / t) for t in _EVENTS}
    aside = root / ASIDE
    aside.mkdir(exist_ok=True)
    for table in (*_DERIVED, *_EVENTS):
        if (root / table).exists():
            shutil.move(str(root / table), str(aside / table))
    lake.ensure_schemas()
    decided = {}
    for r in rows["decisions"]:
        bench = benchmark_of.get(str(r.get("code")), "unknown")
        decided[r["decision_id"]] = (bench, r)
        lake.append_event("decisions", (bench, r["code"]), DecisionRow(
            decision_id=r["decision_id"], benchmark=bench, system=r["system"], code=r["code"], version=r["version"],
            attempt=int(r["attempt"]), target=r["target"], decision=r["decision"], decided_by=r["decided_by"],
            decided_at=r["decided_at"], note=r.get("note"), via="migrated", kind="decision"),
            event_id=r["decision_id"], system=r["system"])
    for r in rows["revocations"]:
        found = decided.get(r["decision_id"])
        if found is None:
            continue
        bench, d = found
        lake.append_event("revocations", (bench, d["code"]), RevocationRow(
            decision_id=r["decision_id"], benchmark=bench, system=d["system"], code=d["code"],
            revoked_by=r["revoked_by"], revoked_at=r["revoked_at"], via="migrated"),
            event_id=f"undo-{r['decision_id']}", system=d["system"])
    for r in rows["approvals"]:
        bench = benchmark_of.get(str(r.get("code")), "unknown")
        lake.append_event("approvals", (bench, r["code"]), ApprovalRow(
            benchmark=bench, system=r["system"], code=r["code"], version=r["version"], attempt=int(r["attempt"]),
            approved_by=r["approved_by"], approved_at=r["approved_at"], via="migrated"), system=r["system"])
    for r in rows["signatures"]:
        signature = Signature(r["benchmark"], r["code"], r["version"], r["signed_by"], r["signed_at"])
        lake.append_event("signatures", (r["benchmark"], r["code"]),
                          signature_record(signature, [], "migrated", signing_key).to_row())
    mark(lake)
    counts = ", ".join(f"{len(rows[t])} {t}" for t in _EVENTS)
    return [f"this warehouse was written by an Etalon before shards: carried over {counts}, the imported answers, "
            f"the corpus and the model-call cache; derived tables moved to {aside} and recomputed now",
            "signatures of that layout had no seal: they are sealed now and marked `via: migrated`"]


def _read_old(folder: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if not folder.is_dir():
        return out
    for path in sorted(folder.rglob("*.parquet")):
        if path.name.startswith("_"):
            continue
        try:
            out.extend(pq.read_table(path).to_pylist())
        except (OSError, ValueError):
            continue
    return out


def _benchmarks(root: Path) -> dict[str, str]:
    """code -> benchmark, from the old etalon versions (one file per code)."""
    out: dict[str, str] = {}
    for r in _read_old(root / "etalon_versions"):
        if r.get("code") and r.get("benchmark"):
            out[str(r["code"])] = str(r["benchmark"])
    return out

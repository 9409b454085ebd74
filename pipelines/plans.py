"""The vocabulary shared by the runner, the sensor and the assets: which assets an engine stage writes, and the
plan file a run carries (the partitions to reconcile, to record as verified, to force)."""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

from warehouse.home import Home

PLAN_TAG = "etalon/plan"
WORLD_TAG = "etalon/world"   # a World the starting process lends its in-process run (assets._run.lend)
STAGE_ASSETS: dict[str, tuple[str, ...]] = {
    "corpus": ("corpus",), "etalons": ("etalons",), "sources": ("etalon_sources",), "answers": ("answers",),
    "citations": ("citations",), "judgments": ("judgments",), "scores": ("scores",), "signatures": ("signatures",),
    "analytics": ("leaderboard", "leaderboard_indicative", "slices", "paired", "judge_agreement",
                  "judge_disagreements", "pass_at_k", "calibration", "leaderboard_corrected", "judge_error",
                  "audit_sample", "audit_items"),
    "report": ("report",),
}


def write_plan(home: Home, plan: dict[str, Any]) -> str:
    """The plan as a file under $ETALON_HOME/state/plans (a run's tag names it); the last few are kept."""
    folder = home.root / "state" / "plans"
    folder.mkdir(parents=True, exist_ok=True)
    for old in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime)[:-20]:
        old.unlink(missing_ok=True)
    fd, path = tempfile.mkstemp(prefix="plan-", suffix=".json", dir=folder)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(plan, handle)
    return path

"""The systems and judge of a warehouse as the passport shows them: parameters, never keys."""

from __future__ import annotations

from typing import Any

from evaluation.systems import SystemsConfigError, load_systems
from warehouse.home import Home


def systems_summary(home: Home) -> dict[str, Any]:
    if not home.systems_file.exists():
        return {}
    try:
        systems = load_systems(home.systems_file)
    except SystemsConfigError as exc:
        return {"error": str(exc)}
    keep = ("kind", "base_url", "model", "params", "attempts", "system_prompt")
    out: dict[str, Any] = {s.id: {k: v for k, v in s.model_dump(mode="json").items() if k in keep and v}
                           for s in systems.systems}
    if systems.judge is not None:
        out["judge"] = {"models": [e.model for e in systems.judge.run_endpoints()],
                        "base_url": systems.judge.base_url, "params": systems.judge.params}
    return out

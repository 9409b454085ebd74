"""One changed etalon after a full evaluation: what `etalon update` re-materialises and what it costs.

Usage: .venv/bin/python benchmarks/incremental.py [--etalons 100] [--systems 3] [--documents 100]
       [--units 10000] [--keep DIR]

A full evaluation through Dagster (as `etalon demo` does: every partition, then one automation tick to absorb
it), then `etalon update` with nothing changed (the fixed cost: observing every input, the automation ticks,
the catalog), then one etalon's `next_steps` edited and `etalon update` again (pipelines/runner.update). The goal
is an incremental update under 1% of the full evaluation plus that fixed cost; with E etalons one etalon's cells
are 1/E of the cells, so the default E=100 puts the bar at exactly one etalon's share. Prints the cell partitions
the update materialised, which must all belong to the edited etalon.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import Scale, generate  # noqa: E402
from orchestration import STAGES, dagster_cells, dagster_inputs, dagster_rest, import_all, timed, use_home  # noqa: E402


def edit_etalon(path: Path) -> None:
    """A new version of the etalon that keeps its question, so imported answers still answer it."""
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["next_steps"] = str(data.get("next_steps") or "") + " Edited by benchmarks/incremental.py."
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=110), encoding="utf-8")


def materialised_after(instance: Any, after: int) -> dict[str, list[str]]:
    """Cell partitions materialised after an event-log position, per cell asset."""
    from dagster import AssetKey, AssetRecordsFilter

    out: dict[str, list[str]] = defaultdict(list)
    for asset in STAGES:
        cursor: str | None = None
        while True:
            result = instance.fetch_materializations(
                AssetRecordsFilter(asset_key=AssetKey(asset), after_storage_id=after), limit=1000, cursor=cursor)
            out[asset].extend(str(r.partition_key) for r in result.records if r.partition_key)
            if not result.has_more:
                break
            cursor = result.cursor
    return {k: sorted(set(v)) for k, v in out.items()}


def measure(work: Path, scale: Scale) -> dict[str, Any]:
    from app.runner import update

    t: dict[str, float] = {}
    inputs = work / "input"
    generate(inputs, scale)
    home = use_home(inputs, work / "home")
    import_all(home, inputs)
    with timed(t, "full_evaluation"):
        with timed(t, "full_inputs"):
            instance, log = dagster_inputs(home)
        with timed(t, "full_cells"):
            dagster_cells(home, instance, log)
        with timed(t, "full_analytics_catalog"):
            dagster_rest(home, instance, log)
    with timed(t, "update_nothing_changed"):
        noop = update(home)
    code = "SC-00003" if scale.etalons > 3 else "SC-00000"
    edit_etalon(inputs / "etalons" / "scale" / f"{code}.yaml")
    before = instance.event_log_storage.get_maximum_record_id() or 0
    marks: list[tuple[float, str]] = []
    with timed(t, "update_one_etalon"):
        started = time.perf_counter()
        changed = update(home, lambda line: marks.append((time.perf_counter(), line)))
        ended = time.perf_counter()
    runs = [(line, round(end - at, 2)) for (at, line), end in
            zip(marks, [m[0] for m in marks[1:]] + [ended], strict=True)]
    cells = materialised_after(instance, before)
    codes = sorted({key.split("|", 1)[0] for keys in cells.values() for key in keys})
    incremental = t["update_one_etalon"] - t["update_nothing_changed"]
    return {
        "scale": {"etalons": scale.etalons, "systems": scale.systems, "cells": scale.etalons * scale.systems,
                  "documents": scale.documents, "units": scale.units},
        "seconds": {k: round(v, 2) for k, v in t.items()},
        "full_runs": log.runs, "full_failures": log.failures,
        "nothing_changed_materialised": dict(noop.materialised),
        "edited": code,
        "update_materialised": dict(changed.materialised), "update_runs": changed.runs,
        "update_seconds_before_first_run": round(marks[0][0] - started, 2) if marks else None,
        "update_run_seconds": runs,
        "update_failures": changed.failures,
        "cells_rematerialised": cells,
        "only_the_edited_etalon": codes == [code],
        "fixed_overhead_s": round(t["update_nothing_changed"], 2),
        "incremental_s_beyond_fixed": round(incremental, 2),
        "incremental_share_of_full": round(incremental / t["full_evaluation"], 4),
        "goal_share": round(1 / scale.etalons if scale.etalons else 0.0, 4),
        "cells_run_share_of_full_cells": round(next((d for line, d in runs if "answers" in line), 0.0)
                                               / t["full_cells"], 4),
        "update_share_of_full": round(t["update_one_etalon"] / t["full_evaluation"], 4),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--etalons", type=int, default=100)
    parser.add_argument("--systems", type=int, default=3)
    parser.add_argument("--documents", type=int, default=100)
    parser.add_argument("--units", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", type=Path, default=None, help="work here and keep it (default: a temp dir)")
    args = parser.parse_args(argv)
    scale = Scale(args.documents, args.units, args.etalons, args.systems, args.seed)
    work = args.keep or Path(tempfile.mkdtemp(prefix="etalon-incr-"))
    started = time.perf_counter()
    try:
        report = measure(work, scale)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    report["wall_s"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

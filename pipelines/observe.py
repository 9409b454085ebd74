"""Noticing what people changed: new or edited etalon files, systems, corpus folders, review decisions.

Each input has a fingerprint; an input whose fingerprint differs from the last one recorded gets a new data
version (a runless materialization of its external asset), and automation does the rest. The inputs sensor
calls this under `dagster dev`; `etalon update` calls it once, so both behave the same.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dagster import AssetMaterialization, DagsterInstance

from corpus.sources import fingerprint, sources_for
from etalons.loader import LoadResult, load_benchmarks
from etalons.store import now, write_errors
from evaluation.review_store import cell_fingerprints
from evaluation.systems import SystemsConfigError, SystemsFile, load_systems
from pipelines.automation import DATA_VERSION_TAG
from pipelines.partitions import ETALONS, SOURCES, SYSTEMS
from warehouse.home import Home
from warehouse.lake import Lake

CURSOR_KEY = "etalon/inputs"


@dataclass
class Observation:
    """What changed since the last observation, and what could not be read."""

    new_partitions: dict[str, list[str]] = field(default_factory=dict)
    changed: dict[str, dict[str, str]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def count(self) -> int:
        return sum(len(v) for v in self.changed.values())

    def events(self) -> list[AssetMaterialization]:
        out = []
        for asset, parts in self.changed.items():
            for partition, version in parts.items():
                out.append(AssetMaterialization(asset_key=asset, partition=partition or None,
                                                tags={DATA_VERSION_TAG: version}))
        return out


def _h(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode("utf-8")).hexdigest()[:16]


def fingerprints(home: Home, lake: Lake, known_codes: set[str]) -> tuple[dict[str, dict[str, str]], list[str]]:
    """Every input's current fingerprint, keyed by external asset and partition ("" for unpartitioned)."""
    problems: list[str] = []
    prints: dict[str, dict[str, str]] = {}
    staging = home.root / "sources"
    prints["corpus_files"] = {s.name: fingerprint(s, staging / s.name) for s in sources_for(home.sources_file, home.inbox)}

    if home.etalons_dir.is_dir():
        prints["etalon_files"] = etalon_fingerprints(home, lake, known_codes, problems)
    else:
        # A missing folder is far more likely a wrong working directory than every etalon deleted:
        # archive nothing, say so.
        problems.append(f"no etalons folder at {home.etalons_dir} (set ETALON_ETALONS): etalons left as they are")

    systems = read_systems(home, problems)
    system_prints = {}
    for system in systems.systems:
        marker = lake.modified_ns("imported_answers", system.id)
        system_prints[system.id] = _h([system.model_dump(mode="json"), marker])
    prints["system_configs"] = system_prints
    prints["judge_config"] = {"": _h(systems.judge.model_dump(mode="json") if systems.judge else None)}
    prints["reviews"] = {f"{code}|{system}": fp for (code, system), fp in cell_fingerprints(lake).items()}
    signed = sorted((r["code"], r["version"], r["signed_at"]) for r in lake.read_all("signatures").to_pylist())
    prints["signatures"] = {"": _h(signed)}
    return prints, problems


def etalon_fingerprints(home: Home, lake: Lake, known_codes: set[str], problems: list[str]) -> dict[str, str]:
    """Per code: the file's hash, "held" for a file that fails to load, "archived" for a file that is gone."""
    result = load_benchmarks(home.etalons_dir)
    store_benchmarks(lake, result)
    write_errors(lake, result, now())
    problems.extend(str(e) for e in result.errors)
    loaded = result.by_code()
    stored_files = {r["code"]: r["file"] for r in lake.read_all("etalon_versions").to_pylist() if r.get("is_current")}
    prints: dict[str, str] = {}
    for code in sorted(set(loaded) | known_codes):
        if code in loaded:
            prints[code] = loaded[code].file_hash
        elif code in result.failed_codes or stored_files.get(code) in result.failed_files:
            prints[code] = "held"        # the file is there but broken: keep the last good version
        else:
            prints[code] = "archived"    # the file is gone
    return prints


def read_systems(home: Home, problems: list[str]) -> SystemsFile:
    if not home.systems_file.exists():
        return SystemsFile()
    try:
        return load_systems(home.systems_file)
    except SystemsConfigError as exc:
        problems.append(str(exc))
        return SystemsFile()


def store_benchmarks(lake: Lake, result: LoadResult) -> None:
    """Benchmark settings for the scorer and the canary check; rewritten only when they change (the sensor
    observes every 30 seconds)."""
    for bench in result.benchmarks:
        row = {"id": bench.id, "name": bench.name, "methodology": bench.methodology, "canary": bench.canary,
               "weights": json.dumps(bench.weights), "thresholds": json.dumps(bench.thresholds),
               "path": str(bench.path), "reviewers": bench.reviewers}
        if lake.read("benchmarks", bench.id).to_pylist() != [row]:
            lake.write("benchmarks", (bench.id,), [row])


def observe(instance: DagsterInstance, home: Home, lake: Lake, record: bool = True) -> Observation:
    """Add new partitions and record a new data version for every input whose fingerprint changed."""
    known_codes = set(instance.get_dynamic_partitions(str(ETALONS.name)))
    prints, problems = fingerprints(home, lake, known_codes)
    obs = Observation(problems=problems)
    for definition, asset in ((SOURCES, "corpus_files"), (ETALONS, "etalon_files"), (SYSTEMS, "system_configs")):
        name = str(definition.name)
        new = sorted(set(prints.get(asset, ())) - set(instance.get_dynamic_partitions(name)))
        if new:
            obs.new_partitions[name] = new
    last = _last(instance)
    for asset, parts in prints.items():
        before = last.get(asset, {})
        changed = {p: v for p, v in parts.items() if before.get(p) != v}
        if changed:
            obs.changed[asset] = changed
    if record:
        apply(instance, obs, prints)
    return obs


def apply(instance: DagsterInstance, obs: Observation, prints: Mapping[str, Mapping[str, str]] | None = None) -> None:
    for name, keys in obs.new_partitions.items():
        instance.add_dynamic_partitions(name, keys)
    for event in obs.events():
        instance.report_runless_asset_event(event)
    if prints is not None:
        instance.run_storage.set_cursor_values({CURSOR_KEY: json.dumps(prints)})


def _last(instance: DagsterInstance) -> dict[str, dict[str, str]]:
    raw = instance.run_storage.get_cursor_values({CURSOR_KEY}).get(CURSOR_KEY)
    return json.loads(raw) if raw else {}

"""Fetching the remote corpus sources: the nightly schedule's run requests and one sensor per remote kind.

A fetch is a run of the source's `corpus` partition carrying a plan that forces it (corpus.store fetches the
mirror, then reads it; the engine's stage says when a run fetches). The nightly schedule asks for every remote
source; each remote kind's sensor asks, every few minutes, for the sources of its kind whose mirror is due
(corpus.remote.mirror.due: never fetched, settings changed, a killed fetch to resume, failures to retry after
`retry_failed_after` hours, or `every` hours passed). The run's materialisation carries the fetch's counts
(fetch.fetched, fetch.new, fetch.changed, fetch.unchanged, fetch.failed, fetch.requests) beside the ingest's; the
reconcile sensor then brings what depends on the corpus up to date (signatures flagged `corpus_changed`).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from dagster import (
    AssetKey,
    DagsterRunStatus,
    DefaultSensorStatus,
    RunRequest,
    RunsFilter,
    SensorDefinition,
    SensorEvaluationContext,
    SkipReason,
    sensor,
)

from corpus.sources import KINDS, Source, sources_for
from pipelines.partitions import SOURCES
from pipelines.plans import PLAN_TAG, write_plan
from warehouse.home import Home, resolve_home

FETCH_TAG = "etalon/fetch"


def fetch_request(home: Home, source: Source, run_key: str) -> RunRequest:
    """A run of the source's corpus partition that fetches its mirror first."""
    plan = {"group": "corpus", "partitions": [source.name], "verify": {}, "force": {"corpus": True}}
    return RunRequest(run_key=run_key, partition_key=source.name, asset_selection=[AssetKey("corpus")],
                      tags={PLAN_TAG: write_plan(home, plan), FETCH_TAG: source.name})


def _register(instance: Any, names: list[str]) -> None:
    known = set(instance.get_dynamic_partitions(str(SOURCES.name)))
    new = [n for n in names if n not in known]
    if new:
        instance.add_dynamic_partitions(str(SOURCES.name), new)


def _fetching(instance: Any, name: str) -> bool:
    return bool(instance.get_runs(filters=RunsFilter(
        tags={FETCH_TAG: name},
        statuses=[DagsterRunStatus.QUEUED, DagsterRunStatus.STARTING, DagsterRunStatus.STARTED]), limit=1))


def sensor_name(kind: str) -> str:
    return "corpus_fetch_" + kind.replace("-", "_")


def _fetch_sensor(kind: str) -> SensorDefinition:
    @sensor(name=sensor_name(kind), minimum_interval_seconds=300, default_status=DefaultSensorStatus.RUNNING,
            description=f"Fetches each `{kind}` corpus source whose mirror is due (never fetched, settings "
                        "changed, a killed fetch to resume, failures to retry, `every` hours passed).")
    def fetch_sensor(context: SensorEvaluationContext) -> Iterator[RunRequest | SkipReason]:
        from corpus.remote.mirror import due

        home = resolve_home()
        try:
            chosen = [s for s in sources_for(home.sources_file, home.inbox) if s.kind == kind]
        except ValueError as exc:
            yield SkipReason(str(exc))
            return
        hour = datetime.now(UTC).strftime("%Y-%m-%dT%H")
        asked = []
        for source in chosen:
            reason = due(home.root / "sources" / source.name, source.options or {"url": source.url})
            if reason is None or _fetching(context.instance, source.name):
                continue
            _register(context.instance, [source.name])
            asked.append(source.name)
            yield fetch_request(home, source, f"{source.name}|{reason}|{hour}")
        if not asked:
            yield SkipReason(f"no `{kind}` source is due" if chosen else f"no source of kind `{kind}`")

    return fetch_sensor


FETCH_SENSORS = [_fetch_sensor(name) for name, kind in KINDS.items() if kind.remote]

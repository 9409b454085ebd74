"""A run over many partitions records each partition once, with its own data version, on Etalon's storage.

The runner starts runs with Dagster's defer tag and the assets record their own events in one batch
(assets/_emit.py, pipelines/event_storage.py); automation reads these events to re-run only changed cells.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from dagster import (
    AssetExecutionContext,
    AssetKey,
    DagsterInstance,
    Definitions,
    Output,
    StaticPartitionsDefinition,
    asset,
)

from app.runner import DEFAULT_INSTANCE_YAML
from assets._emit import NOTHING, emit
from pipelines.automation import DEFER_TAG

PARTS = StaticPartitionsDefinition([f"p{i:02d}" for i in range(12)])


@asset(dagster_type=NOTHING, partitions_def=PARTS)
def cells(context: AssetExecutionContext) -> Iterator[Output[None]]:
    yield from emit(context, {k: f"v-{k}" for k in context.partition_keys}, {"cells": len(context.partition_keys)})


@pytest.fixture()
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[DagsterInstance]:
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))
    monkeypatch.setenv("DAGSTER_EVENT_BATCH_SIZE", "1000")
    (tmp_path / "dagster.yaml").write_text(DEFAULT_INSTANCE_YAML, encoding="utf-8")
    with DagsterInstance.get() as inst:
        yield inst


def _run(instance: DagsterInstance, tags: dict[str, str]) -> None:
    job = Definitions(assets=[cells]).resolve_implicit_global_asset_job_def()
    result = job.execute_in_process(instance=instance, tags={
        **tags, "dagster/asset_partition_range_start": "p00", "dagster/asset_partition_range_end": "p11"})
    assert result.success


def _materialisations(instance: DagsterInstance) -> list[tuple[str | None, str | None]]:
    """(partition, data version) of every stored materialisation, oldest first (automation reads the last)."""
    records = instance.fetch_materializations(AssetKey("cells"), limit=1000, ascending=True).records
    out = []
    for record in records:
        m = record.asset_materialization
        assert m is not None
        out.append((m.partition, (m.tags or {}).get("dagster/data_version")))
    return out


@pytest.mark.parametrize("tags", [{DEFER_TAG: "true"}, {}], ids=["etalon's runner", "any other launcher"])
def test_every_partition_of_a_range_run_carries_its_own_data_version(instance: DagsterInstance,
                                                                     tags: dict[str, str]) -> None:
    _run(instance, tags)
    latest = {p: v for p, v in _materialisations(instance)}
    assert latest == {f"p{i:02d}": f"v-p{i:02d}" for i in range(12)}


def test_the_runner_stores_one_event_per_partition_and_no_planned_events(instance: DagsterInstance) -> None:
    _run(instance, {DEFER_TAG: "true"})
    assert len(_materialisations(instance)) == 12
    planned = instance.fetch_planned_materializations(AssetKey("cells"), limit=1000).records
    assert planned == []


def test_a_new_instance_uses_etalons_batching_storage_in_dagsters_usual_layout(instance: DagsterInstance,
                                                                                tmp_path: Path) -> None:
    _run(instance, {DEFER_TAG: "true"})
    assert type(instance.event_log_storage).__name__ == "BatchingSqliteEventLogStorage"
    assert (tmp_path / "history" / "runs" / "index.db").exists()
    assert instance.get_latest_materialization_event(AssetKey("cells")) is not None

"""Under `dagster dev`, the reconcile sensor brings a new warehouse up to date run after run, requests nothing
once it is, and requests again what an edit made stale — the same plan `etalon update` follows."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from dagster import DagsterInstance, RunRequest, SkipReason, build_sensor_context

from pipelines.definitions import defs
from pipelines.instance import instance_for
from pipelines.sensors import reconcile_sensor
from warehouse.home import resolve_home

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    bench = tmp_path / "etalons" / "bench"
    bench.mkdir(parents=True)
    shutil.copy(REPO / "etalons" / "sample" / "benchmark.yaml", bench / "benchmark.yaml")
    shutil.copy(REPO / "etalons" / "sample" / "NAS-01.yaml", bench / "NAS-01.yaml")
    (tmp_path / "etalons" / "systems.yaml").write_text("systems:\n  - id: imp\n    kind: import\n", encoding="utf-8")
    (tmp_path / "warehouse").mkdir()
    (tmp_path / "warehouse" / "sources.yaml").write_text("sources:\n  - name: sample\n    kind: sample\n",
                                                         encoding="utf-8")
    monkeypatch.setenv("ETALON_HOME", str(tmp_path / "warehouse"))
    monkeypatch.setenv("ETALON_ETALONS", str(tmp_path / "etalons"))
    monkeypatch.setenv("ETALON_JOURNAL_FLUSH", "off")
    monkeypatch.delenv("ETALON_SYSTEMS", raising=False)
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    return resolve_home()


def tick(instance: DagsterInstance) -> list[RunRequest | SkipReason]:
    return list(reconcile_sensor(build_sensor_context(instance=instance, definitions=defs)))


def launch(instance: DagsterInstance, request: RunRequest) -> None:
    job = defs.resolve_implicit_global_asset_job_def()
    result = job.execute_in_process(instance=instance, asset_selection=list(request.asset_selection or []),
                                    tags=dict(request.tags), raise_on_error=True)
    assert result.success


def settle(instance: DagsterInstance, limit: int = 8) -> list[str]:
    """Run what the sensor requests until it requests nothing; the groups it asked for, in order."""
    groups = []
    for _ in range(limit):
        out = tick(instance)
        requests = [r for r in out if isinstance(r, RunRequest)]
        if not requests:
            return groups
        groups.append(",".join(sorted(k.to_user_string() for k in requests[0].asset_selection or [])))
        launch(instance, requests[0])
    raise AssertionError(f"the sensor kept requesting runs: {groups}")


def test_a_new_warehouse_is_brought_up_to_date_group_after_group(home: Any) -> None:
    instance = instance_for(home)
    groups = settle(instance)
    assert groups[0] == "corpus"
    assert any("scores" in g for g in groups)
    assert any("report" in g for g in groups)


def test_a_settled_warehouse_gets_no_request_and_says_why(home: Any) -> None:
    instance = instance_for(home)
    settle(instance)
    out = tick(instance)
    assert [type(o) for o in out] == [SkipReason]
    assert "up to date" in str(out[0].skip_message)


def test_an_edited_etalon_is_requested_again(home: Any) -> None:
    instance = instance_for(home)
    settle(instance)
    path = Path(home.etalons_dir) / "bench" / "NAS-01.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("title: ", "title: Изменено: ", 1), encoding="utf-8")
    groups = settle(instance)
    assert groups and groups[0] == "etalon_sources,etalons"

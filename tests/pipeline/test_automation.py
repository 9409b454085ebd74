"""Scores update themselves cell by cell: which partitions Dagster's automation requests after each change.

A small project (two etalons, two imported systems) is settled through `etalon update`'s runner; then one thing
changes, the inputs are observed as the sensor would, and one evaluation of the automation conditions
(`evaluate_automation_conditions`) says what would be materialised.
"""

import json
import shutil
from pathlib import Path

import pytest
from dagster import AssetKey

from app.actions import import_answers
from app.runner import RunLog, execute, instance_for, settle, tick, update
from evaluation.records import Decision
from evaluation.review_store import record_decision
from pipelines.observe import observe
from warehouse.home import Home, resolve_home
from warehouse.lake import Lake

REPO = Path(__file__).resolve().parents[2]
CODES = ("NAS-01", "RO-MOS-01")
SYSTEMS = ("demo-strong", "demo-weak")
CELL_ASSETS = ("answers", "citations", "judgments", "scores")


@pytest.fixture(scope="module")
def settled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project settled once by `etalon update`'s runner; each test gets its own copy."""
    tmp_path = tmp_path_factory.mktemp("settled")
    with pytest.MonkeyPatch.context() as monkeypatch:
        build(tmp_path, monkeypatch)
    return tmp_path


@pytest.fixture
def project(settled: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    copy = tmp_path / "project"
    shutil.copytree(settled, copy)
    return point_at(copy, monkeypatch)


def point_at(root: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    monkeypatch.setenv("ETALON_HOME", str(root / "warehouse"))
    monkeypatch.setenv("ETALON_ETALONS", str(root / "etalons"))
    monkeypatch.delenv("ETALON_SYSTEMS", raising=False)
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    return resolve_home()


def build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bench = tmp_path / "etalons" / "bench"
    bench.mkdir(parents=True)
    shutil.copy(REPO / "etalons" / "sample" / "benchmark.yaml", bench / "benchmark.yaml")
    for code in CODES:
        shutil.copy(REPO / "etalons" / "sample" / f"{code}.yaml", bench / f"{code}.yaml")
    systems = "systems:\n" + "".join(f"  - id: {s}\n    kind: import\n" for s in SYSTEMS)
    (tmp_path / "etalons" / "systems.yaml").write_text(systems, encoding="utf-8")
    home = point_at(tmp_path, monkeypatch)
    for system in SYSTEMS:
        lines = [line for line in (REPO / "evaluation" / "sample" / "answers" / f"{system}.jsonl")
                 .read_text(encoding="utf-8").splitlines() if json.loads(line)["code"] in CODES]
        answers = tmp_path / f"{system}.jsonl"
        answers.write_text("\n".join(lines) + "\n", encoding="utf-8")
        assert import_answers(home, answers, system).imported == len(CODES)
    log = update(home)
    assert not log.failures, log.failures


def requested_after_observing(home: Home) -> dict[str, set[str | None]]:
    instance = instance_for(home)
    observe(instance, home, Lake(home.lake))
    return {key.to_user_string(): parts for key, parts in tick(instance).items()}


def edit(home: Home, code: str, old: str, new: str) -> None:
    path = home.etalons_dir / "bench" / f"{code}.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def run_requested(home: Home, requests: dict[str, set[str | None]]) -> None:
    execute(instance_for(home), {AssetKey(k): v for k, v in requests.items()}, RunLog())


def test_the_first_update_scores_every_cell(project: Home) -> None:
    scores = Lake(project.lake).read_all("scores").to_pylist()
    assert {(r["code"], r["system"]) for r in scores} == {(c, s) for c in CODES for s in SYSTEMS}


def test_an_unchanged_warehouse_requests_nothing(project: Home) -> None:
    assert requested_after_observing(project) == {}


def test_a_new_etalon_version_requests_exactly_that_etalons_cells(project: Home) -> None:
    edit(project, "NAS-01", "reference_answer: |", "reference_answer: |\n  Уточнение эталона.")
    first = requested_after_observing(project)
    assert first == {"etalons": {"NAS-01"}, "etalon_sources": {"NAS-01"}}
    run_requested(project, first)
    second = {k.to_user_string(): v for k, v in tick(instance_for(project)).items()}
    assert second == {name: {f"NAS-01|{s}" for s in SYSTEMS} for name in CELL_ASSETS}


def test_a_title_only_edit_makes_no_new_version_and_re_evaluates_nothing(project: Home) -> None:
    edit(project, "NAS-01", "title:", "title: (переименовано)")
    first = requested_after_observing(project)
    assert first == {"etalons": {"NAS-01"}, "etalon_sources": {"NAS-01"}}
    run_requested(project, first)
    assert tick(instance_for(project)) == {}


def test_a_human_decision_requests_exactly_its_cell(project: Home) -> None:
    lake = Lake(project.lake)
    version = next(r["version"] for r in lake.read("etalon_versions", "NAS-01").to_pylist() if r["is_current"])
    record_decision(lake, Decision("d-test", "demo-weak", "NAS-01", version, 1, "next_steps", "yes",
                                   "Reviewer", "2026-11-29T12:00:00+00:00"))
    assert requested_after_observing(project) == {"scores": {"NAS-01|demo-weak"}}


def test_settling_after_a_decision_changes_only_that_cells_score(project: Home) -> None:
    lake = Lake(project.lake)
    before = {(r["code"], r["system"]): r["scored_at"] for r in lake.read_all("scores").to_pylist()}
    version = next(r["version"] for r in lake.read("etalon_versions", "RO-MOS-01").to_pylist() if r["is_current"])
    record_decision(lake, Decision("d-test-2", "demo-strong", "RO-MOS-01", version, 1, "issue", "no",
                                   "Reviewer", "2026-11-29T12:00:00+00:00"))
    instance = instance_for(project)
    observe(instance, project, lake)
    settle(instance, RunLog())
    after = {(r["code"], r["system"]): r["scored_at"] for r in lake.read_all("scores").to_pylist()}
    changed = {cell for cell in before if before[cell] != after[cell]}
    assert changed <= {("RO-MOS-01", "demo-strong")}

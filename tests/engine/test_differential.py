"""Whatever people do, in whatever order, an update leaves the warehouse a fresh full evaluation would build.

Each sequence of random actions (ingest or amend the corpus, remove a source, add/edit/break/remove etalons, edit
benchmark.yaml, import answers, decide, label audit items, undo, approve, sign, change systems.yaml, kill an update
midway) is
followed by an update after every action; then a new warehouse is given the same inputs (the files, the
decision and signature events, the imported answers, the model-call cache) and evaluated once. The two must
agree row for row in every contract view. `--differential N` runs N sequences (`--differential-seed S` picks
the first seed); every sequence that ever failed is kept in `regressions.yaml` and replayed here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.engine.harness import ACTIONS, Project, differences, model_server

REGRESSIONS = Path(__file__).with_name("regressions.yaml")


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    with model_server() as server:
        yield server.base_url


def run_sequence(root: Path, base_url: str, seed: int, actions: list[str], dagster_every: int = 0) -> Project:
    project = Project.create(root / "project", base_url, seed)
    project.update()
    for i, action in enumerate(actions, start=1):
        project.act(action)
        project.update(through_dagster=bool(dagster_every) and i % dagster_every == 0)
    return project


def assert_equals_a_full_evaluation(project: Project, root: Path) -> None:
    fresh = project.fresh_copy(root / "fresh")
    fresh.update()
    diff = differences(project, fresh)
    assert not diff, "after:\n  " + "\n  ".join(project.log) + "\n" + "\n".join(
        f"{view}:\n  only incremental: {mine}\n  only full: {theirs}" for view, (mine, theirs) in diff.items())


def generated(count: int, first: int) -> list[tuple[int, list[str]]]:
    import random

    out = []
    for seed in range(first, first + count):
        rng = random.Random(seed)
        out.append((seed, [rng.choice(ACTIONS) for _ in range(rng.randint(3, 8))]))
    return out


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "sequence" in metafunc.fixturenames:
        count = int(metafunc.config.getoption("--differential"))
        first = int(metafunc.config.getoption("--differential-seed"))
        cases = generated(count, first)
        metafunc.parametrize("sequence", cases, ids=[f"seed-{s}" for s, _ in cases])
    if "regression" in metafunc.fixturenames:
        saved: list[dict[str, Any]] = yaml.safe_load(REGRESSIONS.read_text(encoding="utf-8")) or []
        metafunc.parametrize("regression", saved, ids=[r["name"] for r in saved])


def test_a_random_sequence_of_actions_ends_where_a_full_evaluation_starts(
        sequence: tuple[int, list[str]], server_url: str, tmp_path: Path) -> None:
    seed, actions = sequence
    project = run_sequence(tmp_path, server_url, seed, actions)
    assert_equals_a_full_evaluation(project, tmp_path)


def test_every_sequence_that_once_failed_still_ends_where_a_full_evaluation_starts(
        regression: dict[str, Any], server_url: str, tmp_path: Path) -> None:
    project = run_sequence(tmp_path, server_url, int(regression["seed"]), list(regression["actions"]),
                           dagster_every=int(regression.get("dagster_every", 0)))
    assert_equals_a_full_evaluation(project, tmp_path)


AUDIT_ROAD = ["audit_label", "audit_label", "import_answers", "audit_label", "undo", "edit_audit", "audit_label",
              "sign", "add_etalon", "audit_label", "change_systems", "audit_label", "edit_etalon", "audit_label"]


@pytest.mark.parametrize("seed", [101, 102, 103])
def test_audit_labels_disputes_and_redrawn_samples_end_where_a_full_evaluation_starts(
        seed: int, server_url: str, tmp_path: Path) -> None:
    """The audit's sample is a function of the recorded seed and the set of cells: labels given along the way, an
    undo, a dispute, a new seed, new cells and a new etalon version leave what a fresh evaluation draws."""
    project = run_sequence(tmp_path, server_url, seed, AUDIT_ROAD)
    labelled = [line for line in project.log if line.startswith("audit_label:") and " = " in line]
    assert labelled, "no audit item was labelled:\n" + "\n".join(project.log)
    assert_equals_a_full_evaluation(project, tmp_path)


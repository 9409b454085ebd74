"""Issue 4, as it will be checked: signing, versions and archiving of a temporary benchmark's etalons.

One story is played once per module (commands are slow); each test asserts one thing the story showed.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from tests.acceptance.project import Project, inheritance_etalon

SIGNER = "Пётр Ильич Рябов"
NEW_TITLE = "Полгода после смерти матери: новый заголовок"


@dataclass
class Step:
    """What the catalog said about ACC-01 after one step of the story."""

    command: subprocess.CompletedProcess[str]
    status: str | None
    versions: int
    scores: int
    codes: tuple[str, ...] = ()
    title: str | None = None
    indicative: tuple[bool, ...] = ()
    leaderboard_n: tuple[int, ...] = ()


@dataclass
class Story:
    project: Project
    signing_missing: subprocess.CompletedProcess[str] | None = None
    signing_valid: subprocess.CompletedProcess[str] | None = None
    steps: dict[str, Step] = field(default_factory=dict)


def _look(project: Project, command: subprocess.CompletedProcess[str]) -> Step:
    try:
        current = project.query("SELECT status, title FROM bench.etalons WHERE code = 'ACC-01'")
        versions = project.query("SELECT count(DISTINCT version) FROM bench.etalon_history WHERE code = 'ACC-01'")
        scores = project.query("SELECT count(*) FROM eval.scores WHERE code = 'ACC-01'")
        codes = tuple(r[0] for r in project.query("SELECT code FROM bench.etalons ORDER BY code"))
        indicative = tuple(bool(r[0]) for r in project.query(
            "SELECT s.indicative FROM eval.scores s JOIN bench.etalons e ON e.code = s.code AND e.version = s.version "
            "WHERE s.code = 'ACC-01'"))
        board = tuple(int(r[0]) for r in project.query(
            "SELECT n FROM eval.leaderboard WHERE benchmark = 'acc' AND system = 'sys-a'"))
    except Exception:  # the catalog or a view is missing: the step's assertions say so
        return Step(command, None, 0, 0)
    status, title = current[0] if current else (None, None)
    return Step(command, status, int(versions[0][0]), int(scores[0][0]), codes, title, indicative, board)


def build_story(make: Callable[..., Project]) -> Story:
    project = make("lifecycle")
    valid = inheritance_etalon("ACC-01")
    project.write_etalon(valid)
    project.write_etalon(inheritance_etalon(
        "ACC-02", title="Статья, которой нет в корпусе",
        sources=[{"citation": "ст. 1152 ГК РФ", "priority": "mandatory"},
                 {"citation": "ст. 1199 ГК РФ", "priority": "mandatory"}]))
    project.import_answers("sys-a", [{"code": "ACC-01", "text": "Вы приняли наследство фактически "
                                      "(ст. 1153 ГК РФ), срок не пропущен (ст. 1154 ГК РФ).", "attempt": 1}],
                           update=False)
    story = Story(project)
    story.steps["first update"] = _look(project, project.etalon("update"))
    story.signing_missing = project.etalon("sign", "ACC-02", "--by", SIGNER)
    story.signing_valid = project.etalon("sign", "ACC-01", "--by", SIGNER)
    story.steps["signed"] = _look(project, story.signing_valid)
    story.steps["signed, updated"] = _look(project, project.etalon("update"))

    valid = {**valid, "title": NEW_TITLE}
    project.write_etalon(valid)
    story.steps["title edited"] = _look(project, project.etalon("update"))

    valid = {**valid, "reference_answer": valid["reference_answer"] + "Нотариус выдаст свидетельство.\n"}
    project.write_etalon(valid)
    story.steps["text edited"] = _look(project, project.etalon("update"))

    (project.bench / "ACC-01.yaml").unlink()
    story.steps["file removed"] = _look(project, project.etalon("update"))
    return story


def test_a_fresh_project_updates_without_failure(story: Story) -> None:
    step = story.steps["first update"]
    assert step.command.returncode == 0, step.command.stdout + step.command.stderr[-3000:]


def test_a_fresh_project_materialises_its_etalons(story: Story) -> None:
    assert story.steps["first update"].codes == ("ACC-01", "ACC-02")


def test_an_imported_answer_is_scored_by_the_first_update(story: Story) -> None:
    assert story.steps["first update"].scores == 1


def test_the_missing_source_is_reported_not_found_in_bench_sources(story: Story) -> None:
    rows = story.project.query("SELECT citation, status FROM bench.sources WHERE code = 'ACC-02' ORDER BY idx")
    assert [(c, s) for c, s in rows] == [("ст. 1152 ГК РФ", "found"), ("ст. 1199 ГК РФ", "not_found")]


def test_an_etalon_citing_a_missing_article_is_refused_at_signing(story: Story) -> None:
    assert story.signing_missing is not None
    assert story.signing_missing.returncode == 1, story.signing_missing.stdout


def test_the_refusal_names_the_missing_article_on_stderr(story: Story) -> None:
    assert story.signing_missing is not None
    assert "1199" in story.signing_missing.stderr and "1152" not in story.signing_missing.stderr


def test_a_refused_etalon_stays_in_the_pool(story: Story) -> None:
    assert story.project.query("SELECT status FROM bench.etalons WHERE code = 'ACC-02'") == [("pool",)]


def test_a_valid_etalon_signs_with_exit_status_zero(story: Story) -> None:
    assert story.signing_valid is not None
    assert story.signing_valid.returncode == 0, story.signing_valid.stderr


@pytest.mark.parametrize(("step", "status", "versions"), [
    ("first update", "pool", 1),
    ("signed", "signed", 1),
    ("title edited", "signed", 1),
    ("text edited", "pool", 2),
    ("file removed", "archived", 2),
])
def test_each_step_leaves_the_status_and_the_number_of_versions_the_issue_asks_for(
        story: Story, step: str, status: str, versions: int) -> None:
    seen = story.steps[step]
    assert (seen.status, seen.versions) == (status, versions), "\n".join(story.project.history[-3:])


@pytest.mark.parametrize(("step", "indicative"), [
    ("first update", (True,)), ("signed", (False,)), ("text edited", (True,))])
def test_scores_are_indicative_exactly_while_the_current_version_is_unsigned(
        story: Story, step: str, indicative: tuple[bool, ...]) -> None:
    assert story.steps[step].indicative == indicative


@pytest.mark.parametrize(("step", "n"), [
    ("first update", (0,)),
    ("signed, updated", (1,)),
    ("text edited", (0,)),
])
def test_the_leaderboard_counts_the_answer_exactly_while_its_etalon_is_signed(
        story: Story, step: str, n: tuple[int, ...]) -> None:
    assert story.steps[step].leaderboard_n == n


def test_a_title_edit_shows_the_new_title_in_bench_etalons(story: Story) -> None:
    assert story.steps["title edited"].title == NEW_TITLE


def test_the_signature_names_its_signer_and_the_version_it_signed(story: Story) -> None:
    rows = story.project.query(
        "SELECT count(DISTINCT version), min(signed_by) FROM bench.etalon_history "
        "WHERE code = 'ACC-01' AND signed_by IS NOT NULL")
    assert rows == [(1, SIGNER)]


def test_updating_after_each_edit_succeeds(story: Story) -> None:
    failed = {name: s.command.stderr[-500:] for name, s in story.steps.items() if s.command.returncode != 0}
    assert failed == {}


def test_an_archived_etalon_keeps_its_scores_queryable(story: Story) -> None:
    step = story.steps["file removed"]
    assert step.scores >= 1 and step.scores == story.steps["text edited"].scores

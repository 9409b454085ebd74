"""Issue 7, as it will be checked: imported answers, no judge, every judged element settled by a human.

The story runs once per module: two import systems answer one lesto etalon; a reviewer decides, undoes,
decides again, settles everything for one system, approves, and then the etalon's text is edited. Each test
asserts one thing the story showed, through `etalon` output and the catalog views only.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.acceptance.project import Project, inheritance_etalon, last_line

REVIEWER = "Мария Олеговна Кедрова"
STRONG = {"code": "ACC-01", "attempt": 1, "sources": ["ст. 1152 ГК РФ", "ст. 1153 ГК РФ", "ст. 1154 ГК РФ"],
          "text": "Вы уже приняли наследство фактически: вы вселились в дом и оплачиваете его содержание "
                  "в течение шести месяцев (ст. 1152, п. 2 ст. 1153 ГК РФ). Шестимесячный срок "
                  "(ст. 1154 ГК РФ) не пропущен. Отнесите нотариусу квитанции и получите свидетельство "
                  "о праве на наследство."}
WEAK = {"code": "ACC-01", "attempt": 1,
        "text": "Срок пропущен, теперь только суд: подавайте иск о восстановлении срока (ст. 1155 ГК РФ)."}
FAVOURABLE = {"conclusion": "correct", "next_steps": "yes"}
KEYS = ("id", "system", "code", "version", "attempt", "target", "why")


@dataclass
class Story:
    project: Project
    results: dict[str, subprocess.CompletedProcess[str]] = field(default_factory=dict)
    scores: dict[str, dict[str, tuple[Any, ...]]] = field(default_factory=dict)
    items: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    versions: dict[str, str | None] = field(default_factory=dict)


def _scores(project: Project) -> dict[str, tuple[Any, ...]]:
    """score, verdict, status and scored_at of every current-version cell of ACC-01, by system."""
    rows = project.query(
        "SELECT s.system, s.score, s.verdict, s.status, s.scored_at FROM eval.scores s "
        "JOIN bench.etalons e ON e.code = s.code AND e.version = s.version WHERE s.code = 'ACC-01'")
    return {r[0]: tuple(r[1:]) for r in rows}


def _version(project: Project) -> str | None:
    rows = project.query("SELECT version FROM bench.etalons WHERE code = 'ACC-01'")
    return str(rows[0][0]) if rows else None


def _open(project: Project, system: str) -> list[dict[str, Any]]:
    return [i for i in project.review_items() if i["system"] == system and i["code"] == "ACC-01"]


def _value(item: dict[str, Any]) -> str:
    options = list(item.get("options") or ["yes", "no"])
    wanted = FAVOURABLE.get(str(item["target"]), "no")
    return wanted if wanted in options else options[0]


def build_story(make: Callable[..., Project]) -> Story:
    project = make("review", systems=("sys-a", "sys-b"))
    etalon = inheritance_etalon("ACC-01")
    project.write_etalon(etalon)
    s = Story(project)
    s.results["import a"] = project.import_answers("sys-a", [STRONG], update=False)
    s.results["import b"] = project.import_answers("sys-b", [WEAK])  # imports, then updates the warehouse
    s.versions["first"] = _version(project)
    s.scores["imported"] = _scores(project)
    s.items["imported"] = _open(project, "sys-a")
    s.results["list text"] = project.etalon("review", "list")
    conclusion = next((i for i in s.items["imported"] if i["target"] == "conclusion"), None)
    if conclusion is None:
        return s
    s.results["bad value"] = project.etalon("review", "decide", conclusion["id"], "perhaps", "--by", REVIEWER)
    s.results["decide"] = project.etalon("review", "decide", conclusion["id"], "correct", "--by", REVIEWER)
    s.scores["decided"] = _scores(project)
    s.results["undo"] = project.etalon("review", "undo", last_line(s.results["decide"].stdout), "--by", REVIEWER)
    s.scores["undone"] = _scores(project)
    s.items["undone"] = _open(project, "sys-a")
    s.results["decide again"] = project.etalon("review", "decide", conclusion["id"], "correct", "--by", REVIEWER)
    s.results["approve early"] = project.etalon("review", "approve", "sys-a", "ACC-01", "--by", REVIEWER)
    for item in _open(project, "sys-a"):
        s.results[f"settle {item['target']}"] = project.etalon(
            "review", "decide", item["id"], _value(item), "--by", REVIEWER)
    s.scores["settled"] = _scores(project)
    s.items["settled"] = _open(project, "sys-a")
    s.results["approve"] = project.etalon("review", "approve", "sys-a", "ACC-01", "--by", REVIEWER)
    s.scores["approved"] = _scores(project)
    project.write_etalon({**etalon, "reference_answer": etalon["reference_answer"]
                          + "Обращаться в суд за восстановлением срока не нужно.\n"})
    s.results["edit update"] = project.etalon("update")
    s.versions["edited"] = _version(project)
    s.scores["edited"] = _scores(project)
    return s


def _cell(story: Story, step: str, system: str = "sys-a") -> tuple[Any, ...]:
    assert step in story.scores, f"the story stopped before {step!r}: " + "\n".join(story.project.history[-4:])
    assert system in story.scores[step], f"no current score of {system} after {step!r}: {story.scores[step]}"
    return story.scores[step][system]


def test_imports_and_update_succeed(story: Story) -> None:
    failed = {k: r.stderr[-800:] for k, r in story.results.items() if k in ("import a", "import b")
              and r.returncode != 0}
    assert failed == {}


@pytest.mark.parametrize("system", ["sys-a", "sys-b"])
def test_every_imported_answer_is_scored_and_waits_for_a_human(story: Story, system: str) -> None:
    assert _cell(story, "imported", system)[2] == "needs_input"


def test_the_review_queue_lists_the_judged_elements_of_the_answer(story: Story) -> None:
    targets = {i["target"] for i in story.items["imported"]}
    assert {"conclusion", "next_steps"} <= targets


def test_every_json_review_item_has_the_contract_keys(story: Story) -> None:
    items = story.items["imported"]
    assert items and all(set(KEYS) <= set(i) for i in items)


def test_review_items_name_the_current_etalon_version_and_attempt(story: Story) -> None:
    assert {(i["code"], i["version"], i["attempt"]) for i in story.items["imported"]} == \
        {("ACC-01", story.versions["first"], 1)}


def test_the_text_review_list_prints_one_line_per_item(story: Story) -> None:
    listed = story.results["list text"]
    lines = [line for line in listed.stdout.splitlines() if line.strip()]
    assert listed.returncode == 0 and story.items["imported"]
    assert all(sum(item["id"] in line for line in lines) == 1 for item in story.items["imported"])


def test_a_bad_decision_value_exits_with_status_one(story: Story) -> None:
    assert story.results["bad value"].returncode == 1


def test_a_bad_decision_value_says_what_was_expected(story: Story) -> None:
    assert "correct" in story.results["bad value"].stderr


def test_a_decision_prints_its_id_alone_on_the_last_line(story: Story) -> None:
    decided = story.results["decide"]
    decision_id = last_line(decided.stdout)
    assert decided.returncode == 0 and decision_id and " " not in decision_id
    assert story.project.query("SELECT count(*) FROM eval.decisions WHERE decision_id = ?", decision_id) == [(1,)]


def test_a_correct_conclusion_adds_its_forty_points(story: Story) -> None:
    assert _cell(story, "decided")[0] - _cell(story, "imported")[0] == pytest.approx(40)


def test_a_decision_rescores_only_its_own_cell(story: Story) -> None:
    assert _cell(story, "decided", "sys-b") == _cell(story, "imported", "sys-b")


def test_an_undo_returns_the_score_to_its_automatic_state(story: Story) -> None:
    assert story.results["undo"].returncode == 0, story.results["undo"].stderr
    assert _cell(story, "undone")[:3] == _cell(story, "imported")[:3]


def test_an_undo_reopens_the_item(story: Story) -> None:
    assert "conclusion" in {i["target"] for i in story.items["undone"]}


def test_an_undo_leaves_the_other_cell_untouched(story: Story) -> None:
    assert _cell(story, "undone", "sys-b") == _cell(story, "imported", "sys-b")


def test_the_decisions_view_keeps_the_undone_decision_with_its_revocation(story: Story) -> None:
    rows = story.project.query(
        "SELECT decided_by, revoked_at IS NOT NULL FROM eval.decisions "
        "WHERE system = 'sys-a' AND code = 'ACC-01' AND target = 'conclusion' ORDER BY decided_at")
    assert rows == [(REVIEWER, True), (REVIEWER, False)]


def test_approval_is_refused_while_items_are_open(story: Story) -> None:
    refused = story.results["approve early"]
    assert refused.returncode == 1 and refused.stderr.strip()


def test_settling_every_item_makes_the_evaluation_final(story: Story) -> None:
    assert story.items["settled"] == [] and _cell(story, "settled")[2] == "final"


def test_a_fully_correct_answer_scores_one_hundred_and_is_positive(story: Story) -> None:
    assert _cell(story, "settled")[:2] == (pytest.approx(100), "positive")


def test_approval_makes_the_evaluation_approved(story: Story) -> None:
    assert story.results["approve"].returncode == 0, story.results["approve"].stderr
    assert _cell(story, "approved")[2] == "approved"


def test_an_undecided_answer_stays_needs_input_throughout(story: Story) -> None:
    assert _cell(story, "approved", "sys-b")[2] == "needs_input"


def test_an_etalon_edit_makes_a_new_version(story: Story) -> None:
    assert story.versions["edited"] not in (None, story.versions["first"])


@pytest.mark.parametrize("system", ["sys-a", "sys-b"])
def test_an_etalon_edit_rescores_its_cells_on_the_new_version(story: Story, system: str) -> None:
    assert story.results["edit update"].returncode == 0, story.results["edit update"].stderr[-800:]
    assert _cell(story, "edited", system)[2] in ("needs_input", "final")


def test_the_scores_of_the_old_version_stay_queryable(story: Story) -> None:
    rows = story.project.query("SELECT count(*) FROM eval.scores WHERE code = 'ACC-01' AND version = ?",
                               story.versions["first"])
    assert rows == [(2,)]


def test_answers_on_an_unsigned_etalon_stay_out_of_the_leaderboard_counts(story: Story) -> None:
    rows = story.project.query("SELECT system, n FROM eval.leaderboard WHERE benchmark = 'acc' ORDER BY system")
    assert rows == [("sys-a", 0), ("sys-b", 0)]

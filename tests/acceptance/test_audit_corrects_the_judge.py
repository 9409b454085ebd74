"""Issue 23, as it will be checked: a warehouse whose judge errs in a known way against a known truth.

Thirty lesto etalons, one imported system whose answers say, in words the judge reads, how good they are: a
conclusion that is right, partly right or wrong, next steps given or not. Two warehouses are built from the same
files through `etalon` subprocesses, each with its judge on a loopback server: a truthful judge (its leaderboard
is the truth) and an erring one that marks every right conclusion "partial" and misses every next step — the
agreed mistakes no review ever sees. The erring warehouse audits half the answers; a lawyer labels every audit
item with the truth through `etalon review decide`. Each test asserts one thing a user sees in the views, the
command output or the report. The loopback server (evaluation.testserver) is the only Etalon code imported: it
stands in for the judge's endpoint.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from evaluation.testserver import Rule, TestServer
from tests.acceptance.project import Project, inheritance_etalon, last_line

LAWYER = "Мария Олеговна Кедрова"
ETALONS = 30
GRADES = {"верный": "correct", "частично верный": "partial", "неверный": "incorrect"}
PLAN = [("верный", True), ("верный", True), ("частично верный", True), ("верный", False), ("неверный", True),
        ("верный", True), ("частично верный", False), ("верный", True)]


def code(i: int) -> str:
    return f"AUD-{i:02d}"


def truth(i: int) -> dict[str, str]:
    conclusion, steps = PLAN[i % len(PLAN)]
    return {"conclusion": GRADES[conclusion], "next_steps": "yes" if steps else "no", "refusal": "no"}


def answer(i: int) -> dict[str, Any]:
    conclusion, steps = PLAN[i % len(PLAN)]
    text = (f"Вы приняли наследство фактически (ст. 1152, п. 2 ст. 1153 ГК РФ), срок ст. 1154 ГК РФ соблюдён. "
            f"Вывод по делу: {conclusion}. Следующие шаги: {'указаны' if steps else 'не указаны'}.")
    return {"code": code(i), "attempt": 1, "text": text}


def judge(erring: bool) -> Callable[[dict[str, Any]], str]:
    """A judge that reads the answer's own words: truthful, or marking right conclusions "partial" and missing
    every next step (both runs agree: the program settles these elements without a human)."""
    def reply(body: dict[str, Any]) -> str:
        user = next(str(m.get("content") or "") for m in body["messages"] if m.get("role") == "user")
        data = json.loads(user.split("\n", 1)[1])
        text = str(data["answer_under_evaluation"])
        kind = data["element"]["kind"]
        if kind == "conclusion":
            verdict = next(g for w, g in GRADES.items() if f"Вывод по делу: {w}." in text)
            if erring and verdict == "correct":
                verdict = "partial"
        elif kind == "next_steps":
            verdict = "yes" if "шаги: указаны" in text and not erring else "no"
        else:
            verdict = "no"
        return json.dumps({"verdict": verdict, "quote": text.split(".")[0] + ".", "reason": "scripted"},
                          ensure_ascii=False)
    return reply


@dataclass
class Story:
    truthful: Project
    erring: Project
    results: dict[str, subprocess.CompletedProcess[str]] = field(default_factory=dict)
    items: list[dict[str, Any]] = field(default_factory=list)
    scores_before: list[tuple[Any, ...]] = field(default_factory=list)
    scores_after: list[tuple[Any, ...]] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    after_undo: list[dict[str, Any]] = field(default_factory=list)
    audited_after_undo: int | None = None
    drawn: int = 0
    report: str = ""
    board_mean: float | None = None
    corrected_before_dispute: tuple[Any, ...] = ()
    corrected_after_dispute: tuple[Any, ...] = ()
    disputed: dict[str, Any] = field(default_factory=dict)
    dispute_items: list[dict[str, Any]] = field(default_factory=list)
    dispute_scores: tuple[Any, ...] = ()


def _prepare(project: Project, base_url: str, audit: dict[str, Any]) -> None:
    project.write_yaml(project.bench / "benchmark.yaml", {
        "name": "Audit benchmark", "methodology": "lesto", "canary": "7a1f0c7a9b2d4e6f8a0b1c2d3e4f5a6b",
        "audit": audit})
    project.write_yaml(project.root / "systems.yaml", {
        "systems": [{"id": "sys-a", "kind": "import", "attempts": 1}],
        "judge": {"base_url": base_url, "model": "judge-1", "retries": 0, "concurrency": 4}})
    for i in range(ETALONS):
        project.write_etalon(inheritance_etalon(code(i), gross_errors=[]))


def _label_everything(story: Story, project: Project, name: str) -> list[str]:
    ids = []
    for item in [i for i in project.review_items() if i["situation"] == "audit"]:
        index = int(item["code"].split("-")[1])
        result = project.etalon("review", "decide", item["id"], truth(index)[item["target"]], "--by", LAWYER)
        story.results[f"label {name} {item['id']}"] = result
        ids.append(last_line(result.stdout))
    return ids


CORRECTED = "SELECT mean_score_judge, mean_score_corrected, ci_low_corrected, ci_high_corrected FROM " \
            "eval.leaderboard_corrected"


def _dispute(story: Story, project: Project) -> None:
    """The lawyer saw the judge was wrong on an audited conclusion and disputes it; a colleague decides it."""
    right = next((i for i in story.items if i["situation"] == "audit" and i["target"] == "conclusion"
                  and truth(int(i["code"].split("-")[1]))["conclusion"] == "correct"), None)
    if right is None:
        return
    story.disputed = right
    story.corrected_before_dispute = project.query(CORRECTED)[0]
    score = f"SELECT score FROM eval.scores WHERE code = '{right['code']}' AND is_current"
    before = project.query(score)[0][0]
    story.results["disagree"] = project.etalon("review", "disagree", right["id"], "--by", LAWYER,
                                               "--note", "вывод верный: наследство принято фактически")
    story.dispute_items = project.review_items()
    story.results["decide disputed"] = project.etalon("review", "decide", right["id"], "correct",
                                                      "--by", "Пётр Андреевич Рябов")
    story.dispute_scores = (before, project.query(score)[0][0])
    story.corrected_after_dispute = project.query(CORRECTED)[0]


def build_story(make: Callable[..., Project]) -> Story:
    truthful, erring = make("audit-truth"), make("audit-erring")
    story = Story(truthful, erring)
    with TestServer([Rule(system_contains="legal evaluator", model="judge-1", reply=judge(False))]) as right, \
            TestServer([Rule(system_contains="legal evaluator", model="judge-1", reply=judge(True))]) as wrong:
        _prepare(truthful, right.base_url, {"rate": 0.1, "min_per_stratum": 0, "seed": 7})
        _prepare(erring, wrong.base_url, {"rate": 0.5, "min_per_stratum": 5, "seed": 2026})
        answers = [answer(i) for i in range(ETALONS)]
        story.results["truthful import"] = truthful.import_answers("sys-a", answers)
        story.results["erring import"] = erring.import_answers("sys-a", answers)
        story.items = erring.review_items()
        story.scores_before = erring.query("SELECT code, score, verdict FROM eval.scores ORDER BY code")
        story.labels = _label_everything(story, erring, "erring")
        _label_everything(story, truthful, "truthful")
        story.scores_after = erring.query("SELECT code, score, verdict FROM eval.scores ORDER BY code")
        story.results["erring update"] = erring.etalon("update")
        story.results["truthful update"] = truthful.etalon("update")
        story.report = (erring.home / "report" / "index.html").read_text(encoding="utf-8")
        story.drawn = int(erring.query("SELECT count(*) FROM eval.audit_sample WHERE sampled")[0][0])
        if story.labels:   # undo one label, look, and give it again: the story ends with every item labelled
            undone = next(k for k, r in story.results.items() if k.startswith("label erring"))
            story.results["undo"] = erring.etalon("review", "undo", story.labels[0], "--by", LAWYER)
            story.after_undo = erring.review_items()
            story.audited_after_undo = int(erring.query("SELECT audited FROM eval.leaderboard_corrected")[0][0])
            item_id = undone.removeprefix("label erring ")
            index = int(item_id.split(":")[1].split("-")[1])
            story.results["label again"] = erring.etalon(
                "review", "decide", item_id, truth(index)[item_id.split(":", 4)[4]], "--by", LAWYER)
        story.board_mean = float(erring.query("SELECT ind_mean_score FROM eval.leaderboard")[0][0])
        _dispute(story, erring)
    return story


def _row(project: Project) -> dict[str, Any]:
    rows = project.query("SELECT * FROM eval.leaderboard_corrected WHERE system = 'sys-a'")
    names = [r[0] for r in project.query("DESCRIBE eval.leaderboard_corrected")]
    assert len(rows) == 1, rows
    return dict(zip(names, rows[0], strict=True))


def _truth(story: Story) -> float:
    return float(story.truthful.query("SELECT avg(score) FROM eval.scores WHERE is_current")[0][0])


def test_every_command_of_the_story_succeeds(story: Story) -> None:
    failed = {k: r.stderr[-600:] for k, r in story.results.items() if r.returncode != 0}
    assert failed == {}


def test_the_erring_judge_moves_the_leaderboard_away_from_the_truth(story: Story) -> None:
    judged = _row(story.erring)
    assert judged["mean_score_judge"] < _truth(story) - 10
    assert judged["mean_score_judge"] == pytest.approx(story.board_mean)   # what the leaderboard showed


def test_the_judge_only_interval_does_not_cover_the_truth(story: Story) -> None:
    judged = _row(story.erring)
    assert not judged["ci_low_judge"] <= _truth(story) <= judged["ci_high_judge"]


def test_the_corrected_interval_covers_the_truth(story: Story) -> None:
    row = _row(story.erring)
    print(f"truth {_truth(story):.2f}; judge-only {row['mean_score_judge']:.2f} "
          f"[{row['ci_low_judge']:.2f}, {row['ci_high_judge']:.2f}]; corrected {row['mean_score_corrected']:.2f} "
          f"[{row['ci_low_corrected']:.2f}, {row['ci_high_corrected']:.2f}] from {row['audited']} audited answers")
    assert row["ci_low_corrected"] <= _truth(story) <= row["ci_high_corrected"]


def test_the_corrected_positive_rate_covers_the_true_one(story: Story) -> None:
    true_rate = story.truthful.query("SELECT avg(CASE WHEN verdict = 'positive' THEN 1.0 ELSE 0.0 END) "
                                     "FROM eval.scores WHERE is_current")[0][0]
    row = _row(story.erring)
    assert row["positive_low_corrected"] <= true_rate <= row["positive_high_corrected"]
    assert row["positive_rate_judge"] < true_rate


def test_the_audit_sample_size_is_the_drawn_answers_and_enough(story: Story) -> None:
    row = _row(story.erring)
    drawn = story.erring.query("SELECT count(*) FROM eval.audit_sample WHERE sampled")[0][0]
    assert row["audited"] == row["sampled"] == drawn >= 10
    assert row["too_few_audit"] is False


def test_labels_never_change_a_score(story: Story) -> None:
    assert story.scores_before and story.scores_after == story.scores_before


def test_audit_items_are_their_own_situation_and_never_name_the_judges_conclusion(story: Story) -> None:
    audit = [i for i in story.items if i["situation"] == "audit"]
    assert audit and {i["target"] for i in audit} == {"conclusion", "next_steps", "refusal"}
    assert all("partial" not in i["why"] and "verdict" not in i for i in audit)


def test_the_last_label_of_an_answer_reveals_what_the_judge_concluded(story: Story) -> None:
    said = [r.stdout for k, r in story.results.items() if k.startswith("label erring")]
    assert any("judge partial, lawyer correct (differs)" in out for out in said)


def test_the_judges_error_is_measured_per_element_kind(story: Story) -> None:
    rows = {r[0]: dict(zip(("audited", "error", "yes_no", "no_yes"), r[1:], strict=True)) for r in story.erring.query(
        "SELECT kind, audited, error_rate, judge_yes_human_no, judge_no_human_yes FROM eval.judge_error")}
    share_right = sum(truth(i)["conclusion"] == "correct" for i in range(ETALONS)) / ETALONS
    share_steps = sum(truth(i)["next_steps"] == "yes" for i in range(ETALONS)) / ETALONS
    # The judge grades right conclusions lower and misses next steps: errors one way only, at about their share.
    assert rows["conclusion"]["yes_no"] == 0.0 and rows["conclusion"]["no_yes"] == rows["conclusion"]["error"]
    assert rows["conclusion"]["error"] == pytest.approx(share_right, abs=0.25)
    assert rows["next_steps"]["yes_no"] == 0.0 and rows["next_steps"]["error"] == pytest.approx(share_steps, abs=0.25)
    assert rows["refusal"]["error"] == 0.0 and rows["refusal"]["audited"] >= 10


def test_with_a_truthful_judge_the_corrected_figure_is_the_judge_only_one(story: Story) -> None:
    row = _row(story.truthful)
    assert row["audited"] > 0
    assert row["mean_score_corrected"] == pytest.approx(row["mean_score_judge"])
    assert (row["ci_low_corrected"], row["ci_high_corrected"]) == pytest.approx(
        (row["ci_low_judge"], row["ci_high_judge"]))


def test_the_seed_is_recorded_in_the_benchmarks_view(story: Story) -> None:
    audit = json.loads(story.erring.query("SELECT audit FROM bench.benchmarks")[0][0])
    assert audit["seed"] == 2026 and audit["rate"] == 0.5


def test_an_undone_label_puts_its_item_back_and_its_answer_out_of_the_audited(story: Story) -> None:
    assert sum(i["situation"] == "audit" for i in story.after_undo) == 1
    assert story.audited_after_undo == story.drawn - 1


def test_the_report_shows_both_figures_the_judges_error_and_what_more_labels_buy(story: Story) -> None:
    assert "Corrected for the judge&#x27;s errors" in story.report or "Corrected for the judge's errors" in story.report
    assert "Judge-only mean" in story.report and "Corrected mean" in story.report
    assert "The judge&#x27;s measured error per element kind" in story.report or \
        "The judge's measured error per element kind" in story.report
    assert "more audited answers would bring ±" in story.report


def test_a_disputed_audit_element_opens_in_the_normal_flow(story: Story) -> None:
    assert story.disputed, "no audited conclusion the judge got wrong"
    situations = {i["situation"] for i in story.dispute_items if i["id"] == story.disputed["id"]}
    assert situations == {"disputed"}


def test_the_decision_that_settles_a_dispute_changes_the_score(story: Story) -> None:
    before, after = story.dispute_scores
    assert after == pytest.approx(before + 20)   # "partial" (half of 40 points) became "correct"


def test_settling_a_dispute_moves_neither_the_judge_only_nor_the_corrected_figure(story: Story) -> None:
    assert story.corrected_after_dispute == pytest.approx(story.corrected_before_dispute)


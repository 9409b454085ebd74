"""Calibration from the answers' own confidence, through the real commands: imported answers that state a
confidence fill eval.calibration and the report's calibration part; a changed confidence re-scores its cell;
a confidence that is not a probability is refused with the file, the line and the field, and the rest imported.
The same story has two lawyers review the same elements, and the report measures their agreement.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.acceptance.project import Project, inheritance_etalon

RIGHT = "Наследство принято фактически (ст. 1152, п. 2 ст. 1153 ГК РФ); срок ст. 1154 ГК РФ не пропущен."
WRONG = "Наследство можно получить только через суд: срок пропущен."
CODES = ("ACC-01", "ACC-02", "ACC-03", "ACC-04")
FIRST = {"ACC-01": 0.9, "ACC-02": 0.8, "ACC-03": 0.3, "ACC-04": 0.2}
SECOND = {**FIRST, "ACC-03": 0.95}
SIGNER = "Пётр Ильич Рябов"
LAWYERS = ("Анна Воронцова", "Мария Ионеску")


def _answers(confidence: dict[str, float]) -> list[dict[str, Any]]:
    return [{"code": code, "text": RIGHT if code in ("ACC-01", "ACC-02") else WRONG,
             "confidence": confidence[code]} for code in CODES]


@dataclass
class Story:
    project: Project
    results: dict[str, Any]
    rows: dict[str, Any]


def build_story(make: Callable[..., Project]) -> Story:
    project = make("calibration")
    for code in CODES:
        project.write_etalon(inheritance_etalon(code))
    results: dict[str, Any] = {"update": project.etalon("update")}
    for code in CODES:  # calibration, like the ranking, counts signed etalons only
        results[f"sign {code}"] = project.etalon("sign", code, "--by", SIGNER)
    results["first"] = project.import_answers("sys-a", _answers(FIRST))
    rows: dict[str, Any] = {
        "first scores": dict(project.query("SELECT code, confidence FROM eval.scores WHERE is_current")),
        "first calibration": project.query("SELECT n, brier FROM eval.calibration WHERE system = 'sys-a'"),
        "report": (project.home / "report" / "index.html").read_text(encoding="utf-8"),
    }
    results["second"] = project.import_answers("sys-a", _answers(SECOND))
    rows["second scores"] = dict(project.query("SELECT code, confidence FROM eval.scores WHERE is_current"))
    rows["second calibration"] = project.query("SELECT n, brier FROM eval.calibration WHERE system = 'sys-a'")
    bad = project.root / "bad.jsonl"
    bad.write_text(f'{{"code": "ACC-01", "text": "{RIGHT}", "confidence": 0.5}}\n'
                   f'{{"code": "ACC-02", "text": "{RIGHT}", "confidence": 1.7}}\n', encoding="utf-8")
    results["bad"] = project.etalon("answers", "import", str(bad), "--system", "sys-a", "--no-update")
    conclusions = sorted((i for i in project.review_items() if i["target"] == "conclusion"), key=lambda i: i["code"])
    for item, (first, second) in zip(conclusions, (("correct", "correct"), ("correct", "partial")), strict=False):
        for lawyer, value in ((LAWYERS[0], first), (LAWYERS[1], second)):
            results[f"decide {item['code']} {lawyer}"] = project.etalon("review", "decide", item["id"], value,
                                                                        "--by", lawyer)
    results["after review"] = project.etalon("update")
    rows["reviewed report"] = (project.home / "report" / "index.html").read_text(encoding="utf-8")
    return Story(project, results, rows)


@pytest.fixture(scope="module")
def calibration(story: Story) -> Story:
    return story


@pytest.mark.parametrize("step", ["update", *[f"sign {c}" for c in CODES], "first", "second"])
def test_importing_answers_with_a_confidence_succeeds(calibration: Story, step: str) -> None:
    result = calibration.results[step]
    assert result.returncode == 0, result.stderr[-2000:]


def test_each_scored_answer_keeps_the_confidence_it_stated(calibration: Story) -> None:
    assert calibration.rows["first scores"] == pytest.approx(FIRST)


def test_eval_calibration_is_filled_from_the_stated_confidences(calibration: Story) -> None:
    rows = calibration.rows["first calibration"]
    assert rows and {n for n, _ in rows} == {len(CODES)}
    assert all(0 <= brier <= 1 for _, brier in rows)


def test_a_changed_confidence_re_scores_its_cell_and_moves_the_brier_score(calibration: Story) -> None:
    assert calibration.rows["second scores"] == pytest.approx(SECOND)
    (_, before), *_ = calibration.rows["first calibration"]
    (_, after), *_ = calibration.rows["second calibration"]
    assert after > before  # 0.95 stated for a wrong answer is worse calibrated than 0.3


def test_the_report_shows_calibration_with_its_reliability_plot(calibration: Story) -> None:
    report = calibration.rows["report"]
    assert "-reliability'" in report and ">Brier score</th>" in report
    assert "No system stated a confidence" not in report


def test_a_confidence_outside_0_to_1_names_file_line_and_field_and_the_rest_is_imported(
        calibration: Story) -> None:
    result = calibration.results["bad"]
    assert "bad.jsonl:2: confidence: expected a probability from 0 to 1" in result.stderr
    assert "imported 1 answer(s) for sys-a; 1 line(s) rejected" in result.stdout


def test_two_lawyers_reviewing_the_same_elements_are_measured_in_the_report(calibration: Story) -> None:
    decided = {k: r.returncode for k, r in calibration.results.items() if k.startswith(("decide", "after review"))}
    assert len(decided) == 5 and set(decided.values()) == {0}, decided
    lawyers = calibration.rows["reviewed report"].split("id='lawyers-agreement'")[1].split("</section>")[0]
    # two conclusions reviewed by both lawyers, who agree on one
    assert "<td class='text'>conclusion</td><td class='num'>2</td><td class='num'>2</td><td class='num'>50%</td>" \
        in lawyers

"""Commands that could not do everything say so (exit 1, a summary on stderr), and every update says what it
changed for people: signatures revoked, decisions set aside, verdicts changed, cells waiting for answers.

One project, driven as a user drives it: a broken etalon file beside a good one, an answers file with a bad
line, a signature and four decisions, then a rubric edit and a question edit; a binary file and an empty folder
given to `corpus ingest`, a real source added and removed. `status` and `show` are read at the points a person
would run them.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from tests.acceptance.project import AUTHOR, Project, inheritance_etalon

REVIEWER = "Пётр Ильич Рябов"
ANSWER = {"code": "ACC-01", "text": "Вы приняли наследство фактически (ст. 1153 ГК РФ), срок не пропущен "
                                    "(ст. 1154 ГК РФ)."}
LAW_TEXT = """ФЕДЕРАЛЬНЫЙ ЗАКОН
ОБ ИСПОЛНИТЕЛЬНОМ ПРОИЗВОДСТВЕ

Статья 1. Предмет регулирования
1. Настоящий Федеральный закон определяет условия и порядок принудительного исполнения.

Статья 2. Задачи
Задачами исполнительного производства являются правильное и своевременное исполнение.
"""
LAW_ARTICLE = "ст. 2 Закона об исполнительном производстве"   # not in the embedded sample corpus
Run = subprocess.CompletedProcess[str]


@dataclass
class Story:
    project: Project
    runs: dict[str, Run] = field(default_factory=dict)
    law_source: str = ""
    documents: dict[str, int] = field(default_factory=dict)


def _decide_all(project: Project) -> int:
    """Every open item of sys-a on ACC-01 decided with its first option; the number decided."""
    items = [i for i in project.review_items() if i["system"] == "sys-a" and i["code"] == "ACC-01"]
    for item in items:
        project.etalon("review", "decide", item["id"], item["options"][0], "--by", REVIEWER)
    return len(items)


def _law_documents(project: Project, source: str) -> int:
    return int(project.query("SELECT count(*) FROM corpus.documents WHERE source = ?", source)[0][0])


def build_story(make: Callable[..., Project]) -> Story:
    project = make("honest", systems=("sys-a", "sys-b"))
    story = Story(project)
    etalon = inheritance_etalon("ACC-01")
    project.write_etalon(etalon)
    (project.bench / "BAD-01.yaml").write_text("code: BAD-01\ntitle: [unclosed\n", encoding="utf-8")
    answers = project.root / "answers.jsonl"
    answers.write_text(json.dumps(ANSWER, ensure_ascii=False) + "\nnot json at all\n", encoding="utf-8")
    story.runs["import"] = project.etalon("answers", "import", str(answers), "--system", "sys-a")
    story.runs["update with a broken file"] = project.etalon("update")
    story.runs["status"] = project.etalon("status")
    story.runs["sign"] = project.etalon("sign", "ACC-01", "--by", AUTHOR)
    story.documents["decided"] = _decide_all(project)
    story.runs["show"] = project.etalon("show", "ACC-01")
    (project.bench / "BAD-01.yaml").unlink()
    etalon = {**etalon, "reference_answer": etalon["reference_answer"] + "Нотариус выдаст свидетельство.\n"}
    project.write_etalon(etalon)
    story.runs["rubric edited"] = project.etalon("update")
    project.write_etalon({**etalon, "question": etalon["question"].replace("ноябрь", "декабрь")})
    story.runs["question edited"] = project.etalon("update")
    story.runs["show unknown"] = project.etalon("show", "NOPE-99")

    junk = project.root / "scan.pdf"
    junk.write_bytes(bytes(range(256)) * 8)
    (project.root / "empty").mkdir()
    story.runs["ingest junk"] = project.etalon("corpus", "ingest", str(junk), str(project.root / "empty"))
    story.runs["sources after junk"] = project.etalon("corpus", "sources", "list")
    law = project.root / "laws"
    law.mkdir()
    (law / "law.txt").write_text(LAW_TEXT, encoding="utf-8")
    story.runs["ingest law"] = project.etalon("corpus", "ingest", str(law))
    story.runs["sources with law"] = project.etalon("corpus", "sources", "list")
    story.law_source = next((line.split("\t")[0] for line in story.runs["sources with law"].stdout.splitlines()
                             if str(law) in line), "")
    story.documents["law ingested"] = _law_documents(project, story.law_source)
    story.runs["show law"] = project.etalon("corpus", "show", LAW_ARTICLE)
    story.runs["remove inbox"] = project.etalon("corpus", "sources", "remove", "inbox")
    story.runs["remove unknown"] = project.etalon("corpus", "sources", "remove", "no-such-source")
    story.runs["remove law"] = project.etalon("corpus", "sources", "remove", story.law_source)
    story.runs["sources without law"] = project.etalon("corpus", "sources", "list")
    inbox = project.home / "inbox"
    inbox.mkdir(parents=True, exist_ok=True)
    (inbox / "scan.docx").write_bytes(bytes(range(256)) * 8)
    story.runs["update with junk in the inbox"] = project.etalon("update")
    (inbox / "scan.docx").unlink()
    story.runs["update after removal"] = project.etalon("update")
    story.documents["law removed"] = _law_documents(project, story.law_source)
    story.runs["show removed law"] = project.etalon("corpus", "show", LAW_ARTICLE)
    systems = project.root / "systems.yaml"
    systems.write_text(systems.read_text(encoding="utf-8") + "judge:\n  base_url: https://example.org/v1\n"
                       "  api_key_env: JUDGE_KEY\n", encoding="utf-8")   # neither model nor models
    story.runs["update with a judge naming no model"] = project.etalon("update")
    return story


def _run(story: Story, name: str) -> Run:
    assert name in story.runs, f"the story stopped before {name!r}: " + "\n".join(story.project.history[-3:])
    return story.runs[name]


@pytest.mark.parametrize(("name", "status"), [
    ("import", 1), ("update with a broken file", 1), ("status", 0), ("sign", 0), ("show", 0),
    ("rubric edited", 0), ("question edited", 0), ("show unknown", 1), ("ingest junk", 1),
    ("sources after junk", 0), ("ingest law", 0), ("sources with law", 0), ("remove inbox", 1),
    ("remove unknown", 1), ("remove law", 0), ("update after removal", 0), ("show law", 0),
    ("show removed law", 1), ("update with junk in the inbox", 1),
    ("update with a judge naming no model", 1),
])
def test_each_command_exits_one_exactly_when_it_could_not_do_all_it_was_asked(
        story: Story, name: str, status: int) -> None:
    run = _run(story, name)
    assert run.returncode == status, run.stdout[-1500:] + run.stderr[-1500:]


@pytest.mark.parametrize(("name", "named"), [
    ("import", ["answers.jsonl:2", "1 line(s) of", "BAD-01.yaml"]),
    ("update with a broken file", ["BAD-01.yaml", "1 input problem(s)"]),
    ("ingest junk", ["scan.pdf", "unknown extension .pdf", "empty folder"]),
    ("update with junk in the inbox", ["1 corpus file(s) not ingested", "scan.docx", "malformed_docx"]),
    ("update with a judge naming no model", ["1 input problem(s)", "systems.yaml", "judge.model"]),
])
def test_a_partial_failure_ends_with_a_summary_on_stderr_naming_what_failed(
        story: Story, name: str, named: list[str]) -> None:
    stderr = _run(story, name).stderr
    summary = stderr[stderr.rindex("done, but not all of it"):]
    assert [n for n in named if n not in summary] == []


def test_the_import_still_scores_the_good_line(story: Story) -> None:
    _run(story, "import")
    rows = story.project.query("SELECT system, code FROM eval.answers")
    assert ("sys-a", "ACC-01") in rows


def test_status_names_the_broken_file_and_the_cells_waiting_for_answers(story: Story) -> None:
    out = _run(story, "status").stdout
    assert "1 input problem(s)" in out and "BAD-01.yaml" in out
    assert "waiting for answers: 1 cell(s)" in out and "sys-b on ACC-01" in out


def test_show_gives_the_signature_the_sources_and_a_score_per_system(story: Story) -> None:
    out = _run(story, "show").stdout
    assert f"signature: {AUTHOR}" in out and "in force" in out
    assert "п. 2 ст. 1153 ГК РФ [mandatory]: found" in out
    assert "sys-a attempt 1:" in out and "sys-b: no answer" in out


@pytest.mark.parametrize(("step", "said"), [
    ("rubric edited", "signatures revoked: 1"),
    ("rubric edited", f"ACC-01: signed by {AUTHOR}"),
    ("rubric edited", "its rubric changed"),
    ("rubric edited", f"by {REVIEWER} on sys-a's answer to ACC-01"),
    ("rubric edited", "verdicts changed: 1"),
    ("question edited", "scores dropped from the leaderboard: 1"),
    ("question edited", "sys-a on ACC-01: its answer belongs to an older question"),
    ("question edited", "cells waiting for answers: 2"),
])
def test_an_update_says_what_the_edit_changed_for_people(story: Story, step: str, said: str) -> None:
    assert said in _run(story, step).stdout


def test_the_decisions_set_aside_are_counted(story: Story) -> None:
    out = _run(story, "rubric edited").stdout
    assert story.documents["decided"] >= 1
    assert f"decisions set aside: {story.documents['decided']}" in out


def test_an_update_with_nothing_new_for_people_says_so(story: Story) -> None:
    assert "nothing changed for people" in _run(story, "update after removal").stdout


@pytest.mark.parametrize("name", ["import", "update with a broken file", "rubric edited", "ingest law"])
def test_no_progress_bar_reaches_captured_output(story: Story, name: str) -> None:
    run = _run(story, name)
    assert not [s for s in (run.stdout, run.stderr) if "\x1b[" in s or "━" in s]


def test_a_source_that_yielded_nothing_is_not_registered(story: Story) -> None:
    listed = _run(story, "sources after junk").stdout
    assert "scan.pdf" not in listed and "empty" not in listed
    assert "not registered" in _run(story, "ingest junk").stderr


def test_a_registered_source_is_listed_with_its_documents(story: Story) -> None:
    _run(story, "sources with law")
    assert story.law_source and story.documents["law ingested"] == 1


def test_a_removed_source_is_no_longer_listed(story: Story) -> None:
    assert story.law_source not in _run(story, "sources without law").stdout


def test_a_removed_source_leaves_the_corpus_at_the_next_update(story: Story) -> None:
    _run(story, "update after removal")
    assert story.documents["law removed"] == 0


def test_an_article_of_a_removed_source_no_longer_resolves(story: Story) -> None:
    assert "Задачами исполнительного производства" in _run(story, "show law").stdout
    assert "Задачами" not in _run(story, "show removed law").stdout


@pytest.mark.parametrize(("name", "named"), [("remove inbox", "inbox"), ("remove unknown", "no-such-source"),
                                             ("show unknown", "NOPE-99")])
def test_a_refused_command_names_what_it_refused(story: Story, name: str, named: str) -> None:
    assert named in _run(story, name).stderr

"""CONTRACT sections 1 and 2 as a user meets them: `etalon cite`, `etalon corpus show`, usage errors, --home."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from typing import Any

import pytest

from tests.acceptance.project import Project, inheritance_etalon

RECORD_KEYS = ["start", "end", "text", "kind", "jurisdiction", "act", "act_text", "article", "article_to", "part",
               "court", "number", "date", "year", "point"]
TEXT = "Наследник принимает наследство по ст. 1152 ГК РФ; ст. 1199 ГК РФ в кодексе нет.\n"


def _records(result: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    assert result.returncode == 0, result.stderr[-800:]
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def build_story(make: Callable[..., Project]) -> Project:
    """A warehouse on the embedded sample corpus (no sources.yaml) with one etalon and one import system."""
    project = make("commands")
    project.write_etalon(inheritance_etalon("ACC-01"))
    project.etalon("update")
    return project


@pytest.fixture(scope="module")
def project(story: Project) -> Project:
    return story


def test_cite_prints_one_record_per_article_with_the_contract_keys_in_order(project: Project) -> None:
    records = _records(project.etalon("cite", stdin=TEXT))
    assert [list(r) for r in records] == [RECORD_KEYS, RECORD_KEYS]


def test_cite_records_point_back_into_the_input_in_order(project: Project) -> None:
    records = _records(project.etalon("cite", stdin=TEXT))
    assert [(r["text"], r["act"], r["article"]) for r in records] == \
        [(TEXT[r["start"]:r["end"]], "ru/gk", a) for r, a in zip(records, ["1152", "1199"], strict=True)]


def test_cite_reads_a_file_as_it_reads_stdin(project: Project, tmp_path: Any) -> None:
    path = tmp_path / "answer.txt"
    path.write_text(TEXT, encoding="utf-8")
    assert project.etalon("cite", str(path)).stdout == project.etalon("cite", stdin=TEXT).stdout


@pytest.mark.parametrize("via", ["file", "stdin"])
def test_cite_offsets_index_crlf_text_as_written(project: Project, tmp_path: Any, via: str) -> None:
    text = "Ответ.\r\nНаследство принимают по ст. 1152 ГК РФ.\r\n\r\nСрок — ст. 1154 ГК РФ.\r\n"
    path = tmp_path / "crlf.txt"
    path.write_bytes(text.encode("utf-8"))
    result = project.etalon("cite", str(path)) if via == "file" else project.etalon("cite", stdin=text)
    assert [text[r["start"] : r["end"]] for r in _records(result)] == ["ст. 1152 ГК РФ", "ст. 1154 ГК РФ"]


def test_resolve_appends_the_status_key_last(project: Project) -> None:
    records = _records(project.etalon("cite", "--resolve", stdin=TEXT))
    assert [list(r) for r in records] == [[*RECORD_KEYS, "status"]] * 2


@pytest.mark.parametrize(("citation", "status"), [("ст. 1152 ГК РФ", "found"), ("ст. 1199 ГК РФ", "not_found")])
def test_resolve_looks_each_citation_up_in_the_warehouse(project: Project, citation: str, status: str) -> None:
    records = _records(project.etalon("cite", "--resolve", stdin=citation))
    assert [r["status"] for r in records] == [status]


def test_corpus_show_prints_the_article_text(project: Project) -> None:
    shown = project.etalon("corpus", "show", "ст. 1152 ГК РФ")
    assert shown.returncode == 0, shown.stderr
    assert "Для приобретения наследства наследник должен его принять" in shown.stdout


@pytest.mark.parametrize(("citation", "shown"), [
    ("постановление Пленума ВС РФ от 17.03.2004 № 2", "[ru/vs-plenum/2004-03-17/2]"),
    ("Закон о защите прав потребителей", "[ru/zpp"),
])
def test_corpus_show_of_a_whole_decision_or_act_prints_its_title_and_text(
    project: Project, citation: str, shown: str
) -> None:
    result = project.etalon("corpus", "show", citation)
    assert result.returncode == 0, result.stderr
    head, *text = result.stdout.splitlines()
    assert shown in head and text


def test_corpus_show_of_a_missing_article_exits_one_and_says_why(project: Project) -> None:
    shown = project.etalon("corpus", "show", "ст. 1199 ГК РФ")
    assert shown.returncode == 1 and "1199" in shown.stderr


@pytest.mark.parametrize("argv", [
    [],
    ["no-such-command"],
    ["sign", "ACC-01"],
    ["review", "decide", "only-an-id"],
    ["review", "approve", "sys-a"],
    ["answers", "import", "answers.jsonl"],
    ["cite", "--jurisdiction", "fr"],
    ["corpus"],
])
def test_bad_usage_exits_with_status_two(project: Project, argv: list[str]) -> None:
    result = project.etalon(*argv)
    assert result.returncode == 2 and result.stderr.strip()


@pytest.mark.parametrize(("argv", "stdin", "expect"), [
    (["update"], None, ""),
    (["corpus", "show", "ст. 1152 ГК РФ"], None, "Для приобретения наследства"),
    (["cite", "--resolve"], "ст. 1152 ГК РФ", '"status": "found"'),
    (["review", "list", "--json"], None, ""),
    (["sign", "ACC-01", "--by", "Пётр Ильич Рябов"], None, "ACC-01"),
])
def test_home_flag_reaches_the_warehouse_without_the_environment(
        project: Project, argv: list[str], stdin: str | None, expect: str) -> None:
    result = project.etalon(*argv, stdin=stdin, home_flag="after")
    assert result.returncode == 0, result.stderr[-800:]
    assert expect in result.stdout


def test_home_flag_may_come_before_the_command(project: Project) -> None:
    result = project.etalon("corpus", "show", "ст. 1152 ГК РФ", home_flag="before")
    assert result.returncode == 0 and "Для приобретения наследства" in result.stdout


def test_answers_import_takes_the_home_flag(project: Project) -> None:
    path = project.root / "one.jsonl"
    path.write_text(json.dumps({"code": "ACC-01", "text": "Наследство принято (ст. 1153 ГК РФ)."},
                               ensure_ascii=False) + "\n", encoding="utf-8")
    result = project.etalon("answers", "import", str(path), "--system", "sys-a", "--no-update", home_flag="after")
    assert result.returncode == 0, result.stderr[-800:]


@pytest.mark.parametrize(("argv", "named"), [
    (["sign", "NOPE-99", "--by", "Пётр Ильич Рябов"], "NOPE-99"),
    (["review", "decide", "no-such-item", "yes", "--by", "Пётр Ильич Рябов"], "no-such-item"),
    (["review", "undo", "no-such-decision", "--by", "Пётр Ильич Рябов"], "no-such-decision"),
    (["review", "approve", "sys-a", "NOPE-99", "--by", "Пётр Ильич Рябов"], "NOPE-99"),
    (["answers", "import", "missing.jsonl", "--system", "sys-a"], "missing.jsonl"),
    (["answers", "import", "missing.jsonl", "--system", "no-such-system"], "no-such-system"),
    (["cite", "no-such-answer.txt"], "no-such-answer.txt"),
])
def test_a_refused_operation_exits_one_naming_what_was_wrong(project: Project, argv: list[str], named: str) -> None:
    result = project.etalon(*argv)
    assert result.returncode == 1 and named in result.stderr


def test_cite_refuses_an_answer_that_is_not_utf8_naming_the_file_and_the_byte(project: Project) -> None:
    path = project.root / "answer-cp1251.txt"
    path.write_bytes("Согласно ст. 1152 ГК РФ".encode("cp1251"))
    result = project.etalon("cite", str(path))
    assert result.returncode == 1
    assert "answer-cp1251.txt" in result.stderr and "byte 0" in result.stderr


CATALOG = {
    "corpus.documents": "doc_id, jurisdiction, act, kind, title, number, date, version, content_hash, source",
    "corpus.units": "doc_id, act, article, path, text, ord",
    "corpus.ingest_errors": "source, file, reason, detail, at",
    "bench.etalons": "benchmark, code, version, title, jurisdiction, branch, difficulty, type, methodology, status, "
                     "signed_by, signed_at",
    "bench.sources": "benchmark, code, version, citation, priority, act, article, status",
    "eval.answers": "system, benchmark, code, version, attempt, text, status, error, tokens_in, tokens_out, "
                    "latency_ms, cost, created_at",
    "eval.citations": "system, code, version, attempt, start, end, text, kind, act, article, status, in_text",
    "eval.judgments": "system, code, version, attempt, element, run, verdict, quote, quote_found, judge_model",
    "eval.decisions": "system, code, version, attempt, target, decision, decided_by, decided_at, revoked_at",
    "eval.scores": "system, benchmark, code, version, attempt, methodology, score, verdict, status, indicative",
    "eval.leaderboard": "benchmark, system, n, mean_score, ci_low, ci_high, positive, partial, negative, needs_input",
    "eval.paired": "benchmark, system_a, system_b, n, both, only_a, only_b, neither, mcnemar_p, diff, diff_low, "
                   "diff_high",
}


@pytest.mark.parametrize(("view", "columns"), sorted(CATALOG.items()))
def test_the_catalog_exposes_every_contract_view_with_its_columns(project: Project, view: str, columns: str) -> None:
    described = {row[0] for row in project.query(f"DESCRIBE SELECT * FROM {view}")}
    assert set(columns.split(", ")) - described == set()


def test_the_sample_corpus_listed_in_the_sources_file_is_in_the_catalog(project: Project) -> None:
    rows = project.query("SELECT count(*) FROM corpus.units WHERE act = 'ru/gk' AND article = '1152'")
    assert rows[0][0] >= 1

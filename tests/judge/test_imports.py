"""Answers produced elsewhere: JSON Lines, Inspect AI logs (.json and .eval), promptfoo output."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from etalons.model import Etalon
from evaluation.imports import import_answers, import_jsonl
from tests.judge.conftest import ETALON_DATA

ETALONS = {"NAS-T1": Etalon.model_validate(ETALON_DATA),
           "NAS-T2": Etalon.model_validate({**ETALON_DATA, "code": "NAS-T2", "question": "Другой вопрос?"})}


def jsonl(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_json_lines_give_one_answer_per_line_matched_to_the_current_question(tmp_path: Path) -> None:
    path = jsonl(tmp_path, '{"code": "NAS-T1", "text": "Ответ", "sources": ["ст. 1154 ГК РФ"], "attempt": 2}',
                 '{"code": "NAS-T2", "text": "Ещё"}')
    result = import_jsonl(path, "vendor", ETALONS, "t")
    first = result.answers[0]
    assert result.errors == [] and [(a.code, a.attempt) for a in result.answers] == [("NAS-T1", 2), ("NAS-T2", 1)]
    assert (first.sources, first.question_version, first.system) == (
        ("ст. 1154 ГК РФ",), ETALONS["NAS-T1"].question_version, "vendor")


@pytest.mark.parametrize(("line", "field", "expected"), [
    ("{not json", None, "one JSON object per line"),
    ("[1, 2]", None, "a JSON object"),
    ('{"text": "x"}', "code", "the code of an etalon"),
    ('{"code": "NOPE", "text": "x"}', "code", "'NOPE' is unknown"),
    ('{"code": "NAS-T1", "text": ""}', "text", "the answer's text"),
    ('{"code": "NAS-T1", "text": "x", "attempt": 0}', "attempt", "a whole number from 1"),
    ('{"code": "NAS-T1", "text": "x", "attempt": "2"}', "attempt", "a whole number from 1"),
    ('{"code": "NAS-T1", "text": "x", "sources": "ст. 1"}', "sources", "a list of citation strings"),
])
def test_a_bad_line_is_reported_with_file_line_and_field_and_the_rest_goes_on(
        tmp_path: Path, line: str, field: str | None, expected: str) -> None:
    path = jsonl(tmp_path, '{"code": "NAS-T2", "text": "good"}', line, '{"code": "NAS-T1", "text": "also good"}')
    result = import_jsonl(path, "vendor", ETALONS, "t")
    (error,) = result.errors
    assert (error.file, error.line, error.field, expected in error.expected, len(result.answers)) == (
        str(path), "2", field, True, 2)


def test_a_second_answer_for_the_same_code_and_attempt_is_an_error(tmp_path: Path) -> None:
    path = jsonl(tmp_path, '{"code": "NAS-T1", "text": "a"}', '{"code": "NAS-T1", "text": "b", "attempt": 1}')
    result = import_jsonl(path, "vendor", ETALONS, "t")
    assert (len(result.answers), str(result.errors[0])) == (
        1, f"{path}:2: attempt: expected one answer per code and attempt; NAS-T1 attempt 1 already given at 1")


def inspect_log() -> dict[str, Any]:
    return {"eval": {"model": "openai/gpt-x", "task": "legal"}, "samples": [
        {"id": "NAS-T1", "epoch": 1, "input": "q", "output": {"completion": "Ответ один"}},
        {"id": "whatever-7", "epoch": 2, "metadata": {"etalon_code": "NAS-T2"},
         "output": {"choices": [{"message": {"content": [{"type": "text", "text": "Ответ два"}]}}]}},
        {"id": "NAS-T2#3", "epoch": 1, "output": {"completion": "Ответ три"}},
        {"id": "unmapped", "epoch": 1, "output": {"completion": "?"}},
    ]}


EXPECTED_INSPECT = [("NAS-T1", 1, "Ответ один"), ("NAS-T2", 2, "Ответ два"), ("NAS-T2", 1, "Ответ три")]


def test_an_inspect_json_log_maps_samples_by_metadata_or_id(tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(inspect_log(), ensure_ascii=False), encoding="utf-8")
    result = import_answers(path, "vendor", ETALONS, "t")
    assert [(a.code, a.attempt, a.text) for a in result.answers] == EXPECTED_INSPECT
    assert [(e.line, e.field) for e in result.errors] == [("sample unmapped#1", "code")]
    assert json.loads(result.answers[0].passport or "{}")["model"] == "openai/gpt-x"


def test_an_inspect_eval_archive_is_read_like_its_json_log(tmp_path: Path) -> None:
    log = inspect_log()
    path = tmp_path / "log.eval"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("header.json", json.dumps({"eval": log["eval"]}))
        for i, sample in enumerate(log["samples"]):
            archive.writestr(f"samples/{i}_epoch_{sample['epoch']}.json", json.dumps(sample, ensure_ascii=False))
    result = import_answers(path, "vendor", ETALONS, "t")
    assert [(a.code, a.attempt, a.text) for a in result.answers] == EXPECTED_INSPECT


def test_promptfoo_output_maps_rows_by_metadata_or_vars_and_keeps_errors(tmp_path: Path) -> None:
    data = {"evalId": "e", "results": {"version": 3, "results": [
        {"vars": {"code": "NAS-T1"}, "response": {"output": "Ответ"}, "provider": {"id": "openai:gpt-x"}},
        {"testCase": {"metadata": {"etalon_code": "NAS-T2", "attempt": 2}}, "response": {"output": "Два"}},
        {"vars": {"code": "NAS-T2"}, "error": "timeout", "response": None},
    ]}}
    path = tmp_path / "promptfoo.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    result = import_answers(path, "vendor", ETALONS, "t")
    assert [(a.code, a.attempt, a.status) for a in result.answers] == [
        ("NAS-T1", 1, "ok"), ("NAS-T2", 2, "ok"), ("NAS-T2", 1, "error")]


def test_an_unreadable_log_is_one_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.eval"
    path.write_bytes(b"not a zip")
    result = import_answers(path, "vendor", ETALONS, "t")
    assert (result.answers, result.errors[0].file) == ([], str(path))

"""Hostile model endpoints (issue 17), at the level of ask / judge / score_answer that any engine calls.

A reply of the wrong shape, a trickle, a huge reply, a key echoed in an error, and two processes asking the
same questions at once: each costs its own cell at most, is never stored as a success, never leaks the key,
and is never paid for twice. The engine that drives these functions is not involved, so these hold for it
whatever it becomes.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pytest

from etalons.model import Etalon
from evaluation.answering import ask, ask_all
from evaluation.client import ModelClient
from evaluation.elements import elements_for
from evaluation.judge import judge
from evaluation.records import Answer
from evaluation.scoring import config_for, score_answer
from evaluation.systems import JudgeConfig, SystemConfig
from evaluation.testserver import Rule, TestServer
from tests.judge.conftest import ETALON_DATA, GOOD_ANSWER, SECRET, make_answer

REPO = Path(__file__).resolve().parents[2]
SHAPES: list[tuple[str, Any]] = [
    ("choice is a string", {"choices": ["str"]}),
    ("content is a number", {"choices": [{"message": {"content": 12345}}]}),
    ("content is a list", {"choices": [{"message": {"content": [{"type": "text", "text": "x"}]}}]}),
    ("usage is words", {"choices": [{"message": {"content": "x"}}], "usage": {"prompt_tokens": "many"}}),
    ("judge-style message", {"message": "yes"}),
    ("missing fields", {"id": "x"}),
    ("null choices", {"choices": None}),
    ("not JSON", "<html><body>502 Bad Gateway</body></html>"),
]


@pytest.fixture
def server() -> Iterator[TestServer]:
    with TestServer() as running:
        yield running


@pytest.fixture
def client(tmp_path: Path) -> ModelClient:
    return ModelClient(tmp_path / "calls", environ={"TEST_KEY": SECRET}, backoff_base_s=0.01)


def etalon(i: int = 0) -> Etalon:
    return Etalon.model_validate({**ETALON_DATA, "code": f"END-{i}", "question": f"Вопрос {i}: можно ли "
                                  "восстановить срок принятия наследства?"})


def system(server: TestServer, **kw: Any) -> SystemConfig:
    data: dict[str, Any] = {"id": "sut", "base_url": server.base_url, "model": "sut-model",
                            "api_key_env": "TEST_KEY", "timeout_s": 3.0, "retries": 1, "concurrency": 1}
    data.update(kw)
    return SystemConfig.model_validate(data)


def judge_config(server: TestServer, **kw: Any) -> JudgeConfig:
    data: dict[str, Any] = {"base_url": server.base_url, "model": "judge-model", "api_key_env": "TEST_KEY",
                            "timeout_s": 3.0, "retries": 1}
    data.update(kw)
    return JudgeConfig.model_validate(data)


def scored(e: Etalon, answer: Answer, judgments: list[Any]) -> Any:
    return score_answer(etalon=e, benchmark="t", answer=answer, expected=[], cited=[], judgments=judgments,
                        decisions=[], config=config_for("stielegi"), judge_configured=True, signed=True)


# -- a 200 reply of the wrong shape --------------------------------------------------------------------

@pytest.mark.parametrize(("name", "body"), SHAPES, ids=[n for n, _ in SHAPES])
def test_a_malformed_answer_reply_costs_its_own_cell_and_the_others_go_on(
        server: TestServer, client: ModelClient, name: str, body: Any) -> None:
    server.rules = [Rule(contains="Вопрос 1:", body=body)]
    server.default_reply = "Срок можно восстановить в суде."
    answers = ask_all(system(server), [etalon(0), etalon(1), etalon(2)], client, "t")  # concurrency 1
    assert [a.status for a in answers] == ["ok", "error", "ok"]
    assert answers[1].error and ("shape" in answers[1].error or "JSON" in answers[1].error)
    result = scored(etalon(1), answers[1], [])
    assert (result.status, result.score.score) == ("error", None)   # an error, never a low score


@pytest.mark.parametrize(("name", "body"), SHAPES, ids=[n for n, _ in SHAPES])
def test_a_malformed_reply_is_not_stored_so_the_next_run_asks_that_cell_again(
        server: TestServer, client: ModelClient, name: str, body: Any) -> None:
    server.rules = [Rule(body=body)]
    first = ask(system(server), etalon(), 1, client, "t")
    server.rules, _ = [], server.clear()   # the endpoint is mended
    second = ask(system(server), etalon(), 1, client, "t")
    third = ask(system(server), etalon(), 1, client, "t")
    assert (first.status, second.status, second.text, third.text) == ("error", "ok", "OK", "OK")
    assert len(server.chat_requests()) == 1   # the rerun paid once; the run after it paid nothing


@pytest.mark.parametrize(("name", "body"), SHAPES, ids=[n for n, _ in SHAPES])
def test_a_malformed_judge_reply_is_an_error_judgment_and_the_cell_waits_for_a_human(
        server: TestServer, client: ModelClient, name: str, body: Any) -> None:
    server.rules = [Rule(body=body)]
    e = etalon()
    answer = make_answer(e, GOOD_ANSWER)
    judgments = judge(e, answer, elements_for(e, "stielegi"), {}, judge_config(server), client)
    assert {j.verdict for j in judgments} == {None} and all(j.error for j in judgments)
    result = scored(e, answer, judgments)
    assert (result.status, result.score.components["text"]) == ("needs_input", 0.0)
    assert client.cache is not None and len(client.cache) == 0


def test_a_judge_reply_that_is_not_a_verdict_is_repaired_once_and_never_stored_as_one(
        server: TestServer, client: ModelClient) -> None:
    server.rules = [Rule(reply='{"message": "yes"}')]
    e = etalon()
    judgments = judge(e, make_answer(e, GOOD_ANSWER), [elements_for(e, "stielegi")[0]], {}, judge_config(server),
                      client)
    assert [(j.verdict, (j.error or "").split(":")[0]) for j in judgments] == [(None, "parse error")] * 2


# -- a trickle and a huge reply ------------------------------------------------------------------------

def test_a_trickling_endpoint_gives_an_error_answer_within_the_timeout(
        server: TestServer, client: ModelClient) -> None:
    server.rules = [Rule(fault="trickle", delay_s=1.0)]
    started = time.monotonic()
    answer = ask(system(server, timeout_s=2.0, retries=0), etalon(), 1, client, "t")
    took = time.monotonic() - started
    assert (answer.status, "timed out" in (answer.error or "")) == ("error", True)
    assert took < 4.0, f"a trickle kept the call alive for {took:.1f} s with timeout_s = 2"


def test_a_huge_answer_is_an_error_naming_its_size_and_the_limit(server: TestServer, client: ModelClient) -> None:
    server.rules = [Rule(fault="huge", size=50 * 1024 * 1024)]
    answer = ask(system(server, timeout_s=30.0), etalon(), 1, client, "t")
    assert (answer.status, answer.text) == ("error", "")
    assert "52429" in (answer.error or "") and "max_reply_bytes (1048576 bytes)" in (answer.error or "")


def test_an_oversized_answer_is_never_sent_to_the_judge(server: TestServer, client: ModelClient) -> None:
    e = etalon()
    imported = make_answer(e, "Срок можно восстановить. " * 60_000)   # ~2.8 MB, as an import could bring
    judgments = judge(e, imported, elements_for(e, "stielegi"), {}, judge_config(server), client)
    assert (len(server.chat_requests()), {j.verdict for j in judgments}) == (0, {None})
    assert all("max_answer_bytes (1048576)" in (j.error or "") for j in judgments)


# -- a key echoed in an error --------------------------------------------------------------------------

@pytest.mark.parametrize("shift", range(0, 26, 5))
def test_a_key_echoed_across_the_cut_of_an_error_is_stored_and_shown_nowhere(
        server: TestServer, client: ModelClient, tmp_path: Path, shift: int) -> None:
    # The key repeated every 26 characters: whatever the prefix before it, one copy straddles any cut.
    echo = {"error": {"message": "Other: Bearer sk-other-0123456789abcdef " + "x" * shift + f"{SECRET} " * 40}}
    server.rules = [Rule(model="sut-model", status=401, body=echo),
                    Rule(model="judge-model", status=500, body=echo)]
    e = etalon()
    failed = ask(system(server), e, 1, client, "t")
    judgments = judge(e, make_answer(e, GOOD_ANSWER), elements_for(e, "stielegi"), {}, judge_config(server),
                      client)
    results = [scored(e, failed, []), scored(e, make_answer(e, GOOD_ANSWER), judgments)]
    stored = json.dumps([asdict(failed), *map(asdict, judgments), *(asdict(r.score) for r in results),
                         *(r.explanation for r in results)], ensure_ascii=False, default=str)
    on_disk = "".join(p.read_text(errors="replace") for p in tmp_path.rglob("*") if p.is_file())
    assert "***" in (failed.error or "") and "***" in (judgments[0].error or "")   # the key was there
    for leak in (SECRET[:8], "sk-other-0123"):
        assert leak not in stored and leak not in on_disk


# -- two processes at once -----------------------------------------------------------------------------

def _worker(url: str, cache: Path, n: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "tests.faults.inflight_worker", url, str(cache), str(n)],
                            cwd=REPO, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _ready(process: subprocess.Popen[str]) -> None:
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.strip() == "ready", (line, process.stderr.read() if process.stderr else "")


def _report(process: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err[-2000:]
    report: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return report


def test_two_processes_asking_the_same_questions_pay_for_each_once(tmp_path: Path) -> None:
    n = 8
    with TestServer(latency_s=0.5, default_reply="Срок можно восстановить.") as srv:
        runs = [_worker(srv.base_url, tmp_path / "calls", n) for _ in range(2)]
        for run in runs:
            _ready(run)
        reports = [_report(run) for run in runs]
        paid = len(srv.chat_requests())
    overlap = max(r["started"] for r in reports) < min(r["finished"] for r in reports)
    assert overlap, "the two processes did not run at the same time: the test proves nothing"
    assert [[a[1] for a in r["answers"]] for r in reports] == [["ok"] * n] * 2
    assert paid == n, f"{paid} requests for {n} distinct calls"


def test_a_process_killed_mid_call_leaves_the_call_to_the_survivor_who_makes_it_once(tmp_path: Path) -> None:
    rules = [Rule(contains="Вопрос номер 0", fault="hang", times=1)]
    with TestServer(rules, default_reply="Срок можно восстановить.", hang_s=60) as srv:
        victim = _worker(srv.base_url, tmp_path / "calls", 1)
        _ready(victim)
        deadline = time.monotonic() + 30
        while not srv.chat_requests() and time.monotonic() < deadline:
            time.sleep(0.05)
        survivor = _worker(srv.base_url, tmp_path / "calls", 1)
        _ready(survivor)
        time.sleep(1.0)
        waited = len(srv.chat_requests())  # the survivor waits on the victim's marker, paying nothing
        os.kill(victim.pid, signal.SIGKILL)
        killed_at = time.time()
        victim.wait(timeout=10)
        report = _report(survivor)
        requests = srv.chat_requests()
    assert (waited, len(requests), report["answers"][0][1]) == (1, 2, "ok")
    assert requests[1].received_at >= killed_at   # asked again only once its holder was dead
    assert not list((tmp_path / "calls").rglob("*.inflight"))


def test_an_answer_with_status_error_is_not_judged_but_scored_as_an_error(client: ModelClient) -> None:
    e = etalon()
    failed = replace(make_answer(e, ""), status="error", error="HTTP 500: boom")
    assert scored(e, failed, []).status == "error"

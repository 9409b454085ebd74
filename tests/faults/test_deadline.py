"""One deadline per model call, retries and pauses included (issue 22): timeout_s x (retries + 1).

Endpoints that are alive but never done (a body or headers trickled a byte at a time, a body that stops
halfway, a server that reads the request and never answers, one that never reads it) and endpoints that ask
for a wait longer than the call has left (429 / 503 with Retry-After). Each ends its call with a deadline
error, not a reply: an `error` answer or error judgments, never a low score, never stored, asked again by
the next run, and the other cells go on. Elapsed times are checked only against the documented bound with
a wide margin (a loaded machine is slow, never early); what is asserted is which error and how many tries.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
import yaml

from etalons.model import Etalon
from evaluation.answering import ask, ask_all
from evaluation.client import ModelClient
from evaluation.elements import elements_for
from evaluation.judge import judge
from evaluation.scoring import config_for, score_answer
from evaluation.systems import JudgeConfig, SystemConfig
from evaluation.testserver import MuteServer, Rule, TestServer
from tests.judge.conftest import ETALON_DATA, GOOD_ANSWER, SECRET, make_answer

from .conftest import CODES, KEY_ENV, Project

TIMEOUT_S = 1.0
RETRIES = 2
BOUND_S = TIMEOUT_S * (RETRIES + 1)   # the documented worst case of one call (docs/formats.md, systems.yaml)
MARGIN_S = 2.0                        # a loaded machine is late; never asserting speed, only the bound

Endpoint = Callable[[], AbstractContextManager[Any]]

# name, endpoint, the error's telling words, the tries made (with the test client's 10 ms backoff)
TIMEOUTS: list[tuple[str, Endpoint, str, int]] = [
    ("body a byte at a time", lambda: TestServer([Rule(fault="trickle", delay_s=0.5)]), "timed out", 3),
    ("headers a byte at a time", lambda: TestServer([Rule(fault="trickle_head", delay_s=0.5)]), "timed out", 3),
    ("body stalled halfway", lambda: TestServer([Rule(fault="stall")], hang_s=30), "timed out", 3),
    ("request read, never answered", lambda: TestServer([Rule(fault="hang")], hang_s=30), "timed out", 3),
    ("request never read", MuteServer, "timed out", 3),
    ("429 asking for a minute", lambda: TestServer([Rule(fault="429", retry_after=60)]), "Retry-After", 1),
    ("503 asking for a minute", lambda: TestServer([Rule(fault="503", retry_after=60)]), "Retry-After", 1),
]


@pytest.fixture
def client(tmp_path: Path) -> ModelClient:
    return ModelClient(tmp_path / "calls", environ={"TEST_KEY": SECRET}, backoff_base_s=0.01)


def etalon(i: int = 0) -> Etalon:
    return Etalon.model_validate({**ETALON_DATA, "code": f"DL-{i}", "question": f"Вопрос {i}: можно ли "
                                  "восстановить срок принятия наследства?"})


def system(url: str, **kw: Any) -> SystemConfig:
    data: dict[str, Any] = {"id": "sut", "base_url": url, "model": "sut-model", "api_key_env": "TEST_KEY",
                            "timeout_s": TIMEOUT_S, "retries": RETRIES, "concurrency": 1}
    return SystemConfig.model_validate({**data, **kw})


def scored(e: Etalon, answer: Any, judgments: list[Any]) -> Any:
    return score_answer(etalon=e, benchmark="t", answer=answer, expected=[], cited=[], judgments=judgments,
                        decisions=[], config=config_for("lesto"), judge_configured=True, signed=True)


@pytest.mark.parametrize(("name", "endpoint", "words", "tries"), TIMEOUTS, ids=[t[0] for t in TIMEOUTS])
def test_an_endpoint_that_never_finishes_ends_the_call_with_a_deadline_error_within_timeout_x_tries(
        client: ModelClient, name: str, endpoint: Endpoint, words: str, tries: int) -> None:
    with endpoint() as server:
        started = time.monotonic()
        answer = ask(system(server.base_url), etalon(), 1, client, "t")
        took = time.monotonic() - started
    assert (answer.status, answer.text) == ("error", "")
    assert words in (answer.error or "") and f"(after {tries} tr" in (answer.error or ""), answer.error
    assert took <= BOUND_S + MARGIN_S, f"{name}: {took:.1f} s against timeout_s x tries = {BOUND_S:g} s"


@pytest.mark.parametrize("fault", ["429", "503"])
def test_a_retry_after_beyond_the_budget_is_not_slept_and_the_error_says_why(
        client: ModelClient, fault: str) -> None:
    with TestServer([Rule(fault=fault, retry_after=60)]) as server:  # type: ignore[arg-type]
        result = client.call(system(server.base_url), [{"role": "user", "content": "q"}])
        asked = len(server.chat_requests())
    assert (result.ok, result.tries, asked) == (False, 1, 1)
    assert f"HTTP {fault}" in (result.error or "")
    assert "asks to wait 60 s (Retry-After)" in (result.error or "")
    assert f"the call's {BOUND_S:g} s (timeout_s = {TIMEOUT_S:g} s x {RETRIES + 1} tries)" in (result.error or "")


def test_a_retry_after_within_the_budget_is_waited_for_and_the_call_succeeds(client: ModelClient) -> None:
    with TestServer([Rule(fault="503", retry_after=0.5, times=1), Rule(reply="fine")]) as server:
        started = time.monotonic()
        result = client.call(system(server.base_url), [{"role": "user", "content": "q"}])
        took = time.monotonic() - started
    assert (result.ok, result.content, result.tries) == (True, "fine", 2)
    assert took >= 0.5


def test_a_retry_the_rpm_limit_cannot_fit_in_the_budget_is_not_waited_for(client: ModelClient) -> None:
    with TestServer([Rule(fault="500", retry_after=None)]) as server:
        result = client.call(system(server.base_url, rpm=1), [{"role": "user", "content": "q"}])
        asked = len(server.chat_requests())
    assert (result.ok, result.tries, asked) == (False, 1, 1)
    assert "the rpm limit leaves no turn for another try" in (result.error or "")


def test_every_try_of_a_trickled_call_is_made_until_the_budget_is_spent(client: ModelClient) -> None:
    with TestServer([Rule(fault="trickle", delay_s=0.5)]) as server:
        result = client.call(system(server.base_url), [{"role": "user", "content": "q"}])
        arrived = [r.received_at for r in server.chat_requests()]
    assert (result.ok, result.tries, len(arrived)) == (False, RETRIES + 1, RETRIES + 1)
    assert "left of the call's" in (result.error or "")   # the last try had only what remained
    assert arrived[-1] - arrived[0] <= BOUND_S + MARGIN_S


HUNG = [(name, endpoint) for name, endpoint, words, _ in TIMEOUTS[:4]]   # the TestServer ones, which log hang-ups


@pytest.mark.parametrize(("name", "endpoint"), HUNG, ids=[name for name, _ in HUNG])
def test_the_client_hangs_up_at_each_deadline_instead_of_leaving_the_endpoint_sending(
        client: ModelClient, name: str, endpoint: Endpoint) -> None:
    with endpoint() as server:
        started = time.time()
        result = client.call(system(server.base_url), [{"role": "user", "content": "q"}])
        waited = time.monotonic()
        while len(server.hangups) < result.tries and time.monotonic() - waited < MARGIN_S:
            time.sleep(0.05)
        hangups = list(server.hangups)
    assert (result.ok, result.tries, len(hangups)) == (False, RETRIES + 1, RETRIES + 1), result.error
    assert hangups[-1] - started <= BOUND_S + MARGIN_S


def test_the_pauses_between_tries_come_out_of_the_same_budget(tmp_path: Path) -> None:
    # Pauses of 0.5-1 s, then 1-2 s: after two tries of 1 s the second pause no longer fits in 3 s.
    patient = ModelClient(tmp_path / "calls", environ={"TEST_KEY": SECRET}, backoff_base_s=1.0)
    with TestServer([Rule(fault="trickle", delay_s=0.5)]) as server:
        started = time.monotonic()
        result = patient.call(system(server.base_url), [{"role": "user", "content": "q"}])
        took = time.monotonic() - started
        asked = len(server.chat_requests())
    assert (result.ok, result.tries, asked) == (False, 2, 2)
    assert "no time left for another try within the call's 3 s" in (result.error or ""), result.error
    assert took <= BOUND_S + MARGIN_S, f"{took:.1f} s against timeout_s x tries = {BOUND_S:g} s"


STALLS = [(name, endpoint) for name, endpoint, words, _ in TIMEOUTS if words == "timed out"]


@pytest.mark.parametrize(("name", "endpoint"), STALLS, ids=[name for name, _ in STALLS])
def test_a_timed_out_answer_is_not_stored_and_the_next_run_asks_again(
        client: ModelClient, name: str, endpoint: Endpoint) -> None:
    with endpoint() as slow:
        first = ask(system(slow.base_url), etalon(), 1, client, "t")
    with TestServer(default_reply="Срок можно восстановить в суде.") as mended:
        second = ask(system(mended.base_url), etalon(), 1, client, "t")
        third = ask(system(mended.base_url), etalon(), 1, client, "t")
        paid = len(mended.chat_requests())
    assert (first.status, second.status, third.status, paid) == ("error", "ok", "ok", 1)


def test_the_other_cells_go_on_while_one_question_trickles(client: ModelClient) -> None:
    rules = [Rule(contains="Вопрос 1:", fault="trickle", delay_s=0.5)]
    with TestServer(rules, default_reply="Срок можно восстановить в суде.") as server:
        answers = ask_all(system(server.base_url, concurrency=2), [etalon(0), etalon(1), etalon(2)], client, "t")
    assert [a.status for a in answers] == ["ok", "error", "ok"]
    assert "timed out" in (answers[1].error or "")
    result = scored(etalon(1), answers[1], [])
    assert (result.status, result.score.score) == ("error", None)   # an error, never a low score


def test_a_trickling_judge_gives_error_judgments_within_the_bound_and_the_cell_waits_for_a_human(
        client: ModelClient) -> None:
    e = etalon()
    elements = elements_for(e, "lesto")
    with TestServer([Rule(fault="trickle", delay_s=0.5)]) as server:
        cfg = JudgeConfig.model_validate({"base_url": server.base_url, "model": "judge-model",
                                          "api_key_env": "TEST_KEY", "timeout_s": TIMEOUT_S, "retries": RETRIES})
        started = time.monotonic()
        judgments = judge(e, make_answer(e, GOOD_ANSWER), elements, {}, cfg, client)
        took = time.monotonic() - started
    waves = math.ceil(len(elements) * 2 / cfg.concurrency)   # both runs of every element, `concurrency` at a time
    assert len(judgments) == len(elements) * 2
    assert {j.verdict for j in judgments} == {None}
    assert all("timed out" in (j.error or "") for j in judgments)
    assert scored(e, make_answer(e, GOOD_ANSWER), judgments).status == "needs_input"
    assert client.cache is not None and len(client.cache) == 0
    assert took <= waves * BOUND_S + MARGIN_S, f"{took:.1f} s against {waves} x {BOUND_S:g} s"


# -- through `etalon update` -------------------------------------------------------------------------

def _systems(project: Project, url: str) -> None:
    data = {"systems": [{"id": "sut", "kind": "openai", "base_url": url, "model": "sut-model",
                         "api_key_env": KEY_ENV, "attempts": 1, "timeout_s": TIMEOUT_S, "retries": 1,
                         "concurrency": 4}]}
    project.systems.write_text(yaml.safe_dump(data), encoding="utf-8")


@pytest.fixture
def trickled(project: Project) -> Iterator[tuple[Project, Any, int]]:
    """An update against a system trickling every reply: the project, its result and how many tries came."""
    with TestServer([Rule(fault="trickle", delay_s=0.5)]) as server:
        _systems(project, server.base_url)
        done = project.update()
        yield project, done, len(server.chat_requests())


@pytest.mark.slow
def test_an_update_against_a_trickling_system_stores_deadline_errors_and_exits_non_zero(
        trickled: tuple[Project, Any, int]) -> None:
    project, done, tries = trickled
    answers = project.query("SELECT status, error FROM eval.answers WHERE system = 'sut'")
    scores = project.query("SELECT status, score FROM eval.scores WHERE system = 'sut'")
    assert done.returncode != 0
    assert [a[0] for a in answers] == ["error"] * len(CODES), done.stderr[-2000:]
    assert all("timed out" in a[1] and "(after 2 tries)" in a[1] for a in answers), answers
    assert (tries, sorted(set(scores))) == (2 * len(CODES), [("error", None)])


@pytest.mark.slow
def test_the_update_after_a_trickling_one_asks_every_timed_out_cell_again(
        trickled: tuple[Project, Any, int]) -> None:
    project = trickled[0]
    with TestServer(default_reply="Согласно ст. 1152 ГК РФ, ответ таков.") as mended:
        _systems(project, mended.base_url)
        done = project.update()
        asked = len(mended.chat_requests())
    answers = project.query("SELECT status FROM eval.answers WHERE system = 'sut'")
    assert (asked, [a[0] for a in answers]) == (len(CODES), ["ok"] * len(CODES)), done.stderr[-2000:]

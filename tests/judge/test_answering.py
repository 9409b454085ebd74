"""Asking systems under test: only the case goes out, one stored answer per attempt, a full passport."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from etalons.model import Etalon
from evaluation.answering import ask, ask_all
from evaluation.client import ModelClient
from evaluation.testserver import Rule, TestServer
from tests.judge.conftest import ETALON_DATA, SECRET, system_for

CANARY = "3f2a9c0d1b7e4a6f8c2d5e1a9b0c7d3e"


def test_only_the_question_reaches_the_system(
        serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon) -> None:
    server = serve([Rule(reply="answer")])
    ask(system_for(server, system_prompt="Ты юрист."), etalon, 1, client, "t")
    sent = server.chat_requests()[0].text()
    private = ["REFERENCE-MARKER", "GROSS-MARKER", "ст. 1154 ГК РФ", etalon.decisive_issue,
               etalon.solution_fact or "", CANARY]
    assert etalon.question in sent and not [p for p in private if p in sent]


def test_the_system_prompt_and_params_are_sent(
        serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon) -> None:
    server = serve()
    system = system_for(server, system_prompt="Ты юрист.", params={"temperature": 0.2, "max_tokens": 50})
    ask(system, etalon, 1, client, "t")
    body = server.chat_requests()[0].body or {}
    assert (body["messages"][0], body["temperature"], body["max_tokens"]) == (
        {"role": "system", "content": "Ты юрист."}, 0.2, 50)


def test_each_attempt_is_one_separate_call_with_its_own_seed(
        serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon) -> None:
    server = serve()
    answers = ask_all(system_for(server, attempts=3, params={"seed": 10}), [etalon], client, "t")
    seeds = sorted((r.body or {})["seed"] for r in server.chat_requests())
    assert ([a.attempt for a in answers], seeds) == ([1, 2, 3], [10, 11, 12])


def test_asking_again_makes_no_call(serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon) -> None:
    server = serve([Rule(reply="stored")])
    first = ask(system_for(server), etalon, 1, client, "t")
    again = ask(system_for(server), etalon, 1, client, "t")
    assert (again.text, len(server.chat_requests()), first.text) == ("stored", 1, "stored")


@pytest.mark.parametrize(("change", "calls"), [
    ({"reference_answer": "другой эталонный ответ"}, 1),  # same question: the stored answer is reused
    ({"title": "новое название"}, 1),
    ({"question": "Другой вопрос клиента?"}, 2),          # a changed question asks again
])
def test_a_new_etalon_version_reuses_the_answer_only_while_the_question_is_unchanged(
        serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon,
        change: dict[str, str], calls: int) -> None:
    server = serve()
    ask(system_for(server), etalon, 1, client, "t")
    ask(system_for(server), Etalon.model_validate({**ETALON_DATA, **change}), 1, client, "t")
    assert len(server.chat_requests()) == calls


def test_the_passport_records_the_call_without_the_key(
        serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon) -> None:
    server = serve([Rule(reply="answer text")])
    answer = ask(system_for(server, params={"temperature": 0}), etalon, 1, client, "t")
    passport = json.loads(answer.passport or "{}")
    wanted = {"model", "endpoint", "prompt_hash", "params", "attempt", "date", "latency_ms", "tokens_in",
              "tokens_out", "cost", "code_version"}
    assert wanted <= passport.keys() and SECRET not in (answer.passport or "")
    assert (passport["model"], passport["endpoint"], answer.tokens_in is not None) == (
        "sut-model", server.base_url, True)


def test_cost_comes_from_tokens_and_the_price_per_thousand(
        serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon) -> None:
    server = serve([Rule(reply="x" * 400)])  # the test server counts 4 characters a token
    answer = ask(system_for(server), etalon, 1, client, "t")
    assert answer.cost == pytest.approx(((answer.tokens_in or 0) * 1.0 + 101 * 2.0) / 1000)


def test_a_failing_model_gives_an_error_answer_with_a_key_free_message(
        serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon) -> None:
    server = serve([Rule(fault="500", retry_after=None)])
    answer = ask(system_for(server, retries=1), etalon, 1, client, "t")
    assert (answer.status, answer.text, "HTTP 500" in (answer.error or ""), SECRET in (answer.error or "")) == (
        "error", "", True, False)


def test_a_refusal_is_an_ok_answer_whose_text_refuses(
        serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon) -> None:
    server = serve([Rule(fault="refusal")])
    answer = ask(system_for(server), etalon, 1, client, "t")
    assert (answer.status, "can't help" in answer.text) == ("ok", True)


def test_an_empty_reply_is_an_error_not_an_empty_answer(
        serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon) -> None:
    server = serve([Rule(fault="empty")])
    answer = ask(system_for(server), etalon, 1, client, "t")
    assert answer.status == "error"


def test_an_attempt_beyond_the_configured_number_is_refused(
        serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon) -> None:
    with pytest.raises(ValueError, match=r"attempt 2 outside 1\.\.1"):
        ask(system_for(serve()), etalon, 2, client, "t")

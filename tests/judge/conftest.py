"""Fixtures for model tests: a real OpenAI-compatible server on loopback and a client with a fresh cache.

Every model test goes through the real `openai` client over HTTP to evaluation.testserver; nothing of
our own code is mocked. Sample etalons here are authored for the tests, not taken from the corpus.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from etalons.model import Etalon
from evaluation.client import ModelClient
from evaluation.records import Answer
from evaluation.systems import JudgeConfig, SystemConfig
from evaluation.testserver import Rule, TestServer

SECRET = "sk-test-secret-value-4242"

ETALON_DATA: dict[str, Any] = {
    "code": "NAS-T1",
    "title": "Пропущенный срок принятия наследства",
    "jurisdiction": "ru",
    "branch": "inheritance",
    "difficulty": 2,
    "type": "application",
    "question": "Отец умер восемь месяцев назад, я жил за границей и узнал об этом только сейчас. "
                "Могу ли я ещё получить свою долю квартиры?",
    "decisive_issue": "можно ли восстановить пропущенный срок принятия наследства",
    "solution_fact": "наследник не знал о смерти отца по уважительной причине",
    "branches": ["восстановление срока через суд", "принятие с согласия остальных наследников"],
    "reference_answer": "REFERENCE-MARKER: срок можно восстановить в суде, обратившись в течение шести "
                        "месяцев после того, как причины пропуска отпали.",
    "next_steps": "подать иск о восстановлении срока",
    "sources": [{"citation": "ст. 1154 ГК РФ", "priority": "mandatory"},
                {"citation": "ст. 1155 ГК РФ", "priority": "conditional",
                 "condition": "наследник пропустил срок по уважительной причине"}],
    "gross_errors": ["GROSS-MARKER: срок восстановить нельзя ни при каких условиях"],
}

GOOD_ANSWER = ("Срок можно восстановить: суд восстанавливает его, если наследник не знал об открытии "
               "наследства. Обратитесь в суд в течение шести месяцев после того, как узнали о смерти.")


@pytest.fixture
def etalon() -> Etalon:
    return Etalon.model_validate(ETALON_DATA)


def make_answer(etalon: Etalon, text: str, system: str = "sut") -> Answer:
    return Answer(system=system, benchmark="t", code=etalon.code, version=etalon.version,
                  question_version=etalon.question_version, attempt=1, text=text)


@pytest.fixture
def serve() -> Iterator[Callable[..., TestServer]]:
    """serve(rules, latency_s=...) starts a server on a free loopback port; all are stopped afterwards."""
    started: list[TestServer] = []

    def start(rules: Sequence[Rule] = (), **kwargs: Any) -> TestServer:
        server = TestServer(rules, **kwargs).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def client(tmp_path: Path) -> ModelClient:
    return ModelClient(tmp_path / "calls", environ={"TEST_KEY": SECRET}, backoff_base_s=0.01)


def system_for(server: TestServer, **overrides: Any) -> SystemConfig:
    data: dict[str, Any] = {"id": "sut", "base_url": server.base_url, "model": "sut-model",
                            "api_key_env": "TEST_KEY", "timeout_s": 2.0, "retries": 3,
                            "price": {"input": 1.0, "output": 2.0}}
    data.update(overrides)
    return SystemConfig.model_validate(data)


def judge_for(server: TestServer, **overrides: Any) -> JudgeConfig:
    data: dict[str, Any] = {"base_url": server.base_url, "model": "judge-model", "api_key_env": "TEST_KEY",
                            "timeout_s": 2.0, "retries": 2}
    data.update(overrides)
    return JudgeConfig.model_validate(data)


def verdict(verdict: str, quote: str | None, reason: str = "r") -> str:
    return json.dumps({"verdict": verdict, "quote": quote, "reason": reason}, ensure_ascii=False)


def answer_field(request_body: dict[str, Any]) -> str:
    """The answer as the judge received it, read back out of the JSON data block."""
    data = request_body["messages"][1]["content"].split("\n", 1)[1]
    return str(json.loads(data)["answer_under_evaluation"])

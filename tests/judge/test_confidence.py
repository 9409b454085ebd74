"""A system's own confidence: carried by imported answers (validated per line), or read from an
OpenAI-compatible reply (a JSON answer, or token logprobs) over real HTTP to the loopback server."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import pytest

from etalons.model import Etalon
from evaluation.answering import messages_for, params_for
from evaluation.client import ModelClient
from evaluation.confidence import reported_confidence
from evaluation.imports import import_jsonl
from evaluation.systems import SystemsConfigError, parse_systems
from evaluation.testserver import Rule, TestServer
from tests.judge.conftest import ETALON_DATA, system_for

ETALONS = {"NAS-T1": Etalon.model_validate(ETALON_DATA)}


def _jsonl(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("given", "kept"), [("0.8", 0.8), ("1", 1.0), ("0", 0.0), ("null", None)])
def test_an_imported_answer_keeps_the_confidence_it_states(tmp_path: Path, given: str, kept: float | None) -> None:
    path = _jsonl(tmp_path, f'{{"code": "NAS-T1", "text": "Ответ", "confidence": {given}}}')
    (answer,) = import_jsonl(path, "vendor", ETALONS, "t").answers
    assert answer.confidence == kept


def test_an_imported_answer_without_a_confidence_has_none(tmp_path: Path) -> None:
    (answer,) = import_jsonl(_jsonl(tmp_path, '{"code": "NAS-T1", "text": "Ответ"}'), "v", ETALONS, "t").answers
    assert answer.confidence is None


@pytest.mark.parametrize("bad", ["1.5", "-0.1", '"high"', "true", "[0.5]", "1e400"])
def test_a_confidence_outside_0_to_1_is_a_line_error_naming_the_field(tmp_path: Path, bad: str) -> None:
    path = _jsonl(tmp_path, '{"code": "NAS-T1", "text": "good", "attempt": 2}',
                  f'{{"code": "NAS-T1", "text": "bad", "confidence": {bad}}}')
    result = import_jsonl(path, "vendor", ETALONS, "t")
    (error,) = result.errors
    assert (error.line, error.field, len(result.answers)) == ("2", "confidence", 1)
    assert str(error).startswith(f"{path}:2: confidence: expected a probability from 0 to 1")


def _ask(server: TestServer, client: ModelClient, **system: object) -> tuple[str, float | None, dict[str, object]]:
    """One real call as answering makes it, then the confidence read from what came back."""
    config = system_for(server, **system)
    etalon = ETALONS["NAS-T1"]
    result = client.call(config, messages_for(config, etalon), params=params_for(config, 1))
    text, confidence = reported_confidence(config.confidence, result.content or "", result.raw)
    return text, confidence, server.chat_requests()[-1].body


def test_a_json_reply_gives_its_answer_and_its_confidence(serve: Callable[..., TestServer],
                                                          client: ModelClient) -> None:
    reply = "```json\n" + json.dumps({"answer": "Срок можно восстановить в суде.", "confidence": 0.72},
                                      ensure_ascii=False) + "\n```"
    text, confidence, _ = _ask(serve([Rule(reply=reply)]), client, confidence="json")
    assert (text, confidence) == ("Срок можно восстановить в суде.", 0.72)


@pytest.mark.parametrize("reply", ["Срок можно восстановить.", '{"answer": "x", "confidence": 7}', "[1, 2]"])
def test_a_reply_of_another_shape_keeps_its_text_and_states_no_confidence(
        serve: Callable[..., TestServer], client: ModelClient, reply: str) -> None:
    text, confidence, _ = _ask(serve([Rule(reply=reply)]), client, confidence="json")
    assert confidence is None
    assert text == (reply if not reply.startswith('{"answer"') else "x")


def test_logprobs_are_requested_and_give_the_geometric_mean_token_probability(
        serve: Callable[..., TestServer], client: ModelClient) -> None:
    text, confidence, sent = _ask(serve([Rule(reply="Срок можно восстановить", logprob=-0.2)]), client,
                                  confidence="logprobs")
    assert sent["logprobs"] is True
    assert text == "Срок можно восстановить"
    assert confidence == pytest.approx(math.exp(-0.2))


def test_without_a_confidence_setting_nothing_is_asked_and_none_is_stated(
        serve: Callable[..., TestServer], client: ModelClient) -> None:
    _, confidence, sent = _ask(serve([Rule(reply="Ответ")]), client)
    assert confidence is None and "logprobs" not in sent


def test_an_unknown_confidence_setting_is_reported_with_its_field() -> None:
    with pytest.raises(SystemsConfigError, match=r"field systems\.0\.confidence"):
        parse_systems({"systems": [{"id": "s", "base_url": "http://x/v1", "model": "m", "confidence": "guess"}]})

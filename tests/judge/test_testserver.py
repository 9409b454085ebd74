"""The test server itself: rules from a file, the models list, and the command-line entry point."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import openai
import pytest

from evaluation.testserver import Rule, TestServer, rules_from_yaml

RULES = """
- contains: наследство
  reply: Ответ про наследство
- model: slow-model
  fault: "500"
"""


def test_rules_are_read_from_yaml(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text(RULES, encoding="utf-8")
    assert rules_from_yaml(path) == [Rule(contains="наследство", reply="Ответ про наследство"),
                                     Rule(model="slow-model", fault="500")]


def test_a_rule_with_an_unknown_field_is_reported_with_its_position(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text("- reply: a\n- replay: b\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"rules\.yaml: rule 2: .*replay"):
        rules_from_yaml(path)


def test_the_models_endpoint_lists_a_model(serve: Callable[..., TestServer]) -> None:
    server = serve()
    sdk = openai.OpenAI(base_url=server.base_url, api_key="x", max_retries=0)
    assert [m.id for m in sdk.models.list()] == ["test-model"]


def test_the_first_matching_rule_answers_and_the_request_is_logged(serve: Callable[..., TestServer]) -> None:
    server = serve([Rule(contains="наследство", reply="про наследство", times=1), Rule(reply="прочее")])
    sdk = openai.OpenAI(base_url=server.base_url, api_key="x", max_retries=0)
    replies = [sdk.chat.completions.create(model="m", messages=[{"role": "user", "content": "наследство"}])
               .choices[0].message.content for _ in range(2)]
    assert replies == ["про наследство", "прочее"] and len(server.chat_requests()) == 2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_server_runs_from_the_command_line_with_a_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text(RULES, encoding="utf-8")
    port = free_port()
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-m", "evaluation.testserver", "--port", str(port), "--rules",
                             str(path)], cwd=root, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and "serving" in proc.stdout.readline()
        sdk = openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="x", max_retries=0, timeout=5)
        reply = sdk.chat.completions.create(model="m", messages=[{"role": "user", "content": "наследство?"}])
        assert reply.choices[0].message.content == "Ответ про наследство"
    finally:
        proc.terminate()
        proc.wait(timeout=5)

"""A model endpoint that is down for the whole run gives error rows, never zeros."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

import pytest

from evaluation.testserver import Rule, TestServer

from .conftest import CODES, Project

ATTEMPTS = 2


@contextmanager
def _every_request_fails() -> Iterator[str]:
    with TestServer([Rule(fault="500")]) as server:
        yield server.base_url


@contextmanager
def _nothing_listening() -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    yield f"http://127.0.0.1:{port}/v1"


@pytest.mark.slow
@pytest.mark.parametrize("endpoint", [_every_request_fails, _nothing_listening], ids=["HTTP 500", "server stopped"])
def test_an_endpoint_down_gives_error_answers_and_error_scores_never_zero(
        project: Project, endpoint: Callable[[], AbstractContextManager[str]]) -> None:
    with endpoint() as url:
        project.write_systems(url, url, attempts=ATTEMPTS)
        done = project.update()
    answers = project.query("SELECT status, error IS NOT NULL, text FROM eval.answers WHERE system = 'sut'")
    scores = project.query("SELECT status, score, verdict FROM eval.scores WHERE system = 'sut'")
    assert (sorted(set(answers)), len(answers)) == ([("error", True, "")], len(CODES) * ATTEMPTS), \
        done.stderr[-2000:]
    assert (sorted(set(scores)), len(scores)) == ([("error", None, None)], len(CODES) * ATTEMPTS)


@pytest.mark.slow
def test_an_endpoint_down_sends_nothing_to_the_judge(project: Project) -> None:
    with TestServer([Rule(model="sut-model", fault="500")]) as server:
        project.write_systems(server.base_url, server.base_url, attempts=1)
        project.update()
        judged = [r for r in server.chat_requests() if r.body and r.body.get("model") == "judge-model"]
    assert judged == []


@pytest.mark.slow
def test_a_run_with_the_endpoint_down_says_so(project: Project) -> None:
    with _every_request_fails() as url:
        project.write_systems(url, attempts=1)
        done = project.update()
    lines = [line.lower() for line in (done.stdout + done.stderr).splitlines() if "warning" not in line.lower()]
    told = [line for line in lines if "answer" in line and ("error" in line or "failed" in line)]
    assert done.returncode != 0 or told

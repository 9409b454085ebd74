"""A run killed with -9 mid-evaluation loses nothing, duplicates nothing and never pays twice for a call."""

from __future__ import annotations

import time

import pytest

from evaluation.testserver import Rule, TestServer

from .conftest import CODES, Project, judge_reply, request_counts

ATTEMPTS = 2
ANSWERS = len(CODES) * ATTEMPTS
EVERY_ANSWER = sorted((c, a) for c in CODES for a in range(1, ATTEMPTS + 1))
# Cells run one after another (answers, then judging), so these counts land inside answering and judging.
WHILE_ANSWERING, WHILE_JUDGING = 1, ANSWERS + 4


def _kill_update_after(project: Project, server: TestServer, requests: int, deadline_s: float = 120) -> None:
    run = project.start_etalon("update")
    started = time.monotonic()
    try:
        while len(server.chat_requests()) < requests:
            assert run.poll() is None, "the run ended before it could be killed"
            assert time.monotonic() - started < deadline_s, "the server never saw the requests"
            time.sleep(0.02)
        run.kill()  # SIGKILL: no cleanup handler runs
    finally:
        run.wait(timeout=30)
        run.communicate()


def _server() -> TestServer:
    return TestServer([Rule(model="judge-model", reply=judge_reply)], latency_s=0.3,
                      default_reply="Ответ: см. ст. 1152 ГК РФ.")


@pytest.mark.slow
def test_the_update_after_a_killed_update_answers_every_etalon(project: Project) -> None:
    with _server() as server:
        project.write_systems(server.base_url, server.base_url, attempts=ATTEMPTS, concurrency=1)
        _kill_update_after(project, server, WHILE_ANSWERING)
        server.latency_s = 0.0
        project.update()
    answers = project.query("SELECT code, attempt FROM eval.answers WHERE system = 'sut' AND status = 'ok'")
    assert sorted(answers) == EVERY_ANSWER


@pytest.mark.slow
@pytest.mark.parametrize("killed_after", [WHILE_ANSWERING, WHILE_JUDGING], ids=["while answering",
                                                                                 "while judging"])
def test_a_killed_update_resumed_loses_doubles_and_repays_nothing(project: Project, killed_after: int) -> None:
    with _server() as server:
        project.write_systems(server.base_url, server.base_url, attempts=ATTEMPTS, concurrency=1)
        _kill_update_after(project, server, killed_after)
        server.latency_s = 0.0
        done = project.refresh()
        assert done.returncode == 0, done.stderr[-2000:]
        sut_calls = request_counts(server, "sut-model")
        judge_calls = request_counts(server, "judge-model")
    answers = project.query("SELECT code, attempt, status FROM eval.answers WHERE system = 'sut'")
    judgments = project.query("SELECT code, attempt, element, run FROM eval.judgments WHERE system = 'sut'")
    elements = {(c, a, e) for c, a, e, _ in judgments}
    assert (sorted((c, a) for c, a, _ in answers), {s for *_, s in answers}) == (EVERY_ANSWER, {"ok"})
    assert len(judgments) == len(set(judgments)) == 2 * len(elements) > 0
    # Only the one call in flight when the process died may have been answered without being stored.
    assert sum(n - 1 for n in sut_calls.values()) + sum(n - 1 for n in judge_calls.values()) <= 1

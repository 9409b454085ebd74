"""A run killed with -9 mid-evaluation loses nothing, duplicates nothing and never pays twice for a call."""

from __future__ import annotations

import time

import pytest

from evaluation.testserver import Rule, TestServer

from .conftest import CODES, Project, judge_reply, request_counts

ATTEMPTS = 2
ANSWERS = len(CODES) * ATTEMPTS


def _kill_after(project: Project, server: TestServer, requests: int, deadline_s: float = 90) -> None:
    run = project.start_refresh("2")
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


@pytest.mark.slow
@pytest.mark.parametrize("killed_after", [3, ANSWERS + 5], ids=["while answering", "while judging"])
def test_a_killed_run_resumes_without_lost_duplicate_or_repaid_rows(project: Project, killed_after: int) -> None:
    rules = [Rule(model="judge-model", reply=judge_reply)]
    with TestServer(rules, latency_s=0.3, default_reply="Ответ: см. ст. 1152 ГК РФ.") as server:
        project.write_systems(server.base_url, server.base_url, attempts=ATTEMPTS, concurrency=1)
        _kill_after(project, server, killed_after)
        server.latency_s = 0.0
        done = project.refresh("2,3")
        assert done.returncode == 0, done.stderr[-2000:]
        answers = project.query("SELECT code, attempt, status FROM eval.answers WHERE system = 'sut'")
        keys = [(code, attempt) for code, attempt, _ in answers]
        judgments = project.query("SELECT code, attempt, element, run FROM eval.judgments WHERE system = 'sut'")
        elements = {(c, a, e) for c, a, e, _ in judgments}
        sut_calls = request_counts(server, "sut-model")
        judge_calls = request_counts(server, "judge-model")
    assert sorted(keys) == sorted({(c, a) for c in CODES for a in range(1, ATTEMPTS + 1)})
    assert {status for *_, status in answers} == {"ok"}
    assert len(judgments) == len(set(judgments)) == 2 * len(elements)
    # Only the one call in flight when the process died may have been answered without being stored.
    assert sum(n - 1 for n in sut_calls.values()) + sum(n - 1 for n in judge_calls.values()) <= 1

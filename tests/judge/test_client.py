"""The model client against the real test server: faults survived, calls cached, keys kept out."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evaluation.client import ModelClient
from evaluation.systems import Endpoint
from evaluation.testserver import Rule, TestServer
from tests.judge.conftest import SECRET

MESSAGES = [{"role": "user", "content": "hello"}]


def endpoint(server: TestServer, **kw: Any) -> Endpoint:
    data: dict[str, Any] = {"base_url": server.base_url, "model": "m", "api_key_env": "TEST_KEY",
                            "timeout_s": 0.5, "retries": 3}
    data.update(kw)
    return Endpoint.model_validate(data)


@pytest.mark.parametrize("fault", ["429", "500", "503", "hang", "malformed"])
def test_a_transient_fault_is_survived_by_retrying(
        serve: Callable[..., TestServer], client: ModelClient, fault: str) -> None:
    server = serve([Rule(fault=fault, times=1, retry_after=0.05), Rule(reply="fine")])  # type: ignore[arg-type]
    result = client.call(endpoint(server), MESSAGES)
    assert (result.ok, result.content, len(server.chat_requests())) == (True, "fine", 2)


def test_retry_after_is_honoured_before_the_next_try(serve: Callable[..., TestServer], client: ModelClient) -> None:
    server = serve([Rule(fault="429", times=1, retry_after=0.4), Rule(reply="fine")])
    started = time.monotonic()
    client.call(endpoint(server), MESSAGES)
    assert time.monotonic() - started >= 0.4


def test_a_persistent_fault_gives_an_error_result_after_the_last_retry(
        serve: Callable[..., TestServer], client: ModelClient) -> None:
    server = serve([Rule(fault="500", retry_after=None)])
    result = client.call(endpoint(server, retries=2), MESSAGES)
    assert (result.ok, result.content, len(server.chat_requests())) == (False, None, 3)
    assert "HTTP 500" in (result.error or "")


def test_an_error_is_not_cached_so_a_rerun_tries_again(
        serve: Callable[..., TestServer], client: ModelClient) -> None:
    server = serve([Rule(fault="500", times=2, retry_after=None), Rule(reply="later")])
    first = client.call(endpoint(server, retries=1), MESSAGES)
    second = client.call(endpoint(server, retries=1), MESSAGES)
    assert (first.ok, second.ok, second.content) == (False, True, "later")


def test_a_client_error_is_not_retried(serve: Callable[..., TestServer], client: ModelClient) -> None:
    server = serve([Rule(fault="400")])
    result = client.call(endpoint(server), MESSAGES)
    assert (result.ok, len(server.requests)) == (False, 1)


def test_a_cached_call_is_never_repeated(serve: Callable[..., TestServer], client: ModelClient) -> None:
    server = serve([Rule(reply="once")])
    first = client.call(endpoint(server), MESSAGES)
    second = client.call(endpoint(server), MESSAGES)
    assert (len(server.chat_requests()), first.content, second.content, second.cached) == (1, "once", "once", True)


def test_a_new_client_on_the_same_cache_resumes_without_calling(
        serve: Callable[..., TestServer], tmp_path: Path) -> None:
    server = serve([Rule(reply="paid")])
    ModelClient(tmp_path, environ={"TEST_KEY": SECRET}).call(endpoint(server), MESSAGES)
    again = ModelClient(tmp_path, environ={"TEST_KEY": SECRET})
    result = again.call(endpoint(server), MESSAGES)
    assert (result.content, len(server.chat_requests()), again.stats.as_dict()["billed"]) == ("paid", 1, 0)


def test_stats_count_cached_and_billed_calls_apart(serve: Callable[..., TestServer], client: ModelClient) -> None:
    server = serve([Rule(fault="429", times=1, retry_after=0.01)])
    for text in ("a", "b", "a"):
        client.call(endpoint(server), [{"role": "user", "content": text}])
    assert client.stats.as_dict() == {"cached": 1, "billed": 2, "errors": 0, "retries": 1}


@pytest.mark.parametrize("change", [{"model": "other"}, {"params": {"temperature": 0.5}}])
def test_a_different_request_is_a_different_call(
        serve: Callable[..., TestServer], client: ModelClient, change: dict[str, Any]) -> None:
    server = serve()
    client.call(endpoint(server), MESSAGES)
    client.call(endpoint(server, **change), MESSAGES)
    assert len(server.chat_requests()) == 2


def test_the_key_is_sent_to_the_endpoint_but_written_nowhere(
        serve: Callable[..., TestServer], client: ModelClient, tmp_path: Path) -> None:
    server = serve([Rule(contains="fail", fault="500", retry_after=None), Rule(reply=f"echo {SECRET[:3]}")])
    client.call(endpoint(server), MESSAGES)
    failed = client.call(endpoint(server, retries=0), [{"role": "user", "content": "fail"}])
    on_disk = "".join(p.read_text() for p in (tmp_path / "calls").rglob("*.json"))
    assert server.chat_requests()[0].headers["authorization"] == f"Bearer {SECRET}"
    assert SECRET not in on_disk and SECRET not in (failed.error or "") and SECRET not in repr(failed)


def test_a_missing_key_variable_is_an_error_naming_the_variable(
        serve: Callable[..., TestServer], tmp_path: Path) -> None:
    server = serve()
    result = ModelClient(tmp_path, environ={}).call(endpoint(server), MESSAGES)
    assert (result.ok, result.error, len(server.requests)) == (False, "environment variable TEST_KEY is not set", 0)


def test_concurrency_per_endpoint_is_bounded(serve: Callable[..., TestServer], client: ModelClient) -> None:
    lock, now, peak = threading.Lock(), [0], [0]

    def slow(body: dict[str, Any]) -> str:
        with lock:
            now[0] += 1
            peak[0] = max(peak[0], now[0])
        time.sleep(0.05)
        with lock:
            now[0] -= 1
        return "ok"

    server = serve([Rule(reply=slow)])
    ep = endpoint(server, concurrency=3)
    client.map(lambda i: client.call(ep, [{"role": "user", "content": str(i)}]), range(12), workers=12)
    assert peak[0] == 3


def test_the_requests_per_minute_limit_spaces_requests(serve: Callable[..., TestServer], client: ModelClient) -> None:
    server = serve()
    ep = endpoint(server, rpm=600, concurrency=8)  # one request per 0.1 s
    started = time.monotonic()
    client.map(lambda i: client.call(ep, [{"role": "user", "content": str(i)}]), range(5), workers=5)
    assert time.monotonic() - started >= 0.4

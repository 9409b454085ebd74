"""The model client against the real test server: faults survived, calls cached, keys kept out."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evaluation.cache import CallCache, InFlightTimeout, request_key
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


# -- hostile endpoints: shapes, trickles, huge replies, concurrent callers ---------------------------------

@pytest.mark.parametrize("body", [
    {"choices": ["str"]},
    {"choices": [{"message": {"content": 12345}}]},
    {"choices": [{"message": {"content": [{"type": "text", "text": "x"}]}}]},
    {"choices": [{"message": {"content": "x"}}], "usage": {"prompt_tokens": "many"}},
    {"message": "yes"},
    {"choices": None},
    "<html>Service temporarily unavailable</html>",
], ids=["choice is a string", "content is a number", "content is a list", "usage is words", "no choices",
        "null choices", "not JSON"])
def test_a_reply_of_the_wrong_shape_is_an_error_never_cached(
        serve: Callable[..., TestServer], client: ModelClient, body: Any) -> None:
    server = serve([Rule(body=body, times=1), Rule(reply="fine")])
    first = client.call(endpoint(server, retries=0), MESSAGES)
    again = client.call(endpoint(server, retries=0), MESSAGES)
    assert (first.ok, bool(first.error), again.ok, again.content, again.cached) == (False, True, True, "fine", False)
    assert client.cache is not None and len(client.cache) == 1


def test_content_the_caller_refuses_is_an_error_kept_for_the_record_but_not_cached(
        serve: Callable[..., TestServer], client: ModelClient) -> None:
    server = serve([Rule(reply="   ")])
    refused = client.call(endpoint(server), MESSAGES, accept=lambda c: None if c.strip() else "empty")
    client.call(endpoint(server), MESSAGES, accept=lambda c: None if c.strip() else "empty")
    assert (refused.ok, refused.error, refused.content, len(server.chat_requests())) == (False, "empty", "   ", 2)


def test_a_trickling_reply_is_cut_off_at_the_timeout_of_the_whole_call(
        serve: Callable[..., TestServer], client: ModelClient) -> None:
    server = serve([Rule(fault="trickle", delay_s=0.2)])  # a ~300-byte body: a minute to come whole
    started = time.monotonic()
    result = client.call(endpoint(server, timeout_s=1.0, retries=0), MESSAGES)
    took = time.monotonic() - started
    assert (result.ok, "timed out" in (result.error or "")) == (False, True)
    assert took < 3.0, f"the call went on for {took:.1f} s with timeout_s = 1"


def test_a_reply_silent_after_its_headers_is_cut_off_at_the_timeout_too(
        serve: Callable[..., TestServer], client: ModelClient) -> None:
    server = serve([Rule(fault="trickle", delay_s=30)])
    started = time.monotonic()
    result = client.call(endpoint(server, timeout_s=1.0, retries=0), MESSAGES)
    assert (result.ok, time.monotonic() - started < 3.0) == (False, True)


@pytest.mark.parametrize("declare_length", [True, False], ids=["with Content-Length", "chunked"])
def test_a_huge_reply_is_an_error_naming_the_limit_and_is_never_held_whole(
        serve: Callable[..., TestServer], client: ModelClient, declare_length: bool) -> None:
    import tracemalloc

    server = serve([Rule(fault="huge", size=50 * 1024 * 1024, declare_length=declare_length)])
    tracemalloc.start()
    try:
        result = client.call(endpoint(server, timeout_s=30.0), MESSAGES)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    size = "52429" if declare_length else "more than 1048576 bytes"
    assert (result.ok, "max_reply_bytes (1048576 bytes)" in (result.error or ""), size in (result.error or "")) == (
        False, True, True)
    assert (len(server.chat_requests()), peak < 8 * 1024 * 1024) == (1, True)  # not retried; not read whole


def test_the_reply_limit_is_set_per_endpoint(serve: Callable[..., TestServer], client: ModelClient) -> None:
    server = serve([Rule(reply="x" * 5000)])
    small = client.call(endpoint(server, max_reply_bytes=4096), MESSAGES)
    default = client.call(endpoint(server), [{"role": "user", "content": "again"}])
    assert (small.ok, "exceeds max_reply_bytes (4096 bytes)" in (small.error or ""), default.ok) == (False, True, True)


def test_two_callers_of_the_same_request_at_once_pay_for_it_once(
        serve: Callable[..., TestServer], client: ModelClient) -> None:
    server = serve([Rule(reply="shared")], latency_s=0.3)
    results = client.map(lambda _: client.call(endpoint(server), MESSAGES), range(4), workers=4)
    assert ([r.content for r in results], len(server.chat_requests())) == (["shared"] * 4, 1)
    assert sorted(r.cached for r in results) == [False, True, True, True]


def test_a_marker_left_by_a_dead_process_is_taken_over(
        serve: Callable[..., TestServer], client: ModelClient) -> None:
    server = serve([Rule(reply="paid once")])
    key = request_key(client.request_for(endpoint(server), MESSAGES))
    assert client.cache is not None
    marker = client.cache.marker(key)
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text('{"pid": 999999, "host": "gone", "since": "yesterday"}')  # its flock died with it
    result = client.call(endpoint(server), MESSAGES)
    assert (result.content, len(server.chat_requests()), marker.exists()) == ("paid once", 1, False)


def test_a_caller_waits_for_the_holder_of_the_marker_and_reads_its_result(
        serve: Callable[..., TestServer], client: ModelClient, tmp_path: Path) -> None:
    server = serve([Rule(reply="from the endpoint")])
    ep = endpoint(server)
    key = request_key(client.request_for(ep, MESSAGES))
    holder = CallCache(tmp_path / "calls")
    entered, release = threading.Event(), threading.Event()

    def hold() -> None:
        with holder.claim(key, patience_s=5):
            entered.set()
            release.wait(5)
            holder.put(key, {"body": {"choices": [{"message": {"content": "from the holder"}}]}})

    thread = threading.Thread(target=hold)
    thread.start()
    entered.wait(5)
    threading.Timer(0.5, release.set).start()
    result = client.call(ep, MESSAGES)
    thread.join()
    assert (result.content, result.cached, len(server.chat_requests())) == ("from the holder", True, 0)


def test_waiting_for_a_live_holder_gives_up_after_its_patience_naming_the_holder(tmp_path: Path) -> None:
    cache = CallCache(tmp_path)
    with cache.claim("ab" * 32, patience_s=5), pytest.raises(InFlightTimeout, match=r"pid \d+ on"), \
            cache.claim("ab" * 32, patience_s=0.2):
        pass

"""The only network code for models: any OpenAI-compatible endpoint through the real `openai` client.

Why our own retry loop: the SDK's retries are disabled (max_retries=0) so that every try is counted,
Retry-After is honoured with jitter we control, and a run's budget of paid calls is visible in `stats`.
A successful response is written to the call cache before it is used; an error is returned as an error
result (never a zero, never cached) so a rerun tries it again. The API key is read from the environment at
call time, lives only in the SDK object, and is scrubbed from every error message we produce
(evaluation.redact: scrubbed whole, then cut).

What one call may cost is bounded, per endpoint (systems.yaml, for each system and for the judge):

- `timeout_s` (default 60) bounds each try: connecting, sending, waiting and reading the body to its last
  byte. An endpoint that sends its headers and then one byte a second is cut off at `timeout_s`, not kept
  alive by every byte resetting a read timeout (evaluation.transfer: every socket operation of the try
  gets at most the time left, and the caller shuts the socket at the deadline).
- The whole call, every try and every pause between tries (backoff, Retry-After) included, ends within
  `timeout_s x (retries + 1)` of getting its turn on the endpoint (one of its `concurrency` slots; the call
  keeps the slot through its pauses, so retries never queue again). One monotonic deadline governs it: a
  try gets `min(timeout_s, what is left)`, a pause that would not leave time for another try is not
  taken, and a Retry-After beyond what is left ends the call at once with an error saying so, instead of
  sleeping past the deadline. Only the wait for a free slot (our own `concurrency`) and the first `rpm`
  pacing come before the clock starts.
- `max_reply_bytes` (default 1 MiB, 1048576) bounds the reply body. It is read as a stream and dropped as
  soon as it passes the limit (evaluation.transfer), so a 50 MB reply is never held whole; the call is an
  error naming the size and the limit, and is not retried (the endpoint would send it again).
- A reply of the wrong shape (evaluation.replies) is an error for its own call, not retried and not
  cached; `call(accept=...)` lets a caller refuse content (an empty answer, an unreadable verdict) on the
  same terms.

Concurrent processes do not pay twice for one request: a call is made under the cache's in-flight marker
for its key (evaluation.cache), and a process that finds the marker held waits, then reads the result.
"""

from __future__ import annotations

import email.utils
import json
import os
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import httpx2
import openai
from pydantic import BaseModel

from evaluation.cache import CallCache, InFlightTimeout, request_key
from evaluation.redact import safe_message, scrub, scrub_known
from evaluation.replies import Completion, ReplyShapeError, read_completion
from evaluation.systems import DEFAULT_MAX_REPLY_BYTES, Endpoint
from evaluation.transfer import DeadlineExceeded, TooLarge, exchange, http_client

T = TypeVar("T")
R = TypeVar("R")

_RETRY_STATUS = {408, 409, 425, 429}

Accept = Callable[[str], str | None]   # content -> why it is refused, or None when it is usable


@dataclass(frozen=True)
class CallResult:
    """What one logical call gave: content and usage, or an error after the last retry.

    An error result may still carry `content` and `raw`: a reply the caller's `accept` refused, kept so the
    record shows what came back.
    """

    key: str
    ok: bool
    content: str | None = None
    raw: str | None = None             # the response body as received (JSON text)
    error: str | None = None
    model: str | None = None           # the model the endpoint says answered
    tokens_in: int | None = None
    tokens_out: int | None = None
    latency_ms: float | None = None
    cached: bool = False
    tries: int = 0
    created_at: str | None = None


@dataclass
class ClientStats:
    """Cached calls cost nothing; billed calls are the successful HTTP calls a provider would charge."""

    cached: int = 0
    billed: int = 0
    errors: int = 0
    retries: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, **counts: int) -> None:
        with self._lock:
            for name, value in counts.items():
                setattr(self, name, getattr(self, name) + value)

    def as_dict(self) -> dict[str, int]:
        return {"cached": self.cached, "billed": self.billed, "errors": self.errors, "retries": self.retries}


class _RateLimiter:
    """Spaces requests evenly: at most `rpm` starts per minute per endpoint."""

    def __init__(self, rpm: int, sleep: Callable[[float], None]) -> None:
        self.interval = 60.0 / rpm
        self.next_at = 0.0
        self.lock = threading.Lock()
        self.sleep = sleep

    def wait(self, deadline: float | None = None) -> bool:
        """Waits for this request's turn; False (and no turn taken) when it would come after `deadline`."""
        with self.lock:
            now = time.monotonic()
            start = max(now, self.next_at)
            if deadline is not None and start >= deadline:
                return False
            self.next_at = start + self.interval
        if start > now:
            self.sleep(start - now)
        return True


def call_budget_s(endpoint: Endpoint) -> float:
    """The longest one call may take once it has its turn: timeout_s x (retries + 1), pauses included."""
    return endpoint.timeout_s * (endpoint.retries + 1)


def _budget(endpoint: Endpoint) -> str:
    """The call's budget in the words of systems.yaml, for error messages."""
    return (f"the call's {call_budget_s(endpoint):g} s (timeout_s = {endpoint.timeout_s:g} s x "
            f"{_tries(endpoint.retries + 1)})")


def _tries(n: int) -> str:
    return f"{n} try" if n == 1 else f"{n} tries"



# -- the client ---------------------------------------------------------------------------------------

class ModelClient:
    """Thread-safe; one instance serves every endpoint of a run. `cache_root` None disables caching."""

    def __init__(
        self,
        cache_root: Path | str | None,
        *,
        environ: Mapping[str, str] | None = None,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.cache = CallCache(cache_root) if cache_root is not None else None
        self.environ = environ if environ is not None else os.environ
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.sleep = sleep
        self.stats = ClientStats()
        self._lock = threading.Lock()
        self._semaphores: dict[str, threading.BoundedSemaphore] = {}
        self._limiters: dict[str, _RateLimiter] = {}
        self._sdk: dict[tuple[str, str], openai.OpenAI] = {}
        self._secrets: set[str] = set()

    # -- public -------------------------------------------------------------------------------------

    @staticmethod
    def request_for(
        endpoint: Endpoint,
        messages: Sequence[Mapping[str, str]],
        *,
        tag: Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
        schema: type[BaseModel] | None = None,
    ) -> dict[str, Any]:
        """The canonical request the cache key is computed from (never holds a key)."""
        return {
            "base_url": endpoint.base_url.rstrip("/"),
            "model": endpoint.model,
            "messages": [dict(m) for m in messages],
            "params": {**endpoint.params, **(params or {})},
            "tag": dict(tag or {}),
            "schema": _schema_json(schema) if schema is not None else None,
            "json_schema": endpoint.json_schema,
        }

    def call(
        self,
        endpoint: Endpoint,
        messages: Sequence[Mapping[str, str]],
        *,
        tag: Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
        schema: type[BaseModel] | None = None,
        accept: Accept | None = None,
    ) -> CallResult:
        """The result of one logical call: from the cache, or over HTTP (then cached if usable).

        Never raises for anything an endpoint does: every failure is a CallResult with ok=False and a
        scrubbed reason. `accept` refuses usable-looking content (the result is then an error, not cached).
        """
        request = self.request_for(endpoint, messages, tag=tag, params=params, schema=schema)
        key = request_key(request)
        stored = self._stored(key, accept)
        if stored is not None:
            return stored
        api_key = self._api_key(endpoint)
        if api_key is None:
            self.stats.add(errors=1)
            return CallResult(key=key, ok=False, error=f"environment variable {endpoint.api_key_env} is not set")
        if self.cache is None:
            return self._paid(endpoint, request, key, api_key, schema, accept)
        try:
            with self.cache.claim(key, patience_s=self._patience(endpoint)):
                stored = self._stored(key, accept)  # whoever held the marker may have stored it meanwhile
                if stored is not None:
                    return stored
                return self._paid(endpoint, request, key, api_key, schema, accept)
        except InFlightTimeout as exc:
            self.stats.add(errors=1)
            return CallResult(key=key, ok=False, error=str(exc))

    def lookup(
        self,
        endpoint: Endpoint,
        messages: Sequence[Mapping[str, str]],
        *,
        tag: Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
        schema: type[BaseModel] | None = None,
        accept: Accept | None = None,
    ) -> CallResult | None:
        """The stored result of this call, or None: never touches the network.

        Lets callers serve a fully cached rerun serially, without paying for a thread pool.
        """
        return self._stored(request_key(self.request_for(endpoint, messages, tag=tag, params=params,
                                                         schema=schema)), accept)

    def scrub(self, text: str) -> str:
        """`text` safe to store or print: every key this client has used, and credential shapes, removed."""
        return scrub(text, self._known())

    def map(self, fn: Callable[[T], R], items: Iterable[T], *, workers: int = 32) -> list[R]:
        """Runs `fn` over items in threads, in order; per-endpoint semaphores bound the HTTP concurrency."""
        items = list(items)
        if len(items) <= 1:
            return [fn(i) for i in items]
        with ThreadPoolExecutor(max_workers=min(workers, len(items))) as pool:
            return list(pool.map(fn, items))

    # -- internals ----------------------------------------------------------------------------------

    def _stored(self, key: str, accept: Accept | None) -> CallResult | None:
        """A usable stored result; an entry of the wrong shape or refused content counts as a miss."""
        if self.cache is None:
            return None
        entry = self.cache.get(key)
        if entry is None:
            return None
        try:
            completion = read_completion(entry.get("body"))
        except ReplyShapeError:
            return None
        if accept is not None and accept(completion.content) is not None:
            return None
        self.stats.add(cached=1)
        return _result(key, completion, json.dumps(entry["body"], ensure_ascii=False), entry, cached=True)

    def _paid(self, endpoint: Endpoint, request: Mapping[str, Any], key: str, api_key: str,
              schema: type[BaseModel] | None, accept: Accept | None) -> CallResult:
        try:
            result = self._call_with_retries(endpoint, request, key, api_key, schema, accept)
        except Exception as exc:  # a bug or an SDK surprise must cost one cell, not the run
            self.stats.add(errors=1)
            return CallResult(key=key, ok=False, error=self._safe(
                f"unexpected error calling the endpoint: {type(exc).__name__}: {exc}"))
        if result.ok and self.cache is not None and result.raw is not None:  # refused content is not ok
            self.cache.put(key, {"body": json.loads(result.raw), "latency_ms": result.latency_ms,
                                 "created_at": result.created_at, "tries": result.tries})
        return result

    def _patience(self, endpoint: Endpoint) -> float:
        """How long to wait for another process making the same call: its worst case, then some."""
        return call_budget_s(endpoint) + 30.0

    def _api_key(self, endpoint: Endpoint) -> str | None:
        if not endpoint.api_key_env:
            return "not-needed"  # local servers (Ollama, vLLM) accept any key
        key = self.environ.get(endpoint.api_key_env) or None
        if key is not None:
            with self._lock:
                self._secrets.add(key)
        return key

    def _known(self) -> tuple[str, ...]:
        with self._lock:
            return tuple(self._secrets)

    def _safe(self, text: str) -> str:
        return safe_message(text, self._known())

    def _gate(self, endpoint: Endpoint) -> tuple[threading.BoundedSemaphore, _RateLimiter | None]:
        name = endpoint.base_url.rstrip("/")
        with self._lock:
            sem = self._semaphores.get(name)
            if sem is None:
                sem = self._semaphores[name] = threading.BoundedSemaphore(endpoint.concurrency)
            limiter = self._limiters.get(name)
            if limiter is None and endpoint.rpm:
                limiter = self._limiters[name] = _RateLimiter(endpoint.rpm, self.sleep)
        return sem, limiter

    def _sdk_client(self, endpoint: Endpoint, api_key: str) -> openai.OpenAI:
        ident = (endpoint.base_url, api_key)
        with self._lock:
            sdk = self._sdk.get(ident)
            if sdk is None:
                sdk = self._sdk[ident] = openai.OpenAI(base_url=endpoint.base_url, api_key=api_key, max_retries=0,
                                                       http_client=http_client())
        return sdk

    def _call_with_retries(
        self, endpoint: Endpoint, request: Mapping[str, Any], key: str, api_key: str,
        schema: type[BaseModel] | None, accept: Accept | None,
    ) -> CallResult:
        """Tries under one deadline, set when the call gets its slot: timeout_s x (retries + 1) later."""
        sem, limiter = self._gate(endpoint)
        sdk = self._sdk_client(endpoint, api_key)  # built once per endpoint and key, before the clock starts
        last_error = "no try made"
        tries = 0
        use_schema = endpoint.json_schema
        retry_after: float | None = None
        pause = False        # whether the next try waits first (not after a request we change and resend)
        with sem:
            if limiter is not None:
                limiter.wait()
            deadline = time.monotonic() + call_budget_s(endpoint)
            for attempt in range(endpoint.retries + 1):
                if attempt:
                    stop = self._pause(endpoint, attempt, retry_after, deadline) if pause else None
                    if stop is None and limiter is not None and not limiter.wait(deadline):
                        stop = f"the rpm limit leaves no turn for another try within {_budget(endpoint)}"
                    if stop is not None:
                        last_error = f"{last_error}; {stop}"
                        break
                    self.stats.add(retries=1)
                tries += 1
                retry_after, pause = None, True
                started = time.monotonic()
                try_deadline = min(started + endpoint.timeout_s, deadline)
                try:
                    raw = self._send(sdk, endpoint, request, schema, use_schema, try_deadline)
                    latency = (time.monotonic() - started) * 1000.0
                    raw = scrub_known(raw, self._known())  # an endpoint echoing a key keeps it out of the cache
                    body = json.loads(raw)
                    self.stats.add(billed=1)  # a 200 reply was received: the provider may charge for it
                    completion = read_completion(body)
                    now = datetime.now(UTC).isoformat(timespec="seconds")
                    result = _result(key, completion, raw, {"latency_ms": latency, "created_at": now,
                                                            "tries": tries}, cached=False)
                    refused = accept(completion.content) if accept is not None else None
                    if refused is not None:  # kept for the record (content, raw), never cached
                        self.stats.add(errors=1)
                        return replace(result, ok=False, error=self._safe(refused))
                    return result
                except TooLarge as exc:
                    last_error = str(exc)
                    break
                except ReplyShapeError as exc:
                    last_error = f"the endpoint's reply has an unexpected shape: {exc}"
                    break
                except ValueError:
                    last_error = "malformed JSON in the response body"
                except (DeadlineExceeded, openai.APITimeoutError, httpx2.TimeoutException):
                    last_error = _timed_out(endpoint, try_deadline - started,
                                            cut=try_deadline < started + endpoint.timeout_s)
                except openai.APIConnectionError as exc:
                    last_error = f"connection error: {type(exc.__cause__ or exc).__name__}"
                except httpx2.TransportError as exc:  # the connection broke while we read the body
                    last_error = f"connection error: {type(exc).__name__}"
                except openai.APIStatusError as exc:
                    last_error = f"HTTP {exc.status_code}: {exc.message}"
                    if exc.status_code == 400 and schema is not None and use_schema:
                        use_schema, pause = False, False  # the endpoint rejects response_format: ask in words
                        continue
                    if exc.status_code not in _RETRY_STATUS and exc.status_code < 500:
                        break
                    retry_after = _retry_after(exc.response.headers)
        self.stats.add(errors=1)
        return CallResult(key=key, ok=False, error=f"{self._safe(last_error)} (after {_tries(tries)})", tries=tries)

    def _pause(self, endpoint: Endpoint, attempt: int, retry_after: float | None, deadline: float) -> str | None:
        """Sleeps before try `attempt` + 1, or says why there is no time for it (the call ends now)."""
        left = deadline - time.monotonic()
        if retry_after is not None and retry_after >= left:
            return (f"the endpoint asks to wait {retry_after:g} s (Retry-After), more than the "
                    f"{max(0.0, left):.1f} s left of {_budget(endpoint)}: not retried")
        wait = self._backoff(attempt - 1, retry_after)
        if wait >= left:
            return f"no time left for another try within {_budget(endpoint)}"
        self.sleep(wait)
        return None

    def _send(self, sdk: openai.OpenAI, endpoint: Endpoint, request: Mapping[str, Any],
              schema: type[BaseModel] | None, use_schema: bool, deadline: float) -> str:
        """The reply body of one try, its whole exchange over by `deadline` and within max_reply_bytes."""
        messages: list[Any] = list(request["messages"])
        params = dict(request["params"])
        if schema is not None and use_schema:
            params["response_format"] = _response_format(schema)
        elif schema is not None:  # no JSON-schema support: ask in words; the caller validates
            messages = [*messages, {"role": "system", "content": "Reply with one JSON object only, "
                        "matching this JSON Schema:\n" + json.dumps(schema.model_json_schema())}]
        return exchange(sdk, endpoint.model, messages, params, timeout_s=endpoint.timeout_s, deadline=deadline,
                        max_bytes=endpoint.max_reply_bytes or DEFAULT_MAX_REPLY_BYTES)

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        wait: float = min(self.backoff_max_s, self.backoff_base_s * float(2 ** attempt))
        wait = wait * (0.5 + random.random() / 2)  # jitter: many workers don't retry in lockstep
        if retry_after is not None:  # the caller has checked that it fits in the call's deadline
            wait = max(wait, retry_after)
        return wait


def _timed_out(endpoint: Endpoint, allowed: float, *, cut: bool) -> str:
    if cut:  # the call's deadline came before this try's own timeout_s
        return f"timed out: no complete reply in the {max(0.0, allowed):.1f} s left of {_budget(endpoint)}"
    return f"timed out: no complete reply within timeout_s = {endpoint.timeout_s:g} s"


@lru_cache(maxsize=64)
def _response_format(schema: type[BaseModel]) -> Any:
    """The strict json_schema response_format `chat.completions.parse` would send, built once per schema.

    Converting the pydantic model on every call costs the judge measurable CPU under the interpreter lock;
    the SDK's own converter keeps the request identical to what `parse()` sends.
    """
    try:
        from openai.lib._parsing._completions import type_to_response_format_param
    except ImportError:  # pragma: no cover - depends on the SDK version
        return {"type": "json_schema",
                "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema(), "strict": True}}
    return type_to_response_format_param(schema)


@lru_cache(maxsize=64)
def _schema_json(schema: type[BaseModel]) -> dict[str, Any]:
    return schema.model_json_schema()


def _result(key: str, completion: Completion, raw: str, meta: Mapping[str, Any], *, cached: bool) -> CallResult:
    return CallResult(
        key=key, ok=True, content=completion.content, raw=raw, model=completion.model,
        tokens_in=completion.tokens_in, tokens_out=completion.tokens_out,
        latency_ms=meta.get("latency_ms"), cached=cached, tries=int(meta.get("tries") or 0),
        created_at=meta.get("created_at"),
    )


def _retry_after(headers: Mapping[str, str]) -> float | None:
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return float(ms) / 1000.0
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        seconds: float = (when - datetime.now(when.tzinfo or UTC)).total_seconds()
        return max(0.0, seconds)

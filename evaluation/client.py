"""The only network code for models: any OpenAI-compatible endpoint through the real `openai` client.

Why our own retry loop: the SDK's retries are disabled (max_retries=0) so that every try is counted,
Retry-After is honoured with jitter we control, and a run's budget of paid calls is visible in `stats`.
A successful response is written to the call cache before it is used; an error is returned as an error
result (never a zero, never cached) so a rerun tries it again. The API key is read from the environment at
call time, lives only in the SDK object, and is scrubbed from every error message we produce.
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
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import openai
from pydantic import BaseModel

from evaluation.cache import CallCache, request_key
from evaluation.systems import Endpoint

T = TypeVar("T")
R = TypeVar("R")

_RETRY_STATUS = {408, 409, 425, 429}
_MAX_RETRY_AFTER_S = 120.0


@dataclass(frozen=True)
class CallResult:
    """What one logical call gave: content and usage, or an error after the last retry."""

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

    def wait(self) -> None:
        with self.lock:
            now = time.monotonic()
            start = max(now, self.next_at)
            self.next_at = start + self.interval
        if start > now:
            self.sleep(start - now)


class _Retryable(Exception):
    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


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
        self._sdk: dict[tuple[str, float, str], openai.OpenAI] = {}

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
    ) -> CallResult:
        request = self.request_for(endpoint, messages, tag=tag, params=params, schema=schema)
        key = request_key(request)
        stored = self._stored(key)
        if stored is not None:
            return stored
        api_key = self._api_key(endpoint)
        if api_key is None:
            self.stats.add(errors=1)
            return CallResult(key=key, ok=False, error=f"environment variable {endpoint.api_key_env} is not set")
        result = self._call_with_retries(endpoint, request, key, api_key, schema)
        if result.ok and self.cache is not None and result.raw is not None:
            self.cache.put(key, {"body": json.loads(result.raw), "latency_ms": result.latency_ms,
                                 "created_at": result.created_at, "tries": result.tries})
        return result

    def lookup(
        self,
        endpoint: Endpoint,
        messages: Sequence[Mapping[str, str]],
        *,
        tag: Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
        schema: type[BaseModel] | None = None,
    ) -> CallResult | None:
        """The stored result of this call, or None: never touches the network.

        Lets callers serve a fully cached rerun serially, without paying for a thread pool.
        """
        return self._stored(request_key(self.request_for(endpoint, messages, tag=tag, params=params,
                                                         schema=schema)))

    def _stored(self, key: str) -> CallResult | None:
        if self.cache is None:
            return None
        entry = self.cache.get(key)
        if entry is None:
            return None
        self.stats.add(cached=1)
        return _result_from_body(key, entry["body"], entry, cached=True)

    def map(self, fn: Callable[[T], R], items: Iterable[T], *, workers: int = 32) -> list[R]:
        """Runs `fn` over items in threads, in order; per-endpoint semaphores bound the HTTP concurrency."""
        items = list(items)
        if len(items) <= 1:
            return [fn(i) for i in items]
        with ThreadPoolExecutor(max_workers=min(workers, len(items))) as pool:
            return list(pool.map(fn, items))

    # -- internals ----------------------------------------------------------------------------------

    def _api_key(self, endpoint: Endpoint) -> str | None:
        if not endpoint.api_key_env:
            return "not-needed"  # local servers (Ollama, vLLM) accept any key
        return self.environ.get(endpoint.api_key_env) or None

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
        ident = (endpoint.base_url, endpoint.timeout_s, api_key)
        with self._lock:
            sdk = self._sdk.get(ident)
            if sdk is None:
                sdk = self._sdk[ident] = openai.OpenAI(
                    base_url=endpoint.base_url, api_key=api_key, max_retries=0, timeout=endpoint.timeout_s)
        return sdk

    def _call_with_retries(
        self, endpoint: Endpoint, request: Mapping[str, Any], key: str, api_key: str,
        schema: type[BaseModel] | None,
    ) -> CallResult:
        sem, limiter = self._gate(endpoint)
        last_error = "no try made"
        tries = 0
        use_schema = endpoint.json_schema
        for attempt in range(endpoint.retries + 1):
            if attempt:
                self.stats.add(retries=1)
            tries += 1
            retry_after: float | None = None
            with sem:
                if limiter is not None:
                    limiter.wait()
                started = time.monotonic()
                try:
                    raw = self._send(endpoint, request, api_key, schema, use_schema)
                    latency = (time.monotonic() - started) * 1000.0
                    body = json.loads(raw)
                    if not isinstance(body, dict) or not body.get("choices"):
                        raise _Retryable("response has no choices")
                    self.stats.add(billed=1)
                    now = datetime.now(UTC).isoformat(timespec="seconds")
                    return _result_from_body(key, body, {"latency_ms": latency, "created_at": now,
                                                         "tries": tries}, cached=False, raw=raw)
                except _Retryable as exc:
                    last_error, retry_after = str(exc), exc.retry_after
                except ValueError:
                    last_error = "malformed JSON in the response body"
                except openai.APITimeoutError:
                    last_error = f"timed out after {endpoint.timeout_s:g} s"
                except openai.APIConnectionError as exc:
                    last_error = f"connection error: {type(exc.__cause__ or exc).__name__}"
                except openai.APIStatusError as exc:
                    last_error = f"HTTP {exc.status_code}: {_short(exc.message)}"
                    if exc.status_code == 400 and schema is not None and use_schema:
                        use_schema = False  # the endpoint rejects response_format: ask in words instead
                        continue
                    if exc.status_code not in _RETRY_STATUS and exc.status_code < 500:
                        break
                    retry_after = _retry_after(exc.response.headers)
            if attempt < endpoint.retries:
                self.sleep(self._backoff(attempt, retry_after))
        self.stats.add(errors=1)
        return CallResult(key=key, ok=False, error=_scrub(f"{last_error} (after {tries} tries)", api_key),
                          tries=tries)

    def _send(self, endpoint: Endpoint, request: Mapping[str, Any], api_key: str,
              schema: type[BaseModel] | None, use_schema: bool) -> str:
        sdk = self._sdk_client(endpoint, api_key)
        messages: list[Any] = list(request["messages"])
        params = dict(request["params"])
        if schema is not None and use_schema:
            response_format = _response_format(schema)
            if response_format is None:
                parsed = sdk.chat.completions.with_raw_response.parse(
                    model=endpoint.model, messages=messages, response_format=schema, **params)
                return parsed.http_response.text
            params["response_format"] = response_format
        elif schema is not None:  # no JSON-schema support: ask in words; the caller validates
            messages = [*messages, {"role": "system", "content": "Reply with one JSON object only, "
                        "matching this JSON Schema:\n" + json.dumps(schema.model_json_schema())}]
        response = sdk.chat.completions.with_raw_response.create(model=endpoint.model, messages=messages, **params)
        return response.http_response.text

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        wait: float = min(self.backoff_max_s, self.backoff_base_s * float(2 ** attempt))
        wait = wait * (0.5 + random.random() / 2)  # jitter: many workers don't retry in lockstep
        if retry_after is not None:
            wait = max(wait, min(retry_after, _MAX_RETRY_AFTER_S))
        return wait


@lru_cache(maxsize=64)
def _response_format(schema: type[BaseModel]) -> Any:
    """The strict json_schema response_format `chat.completions.parse` would send, built once per schema.

    Converting the pydantic model on every call costs the judge measurable CPU under the interpreter lock;
    the SDK's own converter keeps the request identical. None (SDK internals moved): fall back to parse().
    """
    try:
        from openai.lib._parsing._completions import type_to_response_format_param
    except ImportError:  # pragma: no cover - depends on the SDK version
        return None
    return type_to_response_format_param(schema)


@lru_cache(maxsize=64)
def _schema_json(schema: type[BaseModel]) -> dict[str, Any]:
    return schema.model_json_schema()


def _result_from_body(key: str, body: Mapping[str, Any], meta: Mapping[str, Any], *, cached: bool,
                      raw: str | None = None) -> CallResult:
    choice = (body.get("choices") or [{}])[0]
    message = choice.get("message") or {}
    content = message.get("content")
    if content is None and message.get("refusal"):
        content = message["refusal"]
    usage = body.get("usage") or {}
    return CallResult(
        key=key, ok=True, content=content,
        raw=raw if raw is not None else json.dumps(body, ensure_ascii=False),
        model=body.get("model"), tokens_in=usage.get("prompt_tokens"), tokens_out=usage.get("completion_tokens"),
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


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit] + "…"


def _scrub(text: str, api_key: str) -> str:
    if api_key and api_key != "not-needed" and len(api_key) >= 4:
        text = text.replace(api_key, "***")
    return text

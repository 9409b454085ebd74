"""The one HTTP client of the corpus connectors: rate limit, retries honouring Retry-After, conditional GET.

Every request of a connector goes through :class:`Client`, so the politeness rules are stated once: at most
``rate`` requests a second to each host, a bounded number of retries of a 429, a 5xx or a dropped connection
(waiting what ``Retry-After`` asks, never longer than ``max_wait``, never past the run's ``deadline``), a timeout
on every call, a cap on the size of a body. Conditional requests send the ETag / Last-Modified a previous run
stored, so an unchanged document costs one 304 and no body. Standard library only: the connectors speak plain
HTTP/1.1 and SOAP over it, nothing a client library would add is needed.
"""

from __future__ import annotations

import email.utils
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from warehouse.tmpfiles import sweep, temporary

RETRIED = frozenset({429, 500, 502, 503, 504})
USER_AGENT = "Etalon corpus refresh (+https://github.com/etalon)"


def write_atomic(path: Path, data: bytes) -> None:
    """Through a locked temporary beside the file (see warehouse.tmpfiles): a killed run leaves at most a
    temporary that the next write into the same folder removes once it is stale."""
    with temporary(path) as (handle, tmp):
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
        os.replace(tmp, path)
    sweep(path.parent)


@dataclass(frozen=True)
class Policy:
    """How a connector treats a server: `rate` requests a second per host, `retries` of a failed request,
    `backoff` seconds before the first retry without Retry-After (doubling), `max_wait` the longest wait a
    Retry-After may ask, `timeout` per request, `deadline` for the whole run (seconds), `max_bytes` per body."""

    rate: float = 2.0
    retries: int = 3
    backoff: float = 0.5
    max_wait: float = 120.0
    timeout: float = 30.0
    deadline: float = 3600.0
    max_bytes: int = 200 * 1024 * 1024


class FetchError(Exception):
    """A request that did not succeed after its retries: `reason` is the ingest error's reason
    (http_error, network_error, rate_limited, deadline, too_large, bad_url, bad_response)."""

    def __init__(self, reason: str, detail: str, url: str = "") -> None:
        super().__init__(f"{url}: {detail}" if url else detail)
        self.reason, self.detail, self.url = reason, detail, url


@dataclass(frozen=True)
class Response:
    """`headers`: names in lower case."""

    status: int
    headers: Mapping[str, str]
    body: bytes
    url: str

    @property
    def not_modified(self) -> bool:
        return self.status == 304

    def validators(self) -> dict[str, str]:
        """The ETag / Last-Modified to send next time (what the cursor keeps per URL)."""
        return {k: v for k, v in (("etag", self.headers.get("etag")),
                                  ("last_modified", self.headers.get("last-modified"))) if v}

    def charset(self) -> str | None:
        ctype = self.headers.get("content-type") or ""
        for part in ctype.split(";")[1:]:
            key, _, value = part.strip().partition("=")
            if key.lower() == "charset" and value:
                return value.strip().strip('"').lower()
        return None


class _HttpOnly(urllib.request.HTTPRedirectHandler):
    """Follow a redirect only to http(s): a server must not send the client to ftp:// or file://."""

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> urllib.request.Request | None:
        if urllib.parse.urlparse(newurl).scheme not in ("http", "https"):
            raise FetchError("bad_url", f"redirected to {newurl}: only http and https are followed", req.full_url)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds a Retry-After header asks for (a number of seconds or an HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, when.timestamp() - (now if now is not None else time.time()))


@dataclass
class Client:
    """One run's conversation with the servers of a source; `requests` counts what it sent (retries too)."""

    policy: Policy = field(default_factory=Policy)
    headers: Mapping[str, str] = field(default_factory=dict)
    sleep: Callable[[float], None] = time.sleep
    requests: int = 0
    waited: float = 0.0

    def __post_init__(self) -> None:
        self._start = time.monotonic()
        self._next: dict[str, float] = {}
        self._opener = urllib.request.build_opener(_HttpOnly())

    def remaining(self) -> float:
        return self.policy.deadline - (time.monotonic() - self._start)

    def _wait(self, seconds: float, url: str) -> None:
        if seconds > self.remaining():
            raise FetchError("deadline", f"the run's deadline of {self.policy.deadline:.0f}s would pass while "
                             f"waiting {seconds:.1f}s to retry", url)
        if seconds > 0:
            self.waited += seconds
            self.sleep(seconds)

    def _throttle(self, host: str, url: str) -> None:
        if self.policy.rate <= 0:
            return
        now = time.monotonic()
        due = self._next.get(host, now)
        if due > now:
            self._wait(due - now, url)
        self._next[host] = max(due, now) + 1.0 / self.policy.rate

    def get(self, url: str, validators: Mapping[str, str] | None = None,
            headers: Mapping[str, str] | None = None) -> Response:
        """GET, conditionally when validators of a previous response are given (304 -> not_modified)."""
        extra = dict(headers or {})
        if validators:
            if validators.get("etag"):
                extra["If-None-Match"] = validators["etag"]
            if validators.get("last_modified"):
                extra["If-Modified-Since"] = validators["last_modified"]
        return self.request(url, headers=extra)

    def request(self, url: str, *, method: str = "GET", data: bytes | None = None,
                headers: Mapping[str, str] | None = None, retried: frozenset[int] = RETRIED) -> Response:
        """`retried`: the statuses tried again (a SOAP service answering an expired token with 500 leaves 500
        out: the caller renews the token instead)."""
        parsed = urllib.parse.urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise FetchError("bad_url", "only http and https URLs are fetched", url)
        attempt = 0
        while True:
            if self.remaining() <= 0:
                raise FetchError("deadline", f"the run's deadline of {self.policy.deadline:.0f}s passed", url)
            self._throttle(parsed.netloc, url)
            req = urllib.request.Request(url, data=data, method=method,
                                         headers={"User-Agent": USER_AGENT, **self.headers, **(headers or {})})
            self.requests += 1
            try:
                with self._opener.open(req, timeout=min(self.policy.timeout, max(self.remaining(), 0.1))) as resp:
                    body = resp.read(self.policy.max_bytes + 1)
                    if len(body) > self.policy.max_bytes:
                        raise FetchError("too_large", f"more than {self.policy.max_bytes} bytes", url)
                    return Response(resp.status, _headers(resp.headers), body, resp.geturl())
            except urllib.error.HTTPError as exc:
                if exc.code == 304:
                    return Response(304, _headers(exc.headers), b"", url)
                detail = f"HTTP {exc.code} {exc.reason}"
                if exc.code not in retried or attempt >= self.policy.retries:
                    tried = f" after {attempt + 1} attempts" if attempt else ""
                    raise FetchError("rate_limited" if exc.code == 429 else "http_error", detail + tried,
                                     url) from None
                asked = retry_after(exc.headers.get("Retry-After") if exc.headers else None)
                if asked is not None and asked > self.policy.max_wait:
                    raise FetchError("rate_limited", f"{detail}: Retry-After asks {asked:.0f}s, more than the "
                                     f"{self.policy.max_wait:.0f}s this source waits", url) from None
                self._wait(asked if asked is not None else self.policy.backoff * 2 ** attempt, url)
            except FetchError:
                raise
            except (urllib.error.URLError, OSError, TimeoutError) as exc:
                reason = getattr(exc, "reason", exc)
                if attempt >= self.policy.retries:
                    raise FetchError("network_error", f"{reason} (after {attempt + 1} attempts)", url) from None
                self._wait(self.policy.backoff * 2 ** attempt, url)
            attempt += 1


def _headers(message: Any) -> dict[str, str]:
    """Header names in lower case (a server may write ETag or Etag)."""
    return {k.lower(): v for k, v in message.items()} if message is not None else {}


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")

"""One HTTP exchange of the model client: over by its deadline, within its byte limit, whatever the endpoint does.

Part of the model client (evaluation.client): the only other place network code for models lives. A read
timeout alone is per read, so an endpoint sending a byte a second would never trip it; here every part of
an exchange answers to one deadline instead:

- the connections are opened by `_DeadlineBackend`, so the connect, every write and every read (the status
  line and the headers as much as the body) gets at most the time left, and the socket is known to the
  transfer from its connect on;
- the body is read as a stream, counted against `max_bytes` (a declared Content-Length over it is refused
  before the body is read), and checked against the deadline chunk by chunk;
- the exchange runs in a worker thread that the caller waits for only until the deadline, then shuts the
  socket under it, whatever the worker is blocked on.

`exchange` is the entry point; `DeadlineExceeded` and `TooLarge` are what it raises besides the SDK's and
httpx's own errors.
"""

from __future__ import annotations

import contextlib
import contextvars
import socket
import ssl
import threading
import time
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import httpcore2
import httpx2
import openai

_CHUNK = 64 * 1024


class DeadlineExceeded(Exception):
    """The exchange was not over by its deadline."""


class TooLarge(Exception):
    """The reply body passed max_reply_bytes; not read further."""

    def __init__(self, size: int, limit: int, *, declared: bool) -> None:
        what = f"{size} bytes" if declared else f"more than {limit} bytes"
        super().__init__(f"reply of {what} exceeds max_reply_bytes ({limit} bytes); not read further")


class Transfer:
    """The limits of the transfer in flight in this context, read by the httpx hooks of the SDK client."""

    def __init__(self, deadline: float, max_bytes: int) -> None:
        self.deadline = deadline
        self.max_bytes = max_bytes
        self.read = 0
        self.aborted = False
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def check(self) -> None:
        if self.aborted or self.remaining() <= 0:
            raise DeadlineExceeded

    def count(self, n: int) -> None:
        self.read += n
        if self.read > self.max_bytes:
            raise TooLarge(self.read, self.max_bytes, declared=False)

    def attach(self, sock: socket.socket | None) -> None:
        with self._lock:
            self._sock = sock
            late = self.aborted
        if late:
            self.abort()

    def abort(self) -> None:
        """Wake a read blocked on the socket: the deadline has passed."""
        with self._lock:
            self.aborted = True
            sock = self._sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


_TRANSFER: contextvars.ContextVar[Transfer | None] = contextvars.ContextVar("etalon_transfer", default=None)


class _BoundedStream(httpx2.SyncByteStream):
    """The raw body, chunk by chunk, against the transfer's deadline and byte limit."""

    def __init__(self, inner: httpx2.SyncByteStream, transfer: Transfer) -> None:
        self._inner = inner
        self._transfer = transfer

    def __iter__(self) -> Any:
        for chunk in self._inner:
            self._transfer.count(len(chunk))
            self._transfer.check()
            yield chunk

    def close(self) -> None:
        self._inner.close()

    @property
    def elapsed(self) -> Any:
        return getattr(self._inner, "elapsed", None)


class _DeadlineStream(httpcore2.NetworkStream):
    """A connection whose every read and write gets no more than the time left to the transfer in flight.

    A read timeout alone is per read: a byte a second would keep it alive forever. Bounding each read by
    what is left of the deadline makes the whole exchange end at the deadline, whichever part trickles
    (the status line, the headers or the body), and registering the socket with the transfer lets the
    caller's watchdog shut it even before any header has arrived.
    """

    def __init__(self, inner: httpcore2.NetworkStream) -> None:
        self._inner = inner

    def _left(self, timeout: float | None, expired: type[Exception]) -> float | None:
        transfer = _TRANSFER.get()
        if transfer is None:
            return timeout
        sock = self._inner.get_extra_info("socket")
        transfer.attach(sock if isinstance(sock, socket.socket) else None)
        left = transfer.remaining()
        if left <= 0 or transfer.aborted:
            raise expired("the call's deadline has passed")
        return left if timeout is None else min(timeout, left)

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, self._left(timeout, httpcore2.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, self._left(timeout, httpcore2.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore2.NetworkStream:
        inner = self._inner.start_tls(ssl_context, server_hostname, self._left(timeout, httpcore2.ConnectTimeout))
        return _DeadlineStream(inner)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _DeadlineBackend(httpcore2.NetworkBackend):
    """Opens connections under the transfer's deadline and hands out `_DeadlineStream`s."""

    def __init__(self, inner: httpcore2.NetworkBackend) -> None:
        self._inner = inner

    @staticmethod
    def _connect_timeout(timeout: float | None) -> float | None:
        transfer = _TRANSFER.get()
        if transfer is None:
            return timeout
        left = transfer.remaining()
        if left <= 0 or transfer.aborted:
            raise httpcore2.ConnectTimeout("the call's deadline has passed")
        return left if timeout is None else min(timeout, left)

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> httpcore2.NetworkStream:
        return _DeadlineStream(self._inner.connect_tcp(host, port, self._connect_timeout(timeout), local_address,
                                                       socket_options))

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Iterable[Any] | None = None) -> httpcore2.NetworkStream:
        return _DeadlineStream(self._inner.connect_unix_socket(path, self._connect_timeout(timeout), socket_options))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


@lru_cache(maxsize=1)
def _tls_context() -> ssl.SSLContext:
    """One TLS context for every endpoint: loading the CA bundle costs about 0.1 s each time it is built."""
    return httpx2.create_ssl_context(trust_env=True)


def http_client() -> httpx2.Client:
    """The SDK's HTTP client, its connections opened by `_DeadlineBackend`.

    httpx has no public way to give its transport a network backend, so the backend of the transport's
    connection pool is wrapped in place; should a new httpx lack that attribute, the watchdog in `exchange`
    and the body checks still bound the call, only the socket of a reply whose headers never came is then
    left to its read timeout. Proxies taken from the environment get httpx's own transports (same caveat).
    """
    transport = httpx2.HTTPTransport(verify=_tls_context(), limits=openai.DEFAULT_CONNECTION_LIMITS)
    pool: Any = getattr(transport, "_pool", None)
    backend = getattr(pool, "_network_backend", None)
    if isinstance(backend, httpcore2.NetworkBackend):
        pool._network_backend = _DeadlineBackend(backend)
    return openai.DefaultHttpxClient(transport=transport,
                                     event_hooks={"request": [_on_request], "response": [_on_response]})


def _on_request(request: httpx2.Request) -> None:
    transfer = _TRANSFER.get()
    if transfer is None:
        return
    transfer.check()
    remaining = max(0.001, transfer.remaining())
    timeouts = dict(request.extensions.get("timeout") or {})
    request.extensions["timeout"] = {name: remaining if timeouts.get(name) is None else
                                     min(float(timeouts[name]), remaining)
                                     for name in ("connect", "read", "write", "pool")}


def _on_response(response: httpx2.Response) -> None:
    transfer = _TRANSFER.get()
    if transfer is None:
        return
    network = response.extensions.get("network_stream")
    sock = network.get_extra_info("socket") if network is not None else None
    transfer.attach(sock if isinstance(sock, socket.socket) else None)
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > transfer.max_bytes:
        raise TooLarge(int(declared), transfer.max_bytes, declared=True)
    response.stream = _BoundedStream(response.stream, transfer)  # type: ignore[arg-type]


def exchange(sdk: openai.OpenAI, model: str, messages: list[Any], params: dict[str, Any], *, timeout_s: float,
             deadline: float, max_bytes: int) -> str:
    """The reply body of one try (decoded), the whole exchange over by `deadline` (time.monotonic()).

    The caller waits no longer than the deadline, whatever the worker thread is blocked on (a connect,
    a read, the pool), then shuts the socket under it; the worker's own checks end it soon after.
    """
    transfer = Transfer(deadline, max_bytes)
    box: dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        _TRANSFER.set(transfer)
        try:
            box["raw"] = _read(sdk, model, messages, params, timeout_s, transfer)
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=work, name="etalon-model-call", daemon=True).start()
    if not done.wait(max(0.0, transfer.remaining())):
        transfer.abort()
        raise DeadlineExceeded
    if "error" in box:
        raise box["error"]
    raw: str = box["raw"]
    return raw


def _read(sdk: openai.OpenAI, model: str, messages: list[Any], params: dict[str, Any], timeout_s: float,
          transfer: Transfer) -> str:
    """Runs in the worker thread: one HTTP exchange, the body read in chunks (decoded) under the limits."""
    with sdk.chat.completions.with_streaming_response.create(
            model=model, messages=messages, timeout=timeout_s, **params) as response:
        chunks: list[bytes] = []
        size = 0
        for chunk in response.http_response.iter_bytes(_CHUNK):
            size += len(chunk)
            if size > transfer.max_bytes:  # decoded size: a small compressed body may unpack to a big one
                raise TooLarge(size, transfer.max_bytes, declared=False)
            transfer.check()
            chunks.append(chunk)
    return b"".join(chunks).decode("utf-8")

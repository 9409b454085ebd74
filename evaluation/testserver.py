"""A real OpenAI-compatible HTTP server on loopback, for tests, demos and benchmarks.

Model tests must exercise the real `openai` client, the real HTTP stack and our real retry code, so instead
of mocks this server answers /v1/chat/completions from scripted rules keyed on the request and can inject
the faults real endpoints produce (429 with Retry-After, 5xx, slow or hung responses, malformed JSON,
refusals) and the hostile ones a broken or malicious endpoint produces: any body of any shape with any
status (`body=`, `status=`), a reply trickled one byte at a time after its headers (`fault="trickle"`)
or with its status line and headers trickled too (`fault="trickle_head"`), a reply that stops halfway
through its body and keeps the connection open (`fault="stall"`), and a huge reply streamed without being
built in memory (`fault="huge"`, `size=`, with or without a Content-Length). `MuteServer` is the endpoint
that accepts connections and never reads or answers. The server keeps a log of every request body, its
headers and when it arrived, so tests can assert what was sent and when.

    with TestServer([Rule(contains="наследство", reply="...")], latency_s=0.2) as server:
        server.base_url   # http://127.0.0.1:<port>/v1

or `python -m evaluation.testserver --port 8765 --rules rules.yaml`.
"""

from __future__ import annotations

import argparse
import json
import select
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Literal

import yaml

Fault = Literal["400", "401", "429", "500", "503", "slow", "hang", "malformed", "refusal", "empty", "trickle",
                "trickle_head", "stall", "huge"]
Reply = str | Callable[[dict[str, Any]], str]


@dataclass
class Rule:
    """First matching rule wins. All given conditions must hold; `times` limits how often it fires."""

    contains: str | None = None          # substring of any message's content
    system_contains: str | None = None   # substring of the system messages only
    model: str | None = None
    seed: int | None = None
    reply: Reply | None = None           # content, or a function of the request body
    fault: Fault | None = None
    times: int | None = None
    retry_after: float | None = 1.0      # for 429 / 503
    delay_s: float = 0.0                 # for "slow"; for the trickles the pause between bytes (1 s if 0)
    logprob: float = -0.1                # per reply token, when the request asks for logprobs
    status: int = 200                    # with `body`
    body: Any = None                     # sent as is: bytes or str verbatim, anything else as JSON
    size: int = 50 * 1024 * 1024         # for "huge": bytes of answer text
    declare_length: bool = True          # for "huge": send Content-Length, or stream it chunked
    hits: int = field(default=0, compare=False)

    def matches(self, body: dict[str, Any]) -> bool:
        if self.times is not None and self.hits >= self.times:
            return False
        messages = body.get("messages") or []
        if self.contains is not None and not any(self.contains in _text(m) for m in messages):
            return False
        if self.system_contains is not None and not any(
                self.system_contains in _text(m) for m in messages if m.get("role") == "system"):
            return False
        if self.model is not None and body.get("model") != self.model:
            return False
        return self.seed is None or body.get("seed") == self.seed


@dataclass(frozen=True)
class LoggedRequest:
    path: str
    headers: dict[str, str]          # names in lower case
    body: dict[str, Any] | None
    received_at: float = 0.0         # time.time() when the request was read

    def text(self) -> str:
        """Everything the model would read: all message contents joined."""
        if not self.body:
            return ""
        return "\n".join(_text(m) for m in self.body.get("messages") or [])


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return str(content or "")


class TestServer:
    """Start with start() or a `with` block; `requests` is the log, `base_url` ends in /v1."""

    __test__ = False  # not a pytest test class

    def __init__(self, rules: Sequence[Rule] = (), *, latency_s: float = 0.0, default_reply: str = "OK",
                 host: str = "127.0.0.1", port: int = 0, hang_s: float = 60.0) -> None:
        self.rules = list(rules)
        self.latency_s = latency_s
        self.default_reply = default_reply
        self.hang_s = hang_s
        self.requests: list[LoggedRequest] = []
        self.hangups: list[float] = []   # time.time() when a client gave up on a slow, stalled or hung reply
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = ThreadingHTTPServer((host, port), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> TestServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), name="testserver",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # releases hung handlers
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> TestServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def chat_requests(self) -> list[LoggedRequest]:
        with self._lock:
            return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def clear(self) -> None:
        with self._lock:
            self.requests.clear()

    # -- request handling ---------------------------------------------------------------------------

    def _pick(self, body: dict[str, Any]) -> Rule | None:
        with self._lock:
            for rule in self.rules:
                if rule.matches(body):
                    rule.hits += 1
                    return rule
        return None

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body go out as separate writes

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/_requests"):  # the log's size, for out-of-process use
                    self._json(200, {"chat_requests": len(server.chat_requests())})
                elif self.path.rstrip("/").endswith("/models"):
                    self._json(200, {"object": "list", "data": [{"id": "test-model", "object": "model"}]})
                else:
                    self._json(404, {"error": {"message": "not found"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                with server._lock:
                    server.requests.append(LoggedRequest(
                        self.path, {k.lower(): v for k, v in self.headers.items()}, body, time.time()))
                if not self.path.rstrip("/").endswith("/chat/completions") or not isinstance(body, dict):
                    self._json(400 if body is None else 404, {"error": {"message": "bad request"}})
                    return
                if server.latency_s:
                    time.sleep(server.latency_s)
                rule = server._pick(body)
                self._respond(rule, body)

            def _respond(self, rule: Rule | None, body: dict[str, Any]) -> None:
                fault = rule.fault if rule else None
                if rule is not None and rule.body is not None:
                    raw = rule.body
                    data = raw if isinstance(raw, bytes) else raw.encode("utf-8") if isinstance(raw, str) else \
                        json.dumps(raw, ensure_ascii=False).encode("utf-8")
                    return self._raw(rule.status, data)
                if fault in ("trickle", "trickle_head") and rule:
                    return self._trickle(self._completion_bytes(body, rule.reply), rule.delay_s or 1.0,
                                         head_too=fault == "trickle_head")
                if fault == "stall" and rule:
                    return self._stall(self._completion_bytes(body, rule.reply))
                if fault == "huge" and rule:
                    return self._huge(body, rule.size, rule.declare_length)
                if fault in ("400", "401", "429", "500", "503"):
                    headers = {"retry-after": f"{rule.retry_after:g}"} if rule and rule.retry_after else {}
                    self._json(int(fault), {"error": {"message": f"injected {fault}"}}, headers)
                    return
                if fault == "hang":
                    self._wait(server.hang_s)
                    return self._close()
                if fault == "slow" and rule:
                    time.sleep(rule.delay_s)
                if fault == "malformed":
                    return self._raw(200, b'{"id": "x", "choices": [ {"message": ')
                content: str | None
                refusal = None
                if fault == "refusal":
                    content, refusal = None, "I'm sorry, I can't help with that."
                elif fault == "empty":
                    content = ""
                elif rule is not None and rule.reply is not None:
                    content = rule.reply(body) if callable(rule.reply) else rule.reply
                else:
                    content = server.default_reply
                self._json(200, _completion(body, content, refusal, len(server.requests), rule))

            def _completion_bytes(self, body: dict[str, Any], reply: Reply | None) -> bytes:
                content = (reply(body) if callable(reply) else reply) if reply is not None else server.default_reply
                payload = _completion(body, content, None, len(server.requests))
                return json.dumps(payload, ensure_ascii=False).encode("utf-8")

            def _trickle(self, data: bytes, pause_s: float, *, head_too: bool = False) -> None:
                """Headers at once (or trickled too), then the body one byte per pause: alive, never done in time."""
                head = (b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                        b"content-length: %d\r\n\r\n" % len(data))
                try:
                    if head_too:
                        data = head + data
                    else:
                        self.wfile.write(head)
                        self.wfile.flush()
                    for i in range(len(data)):
                        if self._wait(pause_s):
                            break
                        self.wfile.write(data[i:i + 1])
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True

            def _stall(self, data: bytes) -> None:
                """Headers and the first half of the body, then silence on an open connection until stopped."""
                try:
                    self.wfile.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                                     b"content-length: %d\r\n\r\n" % len(data) + data[:len(data) // 2])
                    self.wfile.flush()
                    self._wait(server.hang_s)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True

            def _huge(self, body: dict[str, Any], size: int, declare_length: bool) -> None:
                """A valid completion with `size` bytes of text, streamed in pieces, never built whole."""
                head, tail = json.dumps(_completion(body, "\x00", None, len(server.requests))).encode().split(
                    b"\\u0000")
                piece = b"x" * 65536
                try:
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    if declare_length:
                        self.send_header("content-length", str(len(head) + size + len(tail)))
                    else:
                        self.send_header("transfer-encoding", "chunked")
                    self.end_headers()
                    parts = [head, *([piece] * (size // len(piece))), b"x" * (size % len(piece)), tail]
                    for part in parts:
                        if server._stopping.is_set():
                            break
                        if not part:
                            continue
                        self.wfile.write(part if declare_length else b"%x\r\n%s\r\n" % (len(part), part))
                    if not declare_length:
                        self.wfile.write(b"0\r\n\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True

            def _wait(self, seconds: float) -> bool:
                """Sleeps `seconds`; True at once if the server stops or the client hangs up (logged)."""
                until = time.monotonic() + seconds
                while not server._stopping.is_set():
                    left = until - time.monotonic()
                    if left <= 0:
                        return False
                    try:
                        readable, _, _ = select.select([self.connection], [], [], min(left, 0.05))
                        gone = bool(readable) and not self.connection.recv(1, socket.MSG_PEEK)
                    except OSError:
                        gone = True
                    if gone:
                        with server._lock:
                            server.hangups.append(time.time())
                        return True
                    if readable:  # bytes the client sent ahead: not a hang-up, and not a reason to spin
                        time.sleep(min(left, 0.05))
                return True

            def _json(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                self._raw(status, json.dumps(payload, ensure_ascii=False).encode("utf-8"), headers)

            def _raw(self, status: int, data: bytes, headers: dict[str, str] | None = None) -> None:
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for name, value in (headers or {}).items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout): nothing to answer

            def _close(self) -> None:
                self.close_connection = True

        return Handler


class MuteServer:
    """An endpoint that accepts TCP connections and never reads a byte or answers: a wedged proxy.

    The kernel completes the handshake, so the client's connect succeeds and its request is sent; then
    nothing. Connections are held open until stop(). `base_url` ends in /v1 like TestServer's.
    """

    __test__ = False

    def __init__(self, host: str = "127.0.0.1") -> None:
        self._sock = socket.create_server((host, 0))
        self._held: list[socket.socket] = []
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._accept, name="muteserver", daemon=True)
        self.connections = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._sock.getsockname()[1]}/v1"

    def _accept(self) -> None:
        self._sock.settimeout(0.05)
        while not self._stopping.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self._held.append(conn)
            self.connections += 1

    def start(self) -> MuteServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=5)
        for conn in self._held:
            conn.close()
        self._sock.close()

    def __enter__(self) -> MuteServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _logprobs(body: dict[str, Any], content: str | None, rule: Rule | None) -> dict[str, Any] | None:
    """Token log-probabilities as OpenAI returns them, one per whitespace token, when the request asks."""
    if not body.get("logprobs") or not content:
        return None
    value = rule.logprob if rule is not None else -0.1
    return {"content": [{"token": t, "logprob": value, "bytes": None, "top_logprobs": []} for t in content.split()]}
def _completion(body: dict[str, Any], content: str | None, refusal: str | None, n: int,
                rule: Rule | None = None) -> dict[str, Any]:
    prompt = sum(len(_text(m)) for m in body.get("messages") or []) // 4 + 1
    completion = len(content or refusal or "") // 4 + 1
    return {
        "id": f"chatcmpl-{n}", "object": "chat.completion",
        "created": int(time.time()), "model": body.get("model", "test-model"),
        "choices": [{"index": 0, "finish_reason": "stop", "logprobs": _logprobs(body, content, rule),
                     "message": {"role": "assistant", "content": content, "refusal": refusal}}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
    }


def rules_from_yaml(path: Path | str) -> list[Rule]:
    """A YAML list of rules with the fields of `Rule` (replies as plain strings)."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or []
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a list of rules")
    rules = []
    for i, item in enumerate(data, 1):
        if not isinstance(item, dict):
            raise ValueError(f"{path}: rule {i}: expected a mapping")
        try:
            rules.append(Rule(**item))
        except TypeError as exc:
            raise ValueError(f"{path}: rule {i}: {exc}") from None
    return rules


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.testserver", description=__doc__)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--rules", type=Path)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added to every completion")
    parser.add_argument("--default-reply", default="OK")
    args = parser.parse_args(argv)
    rules = rules_from_yaml(args.rules) if args.rules else []
    server = TestServer(rules, latency_s=args.latency, default_reply=args.default_reply, port=args.port)
    server.start()
    print(f"serving {server.base_url}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

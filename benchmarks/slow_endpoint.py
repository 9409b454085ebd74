"""How long a slow or wedged endpoint can hold one call, against the documented bound (issue #22 §3).

A call to a model endpoint ends within timeout_s x (retries + 1) from the moment it gets its turn on the
endpoint: every try, the pauses between tries and any Retry-After wait included (docs/formats.md,
"systems.yaml"). This script starts loopback endpoints that misbehave in the ways real ones do and prints,
for each, the elapsed time of one call against that bound as a ratio (goal <= 1):

- client: one answer call per behaviour (a body trickled a byte a second, headers trickled too, a body
  that stalls halfway, a server that reads the request and never answers, one that never even reads it,
  429 and 503 with a Retry-After beyond the budget), through `ModelClient.call` as `etalon update` makes it;
- judge: one answer judged by a trickling judge (every element, both runs), against
  ceil(judge calls / concurrency) x bound;
- update: `etalon update` as a command on a one-etalon project whose system trickles, against the same
  update with a prompt endpoint in the same run, and inside it the answer call's own span (the server logs
  the first request and each hang-up of the client), against the bound.

Usage: .venv/bin/python benchmarks/slow_endpoint.py [--timeout 3] [--retries 4] [--no-client] [--no-judge]
[--no-update]
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from etalons.model import Etalon  # noqa: E402
from evaluation.client import ModelClient  # noqa: E402
from evaluation.elements import elements_for  # noqa: E402
from evaluation.judge import judge  # noqa: E402
from evaluation.records import Answer  # noqa: E402
from evaluation.systems import JudgeConfig, SystemConfig  # noqa: E402
from evaluation.testserver import MuteServer, Rule, TestServer  # noqa: E402

SAMPLE = ROOT / "etalons" / "sample"
CODE = "NAS-01"
ANSWER = "Наследство принято фактически (п. 2 ст. 1153 ГК РФ): срок не пропущен, в суд идти не нужно."

BEHAVIOURS: list[tuple[str, Callable[[], Any]]] = [
    ("body, a byte a second", lambda: TestServer([Rule(fault="trickle", delay_s=1.0)])),
    ("headers, a byte a second", lambda: TestServer([Rule(fault="trickle_head", delay_s=1.0)])),
    ("stalls halfway through", lambda: TestServer([Rule(fault="stall")], hang_s=600)),
    ("reads, never answers", lambda: TestServer([Rule(fault="hang")], hang_s=600)),
    ("never reads", MuteServer),
    ("429, Retry-After 60 s", lambda: TestServer([Rule(fault="429", retry_after=60)])),
    ("503, Retry-After 10 s", lambda: TestServer([Rule(fault="503", retry_after=10)])),
]


def bound_of(timeout_s: float, retries: int) -> float:
    return timeout_s * (retries + 1)


def client_calls(timeout_s: float, retries: int) -> None:
    """The first row is the baseline (a prompt endpoint); it also pays the process's one-time setup."""
    bound = bound_of(timeout_s, retries)
    print(f"one answer call, timeout_s = {timeout_s:g}, retries = {retries}: bound {bound:g} s")
    print(f"  {'endpoint':26} {'elapsed':>8} {'ratio':>6} {'tries':>5}  error")
    prompt: tuple[str, Callable[[], Any]] = ("prompt (baseline)", lambda: TestServer(default_reply=ANSWER))
    for name, make in [prompt, *BEHAVIOURS]:
        with make() as server:
            system = SystemConfig.model_validate({"id": "slow", "base_url": server.base_url, "model": "m",
                                                  "timeout_s": timeout_s, "retries": retries})
            client = ModelClient(None)
            started = time.monotonic()
            result = client.call(system, [{"role": "user", "content": "Я наследник или уже опоздал?"}])
            took = time.monotonic() - started
        print(f"  {name:26} {took:7.1f}s {took / bound:6.3f} {result.tries:5}  {result.error or 'ok'}",
              flush=True)


def judge_call(timeout_s: float, retries: int) -> None:
    etalon = Etalon.model_validate(yaml.safe_load((SAMPLE / f"{CODE}.yaml").read_text(encoding="utf-8")))
    elements = elements_for(etalon, etalon.methodology or "lesto")
    answer = Answer(system="s", benchmark="b", code=etalon.code, version=etalon.version,
                    question_version=etalon.question_version, attempt=1, text=ANSWER)
    took: dict[str, float] = {}
    for name, rules in (("prompt", [Rule(reply='{"verdict": "yes", "quote": null, "reason": "-"}')]),
                        ("trickle", [Rule(fault="trickle", delay_s=1.0)])):
        with TestServer(rules) as server:
            cfg = JudgeConfig.model_validate({"base_url": server.base_url, "model": "j", "timeout_s": timeout_s,
                                              "retries": retries, "json_schema": False})
            started = time.monotonic()
            judgments = judge(etalon, answer, elements, {}, cfg, ModelClient(None))
            took[name] = time.monotonic() - started
    calls = len(judgments)
    bound = math.ceil(calls / cfg.concurrency) * bound_of(timeout_s, retries)
    errors = sum(1 for j in judgments if j.verdict is None and j.error)
    print(f"judging one answer with a trickling judge: {calls} calls ({len(elements)} elements x 2 runs), "
          f"concurrency {cfg.concurrency}: {took['trickle']:.1f} s against ceil({calls}/{cfg.concurrency}) x "
          f"{bound_of(timeout_s, retries):g} = {bound:g} s, ratio {took['trickle'] / bound:.3f}; {errors} error "
          f"judgments (a prompt judge, first: {took['prompt']:.2f} s)", flush=True)


def _project(root: Path, url: str, timeout_s: float, retries: int) -> dict[str, str]:
    bench = root / "etalons" / "bench"
    bench.mkdir(parents=True)
    shutil.copy(SAMPLE / "benchmark.yaml", bench / "benchmark.yaml")
    shutil.copy(SAMPLE / f"{CODE}.yaml", bench / f"{CODE}.yaml")
    systems = {"systems": [{"id": "slow", "kind": "openai", "base_url": url, "model": "m", "attempts": 1,
                            "timeout_s": timeout_s, "retries": retries}]}
    (root / "systems.yaml").write_text(yaml.safe_dump(systems), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ETALON_", "DAGSTER_"))}
    env.update(ETALON_HOME=str(root / "home"), ETALON_ETALONS=str(root / "etalons"),
               ETALON_SYSTEMS=str(root / "systems.yaml"), PYTHONWARNINGS="ignore")
    return env


def _update(root: Path, env: dict[str, str]) -> tuple[float, int, list[tuple[Any, ...]]]:
    command = [str(Path(sys.executable).with_name("etalon")), "update"]
    started = time.monotonic()
    done = subprocess.run(command, env=env, cwd=root, capture_output=True, text=True, timeout=900, check=False)
    took = time.monotonic() - started
    con = duckdb.connect(str(root / "home" / "etalon.duckdb"), read_only=True)
    try:
        rows = con.execute("select status, error from eval.answers").fetchall()
    finally:
        con.close()
    return took, done.returncode, rows


def update_command(timeout_s: float, retries: int) -> None:
    bound = bound_of(timeout_s, retries)
    with tempfile.TemporaryDirectory(prefix="etalon-slow-") as tmp:
        with TestServer(default_reply=ANSWER) as prompt:
            base, base_rc, _ = _update(Path(tmp) / "prompt", _project(Path(tmp) / "prompt", prompt.base_url,
                                                                        timeout_s, retries))
        with TestServer([Rule(fault="trickle", delay_s=1.0)]) as slow:
            root = Path(tmp) / "slow"
            env = _project(root, slow.base_url, timeout_s, retries)
            took, rc, rows = _update(root, env)
            asked = len(slow.chat_requests())
            time.sleep(0.2)   # the last hang-up is noticed within 50 ms
            span = max(slow.hangups, default=float("nan")) - slow.chat_requests()[0].received_at
            again, again_rc, _ = _update(root, env)
            asked_again = len(slow.chat_requests()) - asked
    cost = took - base
    print(f"etalon update, one etalon, its system trickling (timeout_s = {timeout_s:g}, retries = {retries}): "
          f"{took:.1f} s (exit {rc}) against {base:.1f} s with a prompt endpoint (exit {base_rc}); "
          f"the difference {cost:.1f} s against the bound {bound:g} s, ratio {cost / bound:.2f}", flush=True)
    print(f"  inside it, the answer call ran {span:.1f} s from its first request to the client's last hang-up: "
          f"ratio {span / bound:.3f}", flush=True)
    print(f"  answer rows: {rows}; {asked} tries; the next update asked again ({asked_again} tries, "
          f"{again:.1f} s, exit {again_rc})", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=3.0)
    parser.add_argument("--retries", type=int, default=4)
    parser.add_argument("--no-client", action="store_true")
    parser.add_argument("--no-update", action="store_true")
    parser.add_argument("--no-judge", action="store_true")
    args = parser.parse_args(argv)
    if not args.no_client:
        client_calls(args.timeout, args.retries)
    if not args.no_judge:
        judge_call(args.timeout, args.retries)
    if not args.no_update:
        update_command(args.timeout, args.retries)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

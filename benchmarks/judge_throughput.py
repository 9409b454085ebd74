"""Judge throughput against the test server with a fixed latency.

The server runs in its own process (`python -m evaluation.testserver`), as a real endpoint would: in the
same process it would compete with the judge for the interpreter lock and bill its own CPU to the judge.

Prints wall time / ideal, where ideal = calls x latency / concurrency (goal <= 1.25), then runs the same
judging again on the same call cache with a fresh client: it must make no call and take under 5% of the
first run. Usage: .venv/bin/python benchmarks/judge_throughput.py [--elements 40] [--concurrency 8]
[--latency 0.2]
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from etalons.model import Etalon  # noqa: E402
from evaluation.client import ModelClient  # noqa: E402
from evaluation.elements import Element  # noqa: E402
from evaluation.judge import judge  # noqa: E402
from evaluation.records import Answer  # noqa: E402
from evaluation.systems import JudgeConfig  # noqa: E402

ANSWER = "Срок можно восстановить в суде, если причина пропуска уважительная."
ETALON = Etalon.model_validate({
    "code": "BENCH-1", "title": "bench", "jurisdiction": "ru", "branch": "inheritance", "difficulty": 1,
    "type": "application", "question": "Можно ли восстановить срок принятия наследства?",
    "decisive_issue": "восстановление срока", "reference_answer": "Можно, в суде.",
})


def run(base_url: str, cache: Path, elements: list[Element], concurrency: int) -> tuple[float, dict[str, int]]:
    cfg = JudgeConfig.model_validate({"base_url": base_url, "model": "judge", "concurrency": concurrency,
                                      "timeout_s": 30})
    client = ModelClient(cache)
    answer = Answer(system="s", benchmark="b", code=ETALON.code, version=ETALON.version,
                    question_version=ETALON.question_version, attempt=1, text=ANSWER)
    started = time.perf_counter()
    out = judge(ETALON, answer, elements, {}, cfg, client)
    elapsed = time.perf_counter() - started
    assert all(j.verdict == "yes" and j.quote_found for j in out), "the scripted judge should confirm every element"
    return elapsed, client.stats.as_dict()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _warm_up(base_url: str) -> None:
    """One untimed, uncached call: the SDK's lazy imports and first connection are not throughput."""
    endpoint = JudgeConfig.model_validate({"base_url": base_url, "model": "judge"})
    ModelClient(None).call(endpoint, [{"role": "user", "content": "warm-up"}])


def _served(base_url: str) -> int:
    with urllib.request.urlopen(f"{base_url}/_requests", timeout=10) as response:
        return int(json.load(response)["chat_requests"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--elements", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--latency", type=float, default=0.2)
    args = parser.parse_args()
    elements = [Element(f"branch:{i}", "branch", f"ветвь {i}") for i in range(1, args.elements + 1)]
    reply = json.dumps({"verdict": "yes", "quote": "Срок можно восстановить в суде", "reason": "r"},
                       ensure_ascii=False)
    with tempfile.TemporaryDirectory() as tmp:
        rules = Path(tmp) / "rules.yaml"
        rules.write_text(yaml.safe_dump([{"reply": reply}], allow_unicode=True), encoding="utf-8")
        port = _free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "evaluation.testserver", "--port", str(port), "--rules", str(rules),
             "--latency", str(args.latency)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        try:
            assert server.stdout is not None and "serving" in server.stdout.readline()
            base_url = f"http://127.0.0.1:{port}/v1"
            _warm_up(base_url)
            before = _served(base_url)
            first, stats1 = run(base_url, Path(tmp) / "calls", elements, args.concurrency)
            calls = _served(base_url) - before
            second, stats2 = run(base_url, Path(tmp) / "calls", elements, args.concurrency)
            calls_again = _served(base_url) - before - calls
        finally:
            server.terminate()
            server.wait(timeout=10)
    ideal = calls * args.latency / args.concurrency
    print(f"elements={args.elements} runs=2 calls={calls} latency={args.latency:g}s concurrency={args.concurrency}")
    print(f"first run:  {first:.3f}s  ideal {ideal:.3f}s  ratio wall/ideal = {first / ideal:.3f}  (goal <= 1.25)"
          f"  stats {stats1}")
    print(f"second run: {second:.3f}s  calls made {calls_again}  ratio second/first = {second / first:.4f}"
          f"  (goal < 0.05)  stats {stats2}")
    ok = first / ideal <= 1.25 and calls_again == 0 and second / first < 0.05
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""One of two Etalon processes asking the same questions of the same endpoint through one call cache.

    python -m tests.faults.inflight_worker BASE_URL CACHE_DIR N

Prints `ready` when it is about to ask, then one JSON line: when it started and finished asking, and per
answer its code, status, text and whether it came from the cache. Run from the repository root.
"""

from __future__ import annotations

import json
import sys
import time

from etalons.model import Etalon
from evaluation.answering import ask_all
from evaluation.client import ModelClient
from evaluation.systems import SystemConfig
from tests.judge.conftest import ETALON_DATA


def etalons(n: int) -> list[Etalon]:
    return [Etalon.model_validate({**ETALON_DATA, "code": f"INF-{i}",
                                   "question": f"Вопрос номер {i}: можно ли восстановить срок принятия наследства?"})
            for i in range(n)]


def main(argv: list[str]) -> int:
    url, cache, n = argv[0], argv[1], int(argv[2])
    system = SystemConfig.model_validate({"id": "sut", "base_url": url, "model": "sut-model", "timeout_s": 30,
                                          "retries": 0, "concurrency": 4})
    client = ModelClient(cache)
    print("ready", flush=True)
    started = time.time()
    answers = ask_all(system, etalons(n), client, "t")
    rows = [[a.code, a.status, a.text, json.loads(a.passport or "{}").get("cached")] for a in answers]
    print(json.dumps({"started": started, "finished": time.time(), "answers": rows}, ensure_ascii=False),
          flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

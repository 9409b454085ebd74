"""How fast the workbench's pages render at the issue's scale: 2,000 etalons x 25 systems, 10,000 open items.

Usage: .venv/bin/python benchmarks/web_pages.py [--demo DIR] [--repeat 5]

A demo warehouse (`etalon demo`, or DIR from an earlier run) is served twice by a real `etalon serve`: as it
is (the baseline, 24 etalons x 3 systems), and with its catalog replaced by one whose views hold the demo's
rows replicated to 2,016 etalons x 25 systems (50,400 cells, 10,000 open review items, 350,000 decisions).
The pages read only the server's snapshot of those views, so this measures the pages' own work (the SQL over
the snapshot and the templates) at that scale; how long the lake's views take to copy into the snapshot is
printed apart (it depends on the lake layout, which the engine redesign changes). Times are the server's own
(`Server-Timing`), medians over the repeats, printed with their ratio to the same page on the demo.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import re
import shutil
import statistics
import sys
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

import duckdb

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.web import harness  # noqa: E402

ETALON_COPIES, SYSTEMS, OPEN_ITEMS = 84, 25, 10_000

# view -> SQL over the demo's catalog giving the replicated rows ({n}: etalon copy, {m}: system number)
SCALE_SQL = {
    "bench.etalons": "SELECT * REPLACE (code || '-' || n AS code) FROM src.bench.etalons, range({E}) t(n)",
    "bench.etalon_history": "SELECT * REPLACE (code || '-' || n AS code) FROM src.bench.etalon_history, range({E}) t(n)",
    "bench.sources": "SELECT * REPLACE (code || '-' || n AS code) FROM src.bench.sources, range({E}) t(n)",
    "bench.signatures": "SELECT * REPLACE (code || '-' || n AS code) FROM src.bench.signatures, range({E}) t(n)",
    "eval.scores": "SELECT * REPLACE (code || '-' || n AS code, 'sys-' || lpad(m::VARCHAR, 2, '0') AS system) "
                   "FROM (SELECT * FROM src.eval.scores WHERE system = 'demo-medium'), range({E}) t(n), range({S}) u(m)",
    "eval.answers": "SELECT * REPLACE (code || '-' || n AS code, 'sys-' || lpad(m::VARCHAR, 2, '0') AS system) "
                    "FROM (SELECT * FROM src.eval.answers WHERE system = 'demo-medium'), range({E}) t(n), range({S}) u(m)",
    "eval.citations": "SELECT * REPLACE (code || '-' || n AS code, 'sys-' || lpad(m::VARCHAR, 2, '0') AS system) "
                      "FROM (SELECT * FROM src.eval.citations WHERE system = 'demo-medium'), range({E}) t(n), range({S}) u(m)",
    "eval.judgments": "SELECT * REPLACE (code || '-' || n AS code, 'sys-' || lpad(m::VARCHAR, 2, '0') AS system) "
                      "FROM (SELECT * FROM src.eval.judgments WHERE system = 'demo-medium'), range({E}) t(n), range({S}) u(m)",
    "raw.candidates": "SELECT * REPLACE (code || '-' || n AS code, 'sys-' || lpad(m::VARCHAR, 2, '0') AS system) "
                      "FROM (SELECT * FROM src.raw.candidates WHERE system = 'demo-medium'), range({E}) t(n), range({S}) u(m)",
    "raw.approvals": "SELECT * FROM src.raw.approvals",
    "eval.decisions": "SELECT * REPLACE (code || '-' || n AS code, 'sys-' || lpad(m::VARCHAR, 2, '0') AS system, "
                      "decision_id || '-' || n || '-' || m AS decision_id) "
                      "FROM (SELECT * FROM src.eval.decisions WHERE system = 'demo-medium'), range({E}) t(n), range({S}) u(m)",
    "eval.leaderboard": "SELECT * REPLACE ('sys-' || lpad(m::VARCHAR, 2, '0') AS system) "
                        "FROM (SELECT * FROM src.eval.leaderboard WHERE system = 'demo-medium'), range({S}) u(m)",
    # open items: one element of each of the first 10,000 cells, ids in the workbench's format
    "eval.review": """
        WITH cells AS (SELECT s.system, s.code, s.version, s.attempt FROM scores_big s ORDER BY code, system
                       LIMIT {OPEN})
        SELECT system || ':' || code || ':' || version || ':' || attempt || ':' || 'branch:2' AS id, system, code,
               version, attempt, 'branch:2' AS target, 'no judge is configured: a human decides' AS why,
               '["yes", "no"]' AS options FROM cells""",
}


def build_scaled_catalog(demo_catalog: Path, target: Path) -> None:
    con = duckdb.connect(str(target))
    con.execute(f"ATTACH '{demo_catalog}' AS src (READ_ONLY)")
    for schema in ("bench", "eval", "raw", "corpus"):
        con.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
    values = {"E": ETALON_COPIES, "S": SYSTEMS, "OPEN": OPEN_ITEMS}
    con.execute("CREATE TEMP TABLE scores_big AS " + SCALE_SQL["eval.scores"].format(**values))
    for view, sql in SCALE_SQL.items():
        con.execute(f"CREATE TABLE {view} AS {sql.format(**values)}")
    con.execute("CHECKPOINT")
    con.close()


def counts(catalog: Path) -> dict[str, int]:
    con = duckdb.connect(str(catalog), read_only=True)
    try:
        return {v: int(con.execute(f"SELECT count(*) FROM {v}").fetchone()[0])  # type: ignore[index]
                for v in ("bench.etalons", "eval.scores", "eval.review", "eval.decisions", "eval.citations")}
    finally:
        con.close()


class Client:
    def __init__(self, url: str) -> None:
        self.url = url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str) -> tuple[float, str]:
        with self.opener.open(self.url + path, timeout=300) as reply:
            body = reply.read().decode("utf-8")
            timing = reply.headers.get("Server-Timing", "")
        found = re.search(r"dur=([0-9.]+)", timing)
        return (float(found.group(1)) if found else float("nan")), body

    def sign_in(self, login: str) -> None:
        _, body = self.get("/login")
        csrf = re.search(r'name="csrf" value="([^"]+)"', body).group(1)  # type: ignore[union-attr]
        data = urllib.parse.urlencode({"csrf": csrf, "login": login, "password": harness.PASSWORD,
                                       "next": "/queue"}).encode()
        self.opener.open(self.url + "/login", data=data, timeout=60).read()


def pages(client: Client) -> dict[str, str]:
    """The pages to time, with real ids taken from the warehouse being served."""
    _, queue = client.get("/queue")
    item = re.search(r'data-id="([^"]+)"', queue).group(1)  # type: ignore[union-attr]
    system, code = item.split(":")[0], item.split(":")[1]
    return {
        "queue": "/queue",
        "queue, filtered": "/queue?" + urllib.parse.urlencode({"situation": "text", "system": system}),
        "queue, page 20": "/queue?page=20",
        "item": "/item?" + urllib.parse.urlencode({"id": item}),
        "etalon": f"/etalons/{code}",
        "etalons": "/etalons",
        "results": "/results",
        "system cells": f"/results/{system}",
    }


def measure(home: Path, repeat: int) -> tuple[dict[str, float], float]:
    """Median server time per page, and how long the server took to copy the views into its snapshot."""
    with harness.serve(home) as server:
        client = Client(server.url)
        client.sign_in("elena")
        chosen = pages(client)
        for path in chosen.values():   # warm: the corpus lookup, the first query plans
            client.get(path)
        out = {}
        for name, path in chosen.items():
            out[name] = statistics.median(client.get(path)[0] for _ in range(repeat))
        return out, float(server.status()["snapshot_seconds"] or 0.0)  # type: ignore[arg-type]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--demo", type=Path, help="a warehouse built by an earlier run (tests/web harness)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="etalon-web-bench-") as tmp:
        demo = args.demo or harness.build_warehouse(Path(tmp) / "demo")
        small = harness.copy_warehouse(demo, Path(tmp) / "small")
        big = harness.copy_warehouse(demo, Path(tmp) / "big")
        scaled = Path(tmp) / "scaled.duckdb"
        build_scaled_catalog(small / "etalon.duckdb", scaled)
        shutil.move(scaled, big / "etalon.duckdb")
        print("scaled catalog:", ", ".join(f"{k} {v:,}" for k, v in counts(big / "etalon.duckdb").items()))
        base, base_load = measure(small, args.repeat)
        scaled_times, scaled_load = measure(big, args.repeat)
        print(f"{'page':<18}{'demo ms':>10}{'scale ms':>10}{'ratio':>8}")
        for name in base:
            print(f"{name:<18}{base[name]:>10.1f}{scaled_times[name]:>10.1f}{scaled_times[name] / base[name]:>8.2f}")
        print(f"snapshot copy of the views: demo {base_load:.2f} s (from the lake's Parquet files), "
              f"scale {scaled_load:.2f} s (from the scaled catalog's tables), in the background after each refresh")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

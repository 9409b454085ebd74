"""A warehouse to review in, a workbench serving it, and a real browser: for the tests and the screenshots.

The warehouse is `etalon demo` once, then made hostile: one system's answer to an etalon holds script tags,
event attributes, a `javascript:` link and broken HTML, and an etalon's title does too (a title change makes no
new version, so every score stays). Each test gets a copy of it (the catalog rebuilt for the copy's lake) and
its own `etalon serve` process on a free loopback port, with its own accounts.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PASSWORD = "correct horse battery staple"
HOSTILE = ('Nu. <script>window.__pwned = 1; alert("xss")</script> Vedeți '
           '<img src=x onerror="window.__pwned = 2"> și <a href="javascript:window.__pwned=3">aici</a> '
           '<b onmouseover="window.__pwned=4">penalitățile</b> <div <p>unclosed </textarea></td>'
           '"><svg onload=window.__pwned=5> art. 77 din Legea nr. 196/2018.')
HOSTILE_TITLE = 'Contravenția <img src=x onerror="window.__pwned=6"> </title><script>window.__pwned=7</script>'
# The accounts every test has: an author who wrote RO-LOC-01 (a pool etalon) and RO-INS-01 (signed by
# her), a reviewer, and a second reviewer for blind double review.
ACCOUNTS = (("mihai", "Mihai Dobre", ["author"]), ("elena", "Elena Vasilescu", ["reviewer"]),
            ("radu", "Radu Constantinescu", ["reviewer", "author"]))


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ETALON_", "DAGSTER_"))}
    env.update(ETALON_HOME=str(home), ETALON_ETALONS=str(home / "etalons"),
               ETALON_SYSTEMS=str(home / "etalons" / "systems.yaml"), DAGSTER_HOME=str(home / "dagster"),
               PYTHONPATH=str(REPO))
    return env


def etalon(home: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args, "--home", str(home)], cwd=REPO,
                          env=_env(home), input=stdin, capture_output=True, text=True, timeout=900)


def build_warehouse(home: Path) -> Path:
    """`etalon demo`, its etalons copied beside it (so edits never touch the repository), made hostile."""
    done = subprocess.run([sys.executable, "-m", "app.cli", "demo", "--home", str(home)], cwd=REPO,
                          env={**_env(home), "ETALON_ETALONS": "", "ETALON_SYSTEMS": ""},
                          capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise RuntimeError(f"etalon demo failed:\n{done.stderr[-3000:]}")
    shutil.copytree(REPO / "etalons" / "sample", home / "etalons" / "sample")
    shutil.copyfile(REPO / "etalons" / "systems.yaml", home / "etalons" / "systems.yaml")
    ctv = home / "etalons" / "sample" / "RO-CTV-01.yaml"
    text = ctv.read_text(encoding="utf-8")
    title = next(line for line in text.splitlines() if line.startswith("title:"))
    ctv.write_text(text.replace(title, "title: " + json.dumps(HOSTILE_TITLE, ensure_ascii=False)), encoding="utf-8")
    answers = home / "hostile.jsonl"
    answers.write_text(json.dumps({"code": "RO-LOC-01", "text": HOSTILE}, ensure_ascii=False) + "\n",
                       encoding="utf-8")
    done = etalon(home, "answers", "import", str(answers), "--system", "demo-weak")
    if done.returncode != 0:
        raise RuntimeError(f"hostile import failed:\n{done.stderr[-3000:]}")
    return home


def copy_warehouse(source: Path, target: Path) -> Path:
    from warehouse.catalog import build_catalog
    from warehouse.lake import Lake

    shutil.copytree(source, target, symlinks=True)
    build_catalog(target / "etalon.duckdb", Lake(target / "lake"))   # the copy's views read the copy's lake
    from app import users

    for login, name, roles in ACCOUNTS:
        users.add(target, login, name, roles, PASSWORD)
    return target


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    url: str
    home: Path
    process: subprocess.Popen[str]

    def status(self) -> dict[str, object]:
        with urllib.request.urlopen(self.url + "/status", timeout=10) as reply:
            data: dict[str, object] = json.loads(reply.read())
            return data

    def wait_refreshed(self, timeout: float = 600) -> None:
        """Until the re-scoring the last action asked for has run (today a whole `etalon update`)."""
        deadline = time.monotonic() + timeout
        while self.status()["refreshing"]:
            if time.monotonic() > deadline:
                raise TimeoutError("the workbench did not finish re-scoring")
            time.sleep(1)


@contextmanager
def serve(home: Path, extra_env: dict[str, str] | None = None) -> Iterator[Server]:
    port = free_port()
    log = open(home / "serve.log", "w", encoding="utf-8")  # noqa: SIM115 - closed below
    process = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--home", str(home), "--port", str(port)],
                               cwd=REPO, env={**_env(home), **(extra_env or {})}, stdout=log,
                               stderr=subprocess.STDOUT, text=True)
    server = Server(f"http://127.0.0.1:{port}", home, process)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                server.status()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("etalon serve did not start:\n" +
                                       (home / "serve.log").read_text(encoding="utf-8")[-3000:]) from None
                time.sleep(0.3)
        yield server
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:   # a re-scoring still running in a throwaway copy
            process.kill()
            process.wait(timeout=10)
        log.close()


def launch_browser(playwright: object) -> object:
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)  # type: ignore[attr-defined]


def sign_in(page: object, server: Server, login: str) -> None:
    page.goto(server.url + "/login")  # type: ignore[attr-defined]
    page.fill("input[name=login]", login)  # type: ignore[attr-defined]
    page.fill("input[name=password]", PASSWORD)  # type: ignore[attr-defined]
    with page.expect_navigation():  # type: ignore[attr-defined]
        page.click("button[type=submit]")  # type: ignore[attr-defined]

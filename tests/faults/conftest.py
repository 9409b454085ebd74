"""A throwaway Etalon project per test: a small benchmark, systems pointing at a loopback model server.

The corpus and etalon stages are materialised once per session into a template warehouse; each test copies it,
so a test pays only for the cells it exercises. Etalon is driven as a user drives it: subprocesses with
ETALON_HOME / ETALON_ETALONS / ETALON_SYSTEMS set, results read through the catalog views read-only.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml

from evaluation.testserver import TestServer

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "etalons" / "sample"
CODES = ("DOG-01", "NAS-01", "ZHK-01")
ETALON_BIN = Path(sys.executable).with_name("etalon")
KEY_ENV = "FAULTS_SUT_KEY"
SECRET = "sk-faults-7f3c9e1d0b5a4c2e8d6f"   # recognisable, so a leak is found by grep


@dataclass
class Project:
    root: Path
    home: Path
    etalons: Path
    systems: Path

    def __post_init__(self) -> None:
        """The home lists the embedded sample as its corpus (a warehouse holds it only when asked)."""
        sources = self.home / "sources.yaml"
        if not sources.exists():
            self.home.mkdir(parents=True, exist_ok=True)
            sources.write_text(yaml.safe_dump({"sources": [{"name": "sample", "kind": "sample"}]}), encoding="utf-8")

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ETALON_", "DAGSTER_"))}
        env.update(ETALON_HOME=str(self.home), ETALON_ETALONS=str(self.etalons), ETALON_SYSTEMS=str(self.systems),
                   PYTHONWARNINGS="ignore", **{KEY_ENV: SECRET}, **extra)
        return env

    def write_systems(self, url: str | None, judge_url: str | None = None, attempts: int = 2,
                      retries: int = 1, concurrency: int = 4, importer: bool = False) -> None:
        systems: list[dict[str, Any]] = []
        if url is not None:
            systems.append({"id": "sut", "kind": "openai", "base_url": url, "model": "sut-model",
                            "api_key_env": KEY_ENV, "attempts": attempts, "params": {"seed": 11},
                            "retries": retries, "concurrency": concurrency, "timeout_s": 10})
        if importer:
            systems.append({"id": "imp", "kind": "import", "attempts": 1})
        data: dict[str, Any] = {"systems": systems}
        if judge_url is not None:
            data["judge"] = {"base_url": judge_url, "model": "judge-model", "api_key_env": KEY_ENV,
                             "retries": retries, "concurrency": concurrency, "timeout_s": 10, "json_schema": False}
        self.systems.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")

    def etalon(self, *cmd: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(ETALON_BIN), *cmd], env=self.env(), capture_output=True, text=True,
                              timeout=timeout, cwd=self.root)

    def start_etalon(self, *cmd: str) -> subprocess.Popen[str]:
        return subprocess.Popen([str(ETALON_BIN), *cmd], env=self.env(), text=True, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=self.root)

    def refresh(self, timeout: float = 240) -> subprocess.CompletedProcess[str]:
        """The recovery path after a kill: a plain `etalon update` (it plans from the inputs, not a cursor)."""
        return self.update(timeout=timeout)

    def update(self, timeout: float = 240) -> subprocess.CompletedProcess[str]:
        return self.etalon("update", timeout=timeout)

    def query(self, sql: str) -> list[tuple[Any, ...]]:
        con = duckdb.connect(str(self.home / "etalon.duckdb"), read_only=True)
        try:
            return con.execute(sql).fetchall()
        finally:
            con.close()


def make_etalons(folder: Path, codes: Sequence[str] = CODES) -> Path:
    bench = folder / "bench"
    bench.mkdir(parents=True)
    shutil.copy(SAMPLE / "benchmark.yaml", bench / "benchmark.yaml")
    for code in codes:
        shutil.copy(SAMPLE / f"{code}.yaml", bench / f"{code}.yaml")
    return folder


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """Corpus and etalons materialised once; tests copy the warehouse and run the cells."""
    root = tmp_path_factory.mktemp("template")
    project = Project(root, root / "home", make_etalons(root / "etalons"), root / "systems.yaml")
    project.write_systems(None)
    done = project.update(timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return project


@pytest.fixture
def project(template: Project, tmp_path: Path) -> Project:
    """A private copy of the template warehouse, sharing the template's (unchanged) etalon files."""
    home = tmp_path / "home"
    shutil.copytree(template.home, home)
    return Project(tmp_path, home, template.etalons, tmp_path / "systems.yaml")


@pytest.fixture
def fresh_project(tmp_path: Path) -> Project:
    """An empty warehouse with its own etalon folder, for tests that change the etalon files."""
    return Project(tmp_path, tmp_path / "home", make_etalons(tmp_path / "etalons"), tmp_path / "systems.yaml")


@pytest.fixture
def server() -> Iterator[TestServer]:
    with TestServer(default_reply="Согласно ст. 1152 ГК РФ и ст. 421 ГК РФ, ответ таков.") as running:
        yield running


def judge_reply(body: dict[str, Any]) -> str:
    """A well-formed 'no' (or 'incorrect' for graded elements): valid evidence-free verdicts, never a point."""
    text = "\n".join(str(m.get("content", "")) for m in body.get("messages") or [])
    verdict = "incorrect" if '"partial"' in text else "no"
    return json.dumps({"verdict": verdict, "quote": None, "reason": "not stated"})


def request_counts(server: TestServer, model: str) -> Counter[str]:
    """How often each distinct request body reached the server: a repeated successful call shows up as 2."""
    return Counter(json.dumps(r.body, sort_keys=True, ensure_ascii=False) for r in server.chat_requests()
                   if r.body and r.body.get("model") == model)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: drives whole Etalon runs in subprocesses (tens of seconds)")

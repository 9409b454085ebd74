"""A temporary Etalon project driven the way the outside checks drive it: `etalon` subprocesses and the catalog.

Nothing here imports Etalon's own code: a test sees only exit statuses, stdout/stderr and the views of
CONTRACT section 3, so a passing test means a user following the README would see the same thing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import yaml

REPO = Path(__file__).resolve().parents[2]
BENCHMARK = "acc"
AUTHOR = "Ирина Павловна Лаптева"
COMMAND_TIMEOUT = 300


def etalon_command() -> list[str]:
    """The installed console script when there is one, else the module: both are what users run."""
    script = Path(sys.executable).with_name("etalon")
    return [str(script)] if script.exists() else [sys.executable, "-m", "app.cli"]


def inheritance_etalon(code: str, **changes: Any) -> dict[str, Any]:
    """A small lesto etalon on the sample corpus's inheritance articles (ст. 1152-1154 ГК РФ)."""
    data: dict[str, Any] = {
        "code": code,
        "title": "Дом матери и полгода после её смерти",
        "jurisdiction": "ru",
        "branch": "inheritance",
        "difficulty": 1,
        "type": "application",
        "methodology": "lesto",
        "author": AUTHOR,
        "question": "Мама умерла в марте. С апреля я живу в её доме и плачу за него налоги и свет, к нотариусу "
                    "не ходил. Сейчас ноябрь. Я наследник или уже опоздал?\n",
        "decisive_issue": "Принял ли сын наследство фактически в течение шести месяцев со дня смерти матери.",
        "solution_fact": "Сын вселился в дом и оплачивал его содержание в пределах шести месяцев.",
        "branches": [
            "вселение и оплата расходов на дом в течение срока есть фактическое принятие наследства",
            "заявление нотариусу не нужно, если наследство принято фактически",
        ],
        "reference_answer": "Наследство принято: вселившись в дом и оплачивая его содержание в течение шести "
                            "месяцев, сын фактически принял наследство (п. 2 ст. 1153 ГК РФ). Срок "
                            "(ст. 1154 ГК РФ) не пропущен, в суд обращаться не нужно.\n",
        "next_steps": "Представить нотариусу квитанции об оплате и получить свидетельство о праве на наследство.",
        "sources": [
            {"citation": "ст. 1152 ГК РФ", "priority": "mandatory"},
            {"citation": "п. 2 ст. 1153 ГК РФ", "priority": "mandatory"},
            {"citation": "ст. 1154 ГК РФ", "priority": "recommended"},
        ],
        "gross_errors": ["наследство можно получить только через суд"],
    }
    data.update(changes)
    return data


@dataclass
class Project:
    """One user's folder: a benchmark under etalons/, a systems.yaml, a warehouse in its own home."""

    root: Path
    systems: tuple[str, ...] = ("sys-a",)
    history: list[str] = field(default_factory=list)

    @property
    def home(self) -> Path:
        return self.root / "wh"  # not the default ./etalon-data, so a command that ignores it is noticed

    @property
    def bench(self) -> Path:
        return self.root / "etalons" / BENCHMARK

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ETALON_", "DAGSTER_"))}
        env.update(ETALON_HOME=str(self.home), ETALON_ETALONS=str(self.root / "etalons"),
                   ETALON_SYSTEMS=str(self.root / "systems.yaml"), PYTHONWARNINGS="ignore")
        return env

    def create(self, sample_corpus: bool = True) -> Project:
        """The benchmark folder and systems.yaml; with `sample_corpus`, a sources file that lists the embedded
        sample (a home holds it only when asked: the demo, `corpus ingest --sample`, or this entry)."""
        self.bench.mkdir(parents=True)
        if sample_corpus:
            self.home.mkdir(parents=True, exist_ok=True)
            self.write_yaml(self.home / "sources.yaml", {"sources": [{"name": "sample", "kind": "sample"}]})
        self.write_yaml(self.bench / "benchmark.yaml", {
            "name": "Acceptance benchmark", "methodology": "lesto", "canary": "5e1f0c7a9b2d4e6f8a0b1c2d3e4f5a6b"})
        self.write_yaml(self.root / "systems.yaml",
                        {"systems": [{"id": s, "kind": "import", "attempts": 1} for s in self.systems]})
        return self

    @staticmethod
    def write_yaml(path: Path, data: dict[str, Any]) -> None:
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")

    def write_etalon(self, data: dict[str, Any]) -> Path:
        path = self.bench / f"{data['code']}.yaml"
        self.write_yaml(path, data)
        return path

    def etalon(self, *args: str, stdin: str | None = None, home_flag: str | None = None
               ) -> subprocess.CompletedProcess[str]:
        """Run `etalon ARGS` in the project folder; home_flag "before" or "after" the command gives the home
        by --home instead of the environment."""
        env = self.env()
        argv = list(args)
        if home_flag:
            env.pop("ETALON_HOME")
            flag = ["--home", str(self.home)]
            argv = [*flag, *argv] if home_flag == "before" else [*argv, *flag]
        result = subprocess.run([*etalon_command(), *argv], cwd=self.root, env=env, input=stdin,
                                capture_output=True, text=True, timeout=COMMAND_TIMEOUT, check=False)
        self.history.append(f"$ etalon {' '.join(argv)} -> {result.returncode}\n{result.stderr[-2000:]}")
        return result

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Read the analysts' catalog exactly as an analyst does: read-only, from elsewhere."""
        con = duckdb.connect(str(self.home / "etalon.duckdb"), read_only=True)
        try:
            return con.execute(sql, list(params)).fetchall()
        finally:
            con.close()

    def import_answers(self, system: str, answers: list[dict[str, Any]], update: bool = True
                       ) -> subprocess.CompletedProcess[str]:
        path = self.root / f"answers-{system}.jsonl"
        path.write_text("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in answers), encoding="utf-8")
        return self.etalon("answers", "import", str(path), "--system", system, *([] if update else ["--no-update"]))

    def review_items(self) -> list[dict[str, Any]]:
        result = self.etalon("review", "list", "--json")
        assert result.returncode == 0, result.stderr
        return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""

"""Every configuration and command example in the README and docs/ is read by the project's own loaders.

A newcomer copies these examples first: an example that no longer loads is a bug. YAML blocks are recognised
by their top-level keys and validated with the loader of the file they show (an etalon and a benchmark.yaml
together, through the benchmark loader); JSON Lines with the importer or the citation extractor; an HTTP index
with its parser; every `etalon ...` line of a bash block with the command's own argument parser. SQL and the
analysts' Python snippet run against a demo warehouse in tests/analytics/test_readme_sql.py.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from app.cli import _parser
from citations import extract
from corpus.http_source import parse_index
from corpus.sources import load_sources
from etalons.loader import load_benchmarks
from etalons.yamlsafe import parse_text
from evaluation.imports import import_jsonl
from evaluation.systems import parse_systems
from tests.docs.docs_text import ROOT, blocks, documents

# Dagster's own instance and run configuration (docs/deploy.md): Dagster validates these, Etalon only parses them.
DAGSTER_KEYS = frozenset({"storage", "telemetry", "execution", "concurrency", "run_launcher", "run_coordinator",
                          "compute_logs", "run_monitoring", "run_retries"})


def _examples(language: str) -> list[tuple[str, str]]:
    """(where, text) for every block of the language in the README and docs/."""
    found = []
    for path in documents():
        for i, block in enumerate(blocks(path, language), start=1):
            found.append((f"{path.relative_to(ROOT)} {language} block {i}", block))
    return found


def _yaml(where: str, text: str) -> Any:
    _, data = parse_text(text, where)
    return data


def _kind(data: Any) -> str:
    if not isinstance(data, dict):
        return "unknown"
    keys = set(data)
    if {"code", "question"} <= keys:
        return "etalon"
    if "canary" in keys:
        return "benchmark"
    if keys & {"systems", "judge"}:
        return "systems"
    if keys == {"sources"}:
        return "sources"
    if keys <= DAGSTER_KEYS:
        return "dagster"
    return "unknown"


YAML = _examples("yaml")


def test_the_docs_show_every_kind_of_file_people_write() -> None:
    kinds = {_kind(_yaml(where, text)) for where, text in YAML}
    assert {"etalon", "benchmark", "systems", "sources"} <= kinds


@pytest.mark.parametrize(("where", "text"), YAML, ids=[w for w, _ in YAML])
def test_a_yaml_example_is_a_file_etalon_reads_without_a_problem(where: str, text: str, tmp_path: Path) -> None:
    data = _yaml(where, text)
    kind = _kind(data)
    assert kind != "unknown", f"{where}: not recognisably an etalon, benchmark.yaml, systems.yaml or sources.yaml"
    if kind == "systems":
        parse_systems(data, origin=where)
    elif kind == "sources":
        (tmp_path / "sources.yaml").write_text(text, encoding="utf-8")
        assert load_sources(tmp_path / "sources.yaml")
    elif kind in ("etalon", "benchmark"):
        _load_with_its_partner(where, kind, text, tmp_path)


def _load_with_its_partner(where: str, kind: str, text: str, tmp_path: Path) -> None:
    """An etalon loads inside the documented benchmark.yaml, a benchmark.yaml with the documented etalon."""
    partner_kind = "benchmark" if kind == "etalon" else "etalon"
    partners = [t for w, t in YAML if w.startswith(where.split(" ")[0]) and _kind(_yaml(w, t)) == partner_kind]
    assert partners, f"{where}: the same page should show a {partner_kind} to go with it"
    folder = tmp_path / "etalons" / "example"
    folder.mkdir(parents=True)
    (folder / "benchmark.yaml").write_text(text if kind == "benchmark" else partners[0], encoding="utf-8")
    (folder / "ETALON.yaml").write_text(text if kind == "etalon" else partners[0], encoding="utf-8")
    result = load_benchmarks(tmp_path / "etalons")
    assert not result.errors, "\n".join(str(e) for e in result.errors)
    assert len(result.etalons) == 1 and len(result.benchmarks) == 1


def _sample_etalons() -> dict[str, Any]:
    result = load_benchmarks(ROOT / "etalons")
    return {e.code: e.etalon for e in result.etalons}


JSONL = _examples("jsonl")


@pytest.mark.parametrize(("where", "text"), JSONL, ids=[w for w, _ in JSONL])
def test_a_json_lines_example_imports_or_is_what_etalon_cite_prints(where: str, text: str, tmp_path: Path) -> None:
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert records, where
    if "start" in records[0]:   # citation records: exactly what the extractor gives for their own text
        for record in records:
            (got,) = [c.to_record() for c in extract(record["text"])]
            assert got == {**record, "start": 0, "end": len(record["text"])}, where
        return
    path = tmp_path / "answers.jsonl"
    path.write_text(text, encoding="utf-8")
    result = import_jsonl(path, "vendor-x", _sample_etalons(), "sample")
    assert not result.errors, "\n".join(str(e) for e in result.errors)
    assert len(result.answers) == len(records)
    confidences = [r.get("confidence") for r in records]
    assert [a.confidence for a in result.answers] == confidences


JSON = _examples("json")


@pytest.mark.parametrize(("where", "text"), JSON, ids=[w for w, _ in JSON])
def test_a_json_example_is_an_http_index_etalon_can_read(where: str, text: str) -> None:
    entries = parse_index(text.encode("utf-8"), "https://example.org/index.json")
    assert entries and all(url.startswith("https://") for url, _ in entries)


def _command_lines() -> list[tuple[str, list[str]]]:
    """(where, argv after `etalon`) for every line of a bash block that runs the etalon command."""
    found = []
    for where, block in _examples("bash"):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            while words and "=" in words[0] and not words[0].startswith("-"):
                words = words[1:]   # VAR=value before the command
            for i, word in enumerate(words):
                if word.endswith("/etalon") or word == "etalon":
                    argv = words[i + 1:]
                    cut = [j for j, w in enumerate(argv) if w in ("&&", "||", "|", ";")]
                    found.append((f"{where}: {line.strip()}", argv[:cut[0]] if cut else argv))
                    break
    return found


COMMANDS = _command_lines()


def test_the_docs_show_commands_to_run() -> None:
    assert len(COMMANDS) >= 10


@pytest.mark.parametrize(("where", "argv"), COMMANDS, ids=[w for w, _ in COMMANDS])
def test_a_documented_command_line_is_accepted_by_the_command(where: str, argv: list[str]) -> None:
    try:
        _parser().parse_args(argv)
    except SystemExit as exc:   # argparse exits 2 on bad usage (0 only for --help)
        assert exc.code == 0, f"{where}: rejected by the etalon command's parser"


def _leaf_commands() -> list[tuple[str, list[str]]]:
    """('etalon corpus ingest', its option strings) for every command of the parser that does something."""
    import argparse

    found: list[tuple[str, list[str]]] = []

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            options = [s for a in parser._actions for s in a.option_strings if s.startswith("--")]
            found.append((path, [o for o in options if o not in ("--help", "--home")]))
        for action in subs:
            for name, sub in action.choices.items():
                walk(sub, f"{path} {name}")

    walk(_parser(), "etalon")
    return found


LEAVES = _leaf_commands()


@pytest.mark.parametrize(("command", "options"), LEAVES, ids=[c for c, _ in LEAVES])
def test_every_command_and_option_of_the_parser_is_described_in_docs_commands(
        command: str, options: list[str]) -> None:
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    words = command.split()
    assert command in text or f"{' '.join(words[:-1])} {words[-1]}" in text or \
        any(line.startswith("### ") and " ".join(words[:-1]) in line and words[-1] in line
            for line in text.splitlines()), f"{command} is not described in docs/commands.md"
    section = _section(text, command)
    missing = [o for o in options if o not in section]
    assert not missing, f"{command}: options {missing} are not described in its section of docs/commands.md"


def _section(text: str, command: str) -> str:
    """The `### ` section that names the command (`### etalon users add / list / disable` names three)."""
    words = command.split()
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("### ") and " ".join(words[:-1]) in line and words[-1] in line.split():
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("#")), len(lines))
            return "\n".join(lines[i:end])
    return text

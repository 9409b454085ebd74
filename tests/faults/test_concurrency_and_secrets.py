"""Runs side by side with analysts querying; and the API key never lands anywhere Etalon writes."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from evaluation.testserver import Rule, TestServer

from .conftest import CODES, SECRET, Project, judge_reply

ATTEMPTS = 1


@pytest.fixture(scope="module")
def evaluated(template: Project,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Project, str, TestServer]]:
    """One complete run, answers and judge through the loopback server; its captured output alongside."""
    root = tmp_path_factory.mktemp("evaluated")
    shutil.copytree(template.home, root / "home")
    project = Project(root, root / "home", template.etalons, root / "systems.yaml")
    rules = [Rule(model="judge-model", reply=judge_reply), Rule(model="sut-model", fault="500", times=1)]
    with TestServer(rules, default_reply="По ст. 1152 ГК РФ наследство принимается.") as server:
        project.write_systems(server.base_url, server.base_url, attempts=ATTEMPTS)
        done = project.update()
        review = project.etalon("review", "list")
        assert done.returncode == 0, done.stderr[-2000:]
        yield project, done.stdout + done.stderr + review.stdout + review.stderr, server


def test_the_api_key_appears_nowhere_in_the_warehouse_or_the_output(
        evaluated: tuple[Project, str, TestServer]) -> None:
    project, output, _ = evaluated
    leaks = [str(p) for p in project.home.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]
    assert (leaks, SECRET in output) == ([], False)


def test_the_key_was_really_sent_to_the_endpoint(evaluated: tuple[Project, str, TestServer]) -> None:
    """Guards the test above: the key was in play, so its absence from the warehouse means something."""
    _, _, server = evaluated
    sent = {r.headers.get("authorization") for r in server.chat_requests()}
    assert sent == {f"Bearer {SECRET}"}


def _analyst(catalog: Path, stop: threading.Event, seen: list[tuple[int, int]], problems: list[str]) -> None:
    while not stop.is_set():
        try:
            con = duckdb.connect(str(catalog), read_only=True)
            try:
                answers = con.execute("SELECT count(*) FROM eval.answers WHERE system = 'sut'").fetchone()
                scores = con.execute("SELECT count(*) FROM eval.scores WHERE system = 'sut'").fetchone()
            finally:
                con.close()
            seen.append((int(answers[0]) if answers else -1, int(scores[0]) if scores else -1))
        except duckdb.Error as exc:
            problems.append(f"{type(exc).__name__}: {exc}")
        time.sleep(0.01)


@pytest.mark.slow
def test_two_runs_at_once_and_an_analyst_see_no_lock_errors_or_torn_reads(
        evaluated: tuple[Project, str, TestServer], tmp_path: Path) -> None:
    source, _, _ = evaluated
    shutil.copytree(source.home, tmp_path / "home")  # before Project, which writes a sources.yaml into a new home
    project = Project(tmp_path, tmp_path / "home", source.etalons, tmp_path / "systems.yaml")
    stop, seen, problems = threading.Event(), [], []  # type: ignore[var-annotated]
    analyst = threading.Thread(target=_analyst, args=(project.home / "etalon.duckdb", stop, seen, problems))
    analyst.start()
    rules = [Rule(model="judge-model", reply=judge_reply)]
    try:
        with TestServer(rules, default_reply="Иной ответ: ст. 1153 ГК РФ.") as server:
            project.write_systems(server.base_url, server.base_url, attempts=ATTEMPTS)  # a new endpoint: re-ask
            runs = [project.start_etalon("update"), project.start_etalon("update")]
            outs = [p.communicate(timeout=240) for p in runs]
        codes = [p.returncode for p in runs]
    finally:
        stop.set()
        analyst.join(timeout=30)
    expected = (len(CODES) * ATTEMPTS, len(CODES) * ATTEMPTS)
    assert (codes, problems, sorted(set(seen))) == ([0, 0], [], [expected]), "\n".join(o[1][-1500:] for o in outs)
    assert len(seen) > 10

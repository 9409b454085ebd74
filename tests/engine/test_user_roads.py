"""Roads the demo does not take, driven as a user drives them: `etalon` commands, then the analysts' catalog.

The first is the one that made the old warehouse lie: the corpus ingested before any benchmark existed, then a
benchmark, an update, imported answers, another update — which said "up to date" and scored nothing.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from pathlib import Path

import pytest

from tests.acceptance.project import Project, inheritance_etalon

REPO = Path(__file__).resolve().parents[2]
GK3 = REPO / "corpus" / "sample" / "ru" / "html" / "gk-part3.html"
UP_TO_DATE = "nothing to materialise: everything is up to date"


def said_up_to_date(stdout: str) -> bool:
    """The update materialised nothing and said so (what still waits for people may follow that line)."""
    return UP_TO_DATE in stdout.splitlines() and "materialising" not in stdout


def wait_for_flusher(home: Path, timeout: float = 180) -> None:
    """Until the detached flusher an act started has recorded the journal and let go of its lock."""
    journal = home / "state" / "journal"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(journal.glob("*.json")):
            fd = os.open(journal / ".flush.lock", os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except OSError:
                pass
            finally:
                os.close(fd)
        time.sleep(0.3)
    raise AssertionError(f"the journal flusher did not finish within {timeout} s")


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path, systems=("imp-a", "imp-b")).create()


def test_a_warehouse_whose_corpus_came_first_scores_the_answers_imported_later(project: Project) -> None:
    assert project.etalon("corpus", "ingest", str(GK3)).returncode == 0, project.history[-1]
    project.write_etalon(inheritance_etalon("NAS-01"))
    project.write_etalon(inheritance_etalon("NAS-02", question="Отец умер год назад. Я не знал. Что делать?\n"))
    first = project.etalon("update")
    assert first.returncode == 0, project.history[-1]
    for system in ("imp-a", "imp-b"):
        done = project.import_answers(system, [
            {"code": "NAS-01", "text": "Вы приняли наследство фактически (п. 2 ст. 1153 ГК РФ)."},
            {"code": "NAS-02", "text": "Срок можно восстановить в суде (ст. 1155 ГК РФ)."}], update=False)
        assert done.returncode == 0, project.history[-1]
    second = project.etalon("update")
    assert second.returncode == 0, project.history[-1]
    assert UP_TO_DATE not in second.stdout
    assert project.query("SELECT count(*) FROM eval.scores WHERE is_current")[0][0] == 4
    assert project.review_items(), "no judge is configured: every judged element waits for a human"


def test_an_update_right_after_an_update_materialises_nothing_and_says_so(project: Project) -> None:
    project.write_etalon(inheritance_etalon("NAS-01"))
    project.import_answers("imp-a", [{"code": "NAS-01", "text": "Наследство принято (ст. 1153 ГК РФ)."}])
    assert project.etalon("update").returncode == 0, project.history[-1]
    again = project.etalon("update")
    assert again.returncode == 0, project.history[-1]
    assert said_up_to_date(again.stdout), project.history[-1]


def test_a_decision_is_in_the_scores_when_the_command_returns(project: Project) -> None:
    project.write_etalon(inheritance_etalon("NAS-01"))
    project.import_answers("imp-a", [{"code": "NAS-01", "text": "Наследство принято (ст. 1153 ГК РФ)."}])
    item = next(i for i in project.review_items() if i["target"] == "conclusion")
    before = project.query("SELECT open_items FROM eval.scores WHERE is_current AND system = 'imp-a'")[0][0]
    decided = project.etalon("review", "decide", item["id"], "correct", "--by", "Ирина")
    assert decided.returncode == 0, project.history[-1]
    after = project.query("SELECT open_items FROM eval.scores WHERE is_current AND system = 'imp-a'")[0][0]
    assert after == before - 1


def test_what_a_decision_leaves_stale_is_completed_in_the_background_so_the_next_update_has_nothing_to_do(
        project: Project) -> None:
    project.write_etalon(inheritance_etalon("NAS-01"))
    project.import_answers("imp-a", [{"code": "NAS-01", "text": "Наследство принято (ст. 1153 ГК РФ)."}])
    item = next(i for i in project.review_items() if i["target"] == "conclusion")
    assert project.etalon("review", "decide", item["id"], "correct", "--by", "Ирина").returncode == 0
    wait_for_flusher(project.home)
    assert said_up_to_date(project.etalon("update").stdout), project.history[-1]


def test_a_decision_reaches_dagster_as_a_materialisation_of_its_scores_partition(project: Project) -> None:
    project.write_etalon(inheritance_etalon("NAS-01"))
    project.import_answers("imp-a", [{"code": "NAS-01", "text": "Наследство принято (ст. 1153 ГК РФ)."}])
    item = project.review_items()[0]
    assert project.etalon("review", "decide", item["id"], json.loads(json.dumps(item["options"]))[0],
                          "--by", "Ирина").returncode == 0
    wait_for_flusher(project.home)
    from tests.engine.dagster_view import materialised_partitions

    assert materialised_partitions(project.home, "scores")


def _scored(project: Project) -> list[tuple[object, ...]]:
    return project.query("SELECT code, system, version, score, status FROM eval.scores WHERE is_current ORDER BY ALL")


@pytest.mark.parametrize("mishap", ["etalons folder missing", "systems.yaml missing", "systems.yaml broken"])
def test_an_update_whose_inputs_are_not_found_changes_nothing_and_says_which(project: Project, mishap: str) -> None:
    project.write_etalon(inheritance_etalon("NAS-01"))
    project.import_answers("imp-a", [{"code": "NAS-01", "text": "Наследство принято (ст. 1153 ГК РФ)."}])
    assert project.etalon("update").returncode == 0, project.history[-1]
    before = _scored(project)
    etalons, systems = project.root / "etalons", project.root / "systems.yaml"
    saved = systems.read_text(encoding="utf-8")
    if mishap == "etalons folder missing":
        etalons.rename(project.root / "elsewhere")
    elif mishap == "systems.yaml missing":
        systems.unlink()
    else:
        systems.write_text(saved.replace("systems:", "systems: [", 1), encoding="utf-8")
    refused = project.etalon("update")
    named = str(etalons) if mishap == "etalons folder missing" else "systems.yaml"
    assert refused.returncode != 0 and named in refused.stdout + refused.stderr, project.history[-1]
    assert "nothing was changed" in refused.stdout + refused.stderr
    assert _scored(project) == before
    if mishap == "etalons folder missing":
        (project.root / "elsewhere").rename(etalons)
    systems.write_text(saved, encoding="utf-8")
    again = project.etalon("update")
    assert said_up_to_date(again.stdout), project.history[-1]

"""`etalon update` with nothing to do answers without Dagster (app.settled), and only when that is true.

A copy of the demo warehouse is brought up to date once through the full path; then every row below changes
one thing an update would act on, and the short way must be refused for it. The last tests check that the short
way says what the full path says and leaves Dagster's view as it was: every partition current, no new run.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.engine.dagster_view import instance_of, not_current
from tests.pipeline.conftest import etalon

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def settled_home(tmp_path_factory: pytest.TempPathFactory, demo_home: Path) -> Path:
    """A copy of the demo warehouse (its own Dagster instance) after one full update, with its own etalons."""
    base = tmp_path_factory.mktemp("settled")
    home = base / "warehouse"
    shutil.copytree(demo_home, home)
    shutil.copytree(ROOT / "etalons" / "sample", base / "etalons" / "sample")
    shutil.copy(ROOT / "etalons" / "systems.yaml", base / "etalons" / "systems.yaml")
    done = etalon("update", home=home, env=_env(home))
    assert done.returncode == 0, done.stderr[-2000:]
    return home


def _env(home: Path) -> dict[str, str]:
    etalons = home.parent / "etalons"
    return {"ETALON_ETALONS": str(etalons), "ETALON_SYSTEMS": str(etalons / "systems.yaml"),
            "ETALON_PROGRESS": "0"}


@pytest.fixture()
def copy(settled_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the settled warehouse whose files (Dagster home included) sit where they sat, so only the
    change a test makes differs: the copy is swapped in at the settled home's path and back afterwards."""
    saved = tmp_path / "saved"
    shutil.copytree(settled_home.parent, saved)
    for key, value in _env(settled_home).items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("ETALON_HOME", str(settled_home))
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    try:
        yield settled_home
    finally:
        shutil.rmtree(settled_home.parent)
        shutil.copytree(saved, settled_home.parent)


def _settled(home: Path) -> list[str] | None:
    from app.settled import settled
    from warehouse.home import resolve_home

    return settled(resolve_home(home))


def _edit_etalon(home: Path) -> None:
    path = home.parent / "etalons" / "sample" / "NAS-01.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("title: ", "title: Изменено: ", 1), encoding="utf-8")


def _drop_system(home: Path) -> None:
    path = home.parent / "etalons" / "systems.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("- id: demo-weak")
    end = text.find("\n  - id:", start + 1)
    path.write_text(text[:start] + (text[end + 3:] if end > 0 else ""), encoding="utf-8")


def _pending_journal(home: Path) -> None:
    folder = home / "state" / "journal"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "20261203T000000000000-test.json").write_text(json.dumps({"observations": [], "events": []}),
                                                            encoding="utf-8")


def _killed_run(home: Path) -> None:
    folder = home / "state" / "running"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{os.uname().nodename}@999999@dead").write_text("", encoding="utf-8")


def _new_dagster_home(home: Path) -> None:
    shutil.rmtree(home / "dagster")


def _lost_record(home: Path) -> None:
    (home / "state" / "dagster_inputs.json").unlink()


def _catalog_removed(home: Path) -> None:
    (home / "etalon.duckdb").unlink()


def _report_removed(home: Path) -> None:
    shutil.rmtree(home / "report")


def _index_lost(home: Path) -> None:
    (home / "state" / "index.json").unlink()


CHANGES: list[tuple[str, Callable[[Path], None]]] = [
    ("an edited etalon file", _edit_etalon),
    ("a system removed from systems.yaml", _drop_system),
    ("a journal entry Dagster has not recorded", _pending_journal),
    ("a run left by a killed etalon process", _killed_run),
    ("a Dagster home made anew", _new_dagster_home),
    ("a lost record of what Dagster was told", _lost_record),
    ("a removed catalog", _catalog_removed),
    ("a removed report", _report_removed),
    ("a lost index", _index_lost),
]


def test_the_settled_warehouse_takes_the_short_way(copy: Path) -> None:
    assert _settled(copy) is not None


@pytest.mark.parametrize(("name", "change"), CHANGES, ids=[c[0] for c in CHANGES])
def test_the_short_way_is_refused_after(copy: Path, name: str, change: Callable[[Path], None]) -> None:
    change(copy)
    assert _settled(copy) is None, name


def test_the_short_way_says_what_the_full_way_says_and_runs_nothing(copy: Path) -> None:
    with instance_of(copy) as instance:
        runs = instance.get_runs_count()
    short = etalon("update", home=copy, env=_env(copy))
    (copy / "state" / "dagster_inputs.json").unlink()   # the full path, with nothing to do either
    full = etalon("update", home=copy, env=_env(copy))
    assert (short.returncode, short.stdout) == (full.returncode, full.stdout)
    assert short.stdout.startswith("nothing to materialise: everything is up to date\n")
    assert "items waiting for a human decision" in short.stdout
    with instance_of(copy) as instance:
        assert instance.get_runs_count() == runs
    assert not_current(copy) == {}


def test_a_killed_runs_mark_is_cleared_by_the_full_path_and_the_short_way_comes_back(copy: Path) -> None:
    _killed_run(copy)
    done = etalon("update", home=copy, env=_env(copy))
    assert done.returncode == 0, done.stderr[-2000:]
    assert not list((copy / "state" / "running").iterdir())
    assert _settled(copy) is not None

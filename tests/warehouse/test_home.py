"""Where the data lives by default: a folder outside every package, and a word for users of the old default."""

from __future__ import annotations

from pathlib import Path

import pytest

from warehouse.home import legacy_home_hint, resolve_home


@pytest.fixture(autouse=True)
def _no_home_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("ETALON_HOME", raising=False)
    monkeypatch.chdir(tmp_path)


def test_the_default_data_folder_is_etalon_data_not_the_warehouse_package(tmp_path: Path) -> None:
    home = resolve_home()
    assert (home.root, home.catalog, home.lake) == (
        tmp_path.resolve() / "etalon-data", tmp_path.resolve() / "etalon-data" / "etalon.duckdb",
        tmp_path.resolve() / "etalon-data" / "lake")


@pytest.mark.parametrize(("old_files", "new_exists", "explicit", "hinted"), [
    (["lake/corpus/x.parquet"], False, None, True),
    (["etalon.duckdb"], False, None, True),
    (["lake/corpus/x.parquet"], True, None, False),       # the new folder exists: the user has moved on
    (["lake/corpus/x.parquet"], False, "elsewhere", False),  # --home given: the user chose
    (["home.py", "__init__.py"], False, None, False),      # only the package's code: nothing to say
    ([], False, None, False),
])
def test_an_old_warehouse_folder_with_data_gets_a_one_line_hint_and_is_not_moved(
        tmp_path: Path, old_files: list[str], new_exists: bool, explicit: str | None, hinted: bool) -> None:
    for name in old_files:
        (tmp_path / "warehouse" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "warehouse" / name).write_text("x")
    if new_exists:
        (tmp_path / "etalon-data").mkdir()
    hint = legacy_home_hint(explicit)
    assert (hint is not None) == hinted
    if hint:
        assert "\n" not in hint and "ETALON_HOME" in hint and "./etalon-data" in hint
    assert all((tmp_path / "warehouse" / name).exists() for name in old_files)


def test_the_hint_is_not_given_when_etalon_home_is_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "warehouse" / "lake").mkdir(parents=True)
    monkeypatch.setenv("ETALON_HOME", str(tmp_path / "warehouse"))
    assert legacy_home_hint() is None


def test_a_command_run_beside_an_old_warehouse_says_so_on_stderr_and_still_works(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import main

    (tmp_path / "warehouse" / "lake").mkdir(parents=True)
    (tmp_path / "answer.txt").write_text("ст. 1152 ГК РФ", encoding="utf-8")
    assert main(["cite", str(tmp_path / "answer.txt")]) == 0
    out, err = capsys.readouterr()
    assert '"1152"' in out and err.count("\n") == 1 and "./etalon-data" in err
    assert not (tmp_path / "etalon-data").exists()

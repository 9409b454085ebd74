"""A data engineer's first commands, in a folder that holds nothing of Etalon's: no etalons/, no systems.yaml.

Ingesting the corpus must not depend on a benchmark being there: the held-out documents of a corpus check are
ingested exactly this way, from an empty working directory with only ETALON_HOME set. And the same document
ingested again from another path (a folder, then a file inside it) is still one document.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import duckdb
import pytest

from tests.acceptance.project import COMMAND_TIMEOUT, etalon_command

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
LAW = SHARED / "ru" / "federal-laws" / "zpp.txt"
ARTICLE = "ст. 32 Закона о защите прав потребителей"


def _etalon(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ETALON_", "DAGSTER_"))}
    env.update(ETALON_HOME=str(folder / "wh"), PYTHONWARNINGS="ignore")
    return subprocess.run([*etalon_command(), *args], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=COMMAND_TIMEOUT, check=False)


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    if not LAW.exists():
        pytest.skip(f"{LAW} is not here")
    folder = tmp_path_factory.mktemp("bare")
    return folder, _etalon(folder, "corpus", "ingest", str(LAW))


@pytest.fixture(scope="module")
def twice(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The law's folder ingested, then the law itself: two sources holding the same document."""
    if not LAW.exists():
        pytest.skip(f"{LAW} is not here")
    folder = tmp_path_factory.mktemp("twice")
    for path in (LAW.parent, LAW):
        result = _etalon(folder, "corpus", "ingest", str(path))
        assert result.returncode == 0, result.stderr[-1500:]
    return folder


def test_corpus_ingest_in_a_folder_without_etalons_adds_the_document(
    bare: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    _, result = bare
    assert result.returncode == 0, result.stderr[-1500:]
    assert "added 1" in result.stdout


def test_corpus_show_then_finds_an_article_of_the_ingested_document(
    bare: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    result = _etalon(bare[0], "corpus", "show", ARTICLE)
    assert result.returncode == 0, result.stderr[-1500:]
    assert result.stdout.startswith("ru/zpp 32")


def test_corpus_show_before_any_ingest_says_the_warehouse_holds_no_corpus(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    result = _etalon(tmp_path_factory.mktemp("empty"), "corpus", "show", ARTICLE)
    assert result.returncode == 1 and "no corpus" in result.stderr and "etalon corpus ingest" in result.stderr


def test_cite_resolve_before_any_ingest_warns_that_nothing_can_be_found(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    folder = tmp_path_factory.mktemp("empty-cite")
    answer = folder / "answer.txt"
    answer.write_text(f"Согласно {ARTICLE}.", encoding="utf-8")
    result = _etalon(folder, "cite", "--resolve", str(answer))
    assert result.returncode == 0 and '"status": "unknown_act"' in result.stdout
    assert "holds no corpus" in result.stderr


def test_a_document_held_by_two_sources_resolves_to_one_unit(twice: Path) -> None:
    result = _etalon(twice, "corpus", "show", ARTICLE)
    assert result.returncode == 0, result.stderr[-1500:]  # not "ambiguous" between its two copies


@pytest.mark.parametrize(("view", "key"), [("corpus.documents", "doc_id"), ("corpus.units", "doc_id, path")])
def test_the_catalog_shows_a_document_held_by_two_sources_once(twice: Path, view: str, key: str) -> None:
    con = duckdb.connect(str(twice / "wh" / "etalon.duckdb"), read_only=True)
    try:
        total, distinct = con.execute(f"SELECT count(*), count(DISTINCT ({key})) FROM {view}").fetchone() or (0, 0)
    finally:
        con.close()
    assert total == distinct > 0

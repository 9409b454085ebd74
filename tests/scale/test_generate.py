"""The scale generator at a small size: deterministic, and its output ingests and evaluates end to end.

The evaluation goes through the engine's reconcile as plain functions (the same one the Dagster assets run), so a generator change that breaks ingestion, etalon loading, citation resolution or scoring fails
here in seconds rather than in a benchmark hours later.
"""

from __future__ import annotations

import hashlib
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import FORMATS, Scale, generate, plan, scale_for, system_id  # noqa: E402

from corpus.ingest import parse_path  # noqa: E402
from corpus.model import Document, IngestError  # noqa: E402
from evaluation.engine.run import update  # noqa: E402
from warehouse.home import resolve_home  # noqa: E402
from warehouse.lake import Lake  # noqa: E402

SMALL = Scale(documents=12, units=600, etalons=6, systems=3, seed=11)
FOLDERS = {"ru-html": "ru/html", "ru-text": "ru/text", "ru-plenum": "ru/plenum", "ro-markdown": "ro/markdown",
           "ro-jsonl": "ro/legislatie", "akn": "akn"}


def tree_digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != "sources.yaml"}


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("generated")
    generate(target, SMALL)
    return target


@pytest.fixture(scope="module")
def evaluated(generated: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lake]:
    """Import every system's answers, ingest, store and verify the etalons, then evaluate every cell."""
    from app.actions import import_answers

    home_dir = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ETALON_ETALONS", str(generated / "etalons"))
        patch.setenv("ETALON_SYSTEMS", str(generated / "etalons" / "systems.yaml"))
        patch.setenv("ETALON_SOURCES", str(generated / "sources.yaml"))
        home = resolve_home(home_dir)
        Lake(home.lake).ensure_schemas()
        for answers in sorted((generated / "answers").glob("*.jsonl")):
            import_answers(home, answers, answers.stem)
        update(home)
        yield Lake(home.lake)


def test_the_same_seed_writes_the_same_bytes(generated: Path, tmp_path: Path) -> None:
    generate(tmp_path, SMALL)
    assert tree_digest(tmp_path) == tree_digest(generated)


def test_another_seed_writes_another_corpus(generated: Path, tmp_path: Path) -> None:
    generate(tmp_path, Scale(SMALL.documents, SMALL.units, SMALL.etalons, SMALL.systems, seed=12))
    assert tree_digest(tmp_path / "corpus") != tree_digest(generated / "corpus")


@pytest.mark.parametrize("fmt", [f for f, _ in FORMATS])
def test_each_format_ingests_into_the_planned_acts_with_the_planned_units(generated: Path, fmt: str) -> None:
    planned = [d for d in plan(SMALL) if d.fmt == fmt]
    parsed = list(parse_path(generated / "corpus" / FOLDERS[fmt], "generated"))
    assert not [p for p in parsed if isinstance(p, IngestError)]
    docs = [p for p in parsed if isinstance(p, Document)]
    if fmt == "ru-plenum":
        got = {d.doc_id: len(d.units) for d in docs}
    else:
        got = {d.act or "": len(d.units) for d in docs}
    assert got == {d.act: d.units for d in planned}


@pytest.mark.parametrize(("documents", "units", "etalons", "systems"), [(6, 60, 1, 1), (13, 1301, 5, 2)])
def test_explicit_sizes_give_that_many_files_and_lines(tmp_path: Path, documents: int, units: int, etalons: int,
                                                       systems: int) -> None:
    summary = generate(tmp_path, Scale(documents, units, etalons, systems, seed=3))
    answers = sorted(p.stem for p in (tmp_path / "answers").glob("*.jsonl"))
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in (tmp_path / "answers").glob("*.jsonl"))
    etalon_files = [p for p in (tmp_path / "etalons" / "scale").glob("*.yaml") if p.name != "benchmark.yaml"]
    assert (summary["documents"], len(etalon_files), answers, lines) == (
        documents, etalons, [system_id(s) for s in range(systems)], etalons * systems)


@pytest.mark.parametrize("fraction", [0, -0.5, 1.5])
def test_a_scale_outside_zero_to_one_is_refused(fraction: float) -> None:
    with pytest.raises(ValueError, match="--scale"):
        scale_for(fraction)


def test_the_full_scale_is_issue_nine_size() -> None:
    assert scale_for(1.0) == Scale(documents=10_000, units=1_000_000, etalons=2_000, systems=25)


def test_every_etalon_source_is_found_in_the_generated_corpus(evaluated: Lake) -> None:
    statuses = Counter(r["status"] for r in evaluated.read_all("etalon_sources").to_pylist())
    assert set(statuses) == {"found"}


def test_every_cell_gets_a_score(evaluated: Lake) -> None:
    cells = {(r["code"], r["system"]) for r in evaluated.read_all("scores").to_pylist()}
    assert len(cells) == SMALL.etalons * SMALL.systems


def test_answers_cite_articles_the_corpus_lacks_as_well_as_real_ones(evaluated: Lake) -> None:
    statuses = Counter(r["status"] for r in evaluated.read_all("citations").to_pylist())
    assert statuses["found"] > statuses["not_found"] > 0


def test_the_best_system_cites_more_of_the_expected_sources_than_the_worst(evaluated: Lake) -> None:
    expected = {(r["code"], r["act"], r["article"]) for r in evaluated.read_all("etalon_sources").to_pylist()}

    def hits(system: str) -> int:
        rows: list[dict[str, Any]] = evaluated.read_all("citations").to_pylist()
        return len({(r["code"], r["act"], r["article"]) for r in rows if r["system"] == system} & expected)

    assert hits(system_id(0)) > hits(system_id(SMALL.systems - 1))

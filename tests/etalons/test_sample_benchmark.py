"""The embedded sample must load cleanly: `etalon demo` runs on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from etalons.loader import load_benchmarks

ETALONS = Path(__file__).resolve().parents[2] / "etalons"
SAMPLE_FILES = sorted(p.name for p in (ETALONS / "sample").glob("*.yaml"))


@pytest.fixture(scope="module")
def errors_by_file() -> dict[str, list[str]]:
    result = load_benchmarks(ETALONS)
    out: dict[str, list[str]] = {}
    for error in result.errors:
        out.setdefault(Path(error.file).name, []).append(str(error))
    return out


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_every_sample_file_loads_without_an_error(name: str, errors_by_file: dict[str, list[str]]) -> None:
    assert errors_by_file.get(name, []) == []


def test_the_sample_benchmark_loads_with_its_canary() -> None:
    [sample] = [b for b in load_benchmarks(ETALONS).benchmarks if b.id == "sample"]
    assert len(sample.canary) == 32

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
import yaml

from etalons.loader import load_benchmarks
from tests.etalons.etalon_files import BENCHMARK_YAML, CANARY, ETALON_YAML, write_benchmark

CASES: list[dict[str, Any]] = yaml.safe_load(Path(__file__).with_name("bad_inputs.yaml").read_text("utf-8"))[
    "cases"
]


def _has_citations() -> bool:
    try:
        return hasattr(importlib.import_module("citations"), "extract")
    except ImportError:
        return False


HAS_CITATIONS = _has_citations()


def _bad_file(case: dict[str, Any]) -> str:
    if "text" in case:
        return str(case["text"])
    assert ETALON_YAML.count(case["old"]) == 1, f"case {case['name']!r}: 'old' must occur exactly once"
    return ETALON_YAML.replace(case["old"], case["new"])


def test_a_valid_etalon_loads_with_the_benchmarks_methodology(etalons_root: Path) -> None:
    write_benchmark(etalons_root, {"NAS-01.yaml": ETALON_YAML})
    result = load_benchmarks(etalons_root)
    assert result.errors == []
    [loaded] = result.etalons
    assert (loaded.benchmark, loaded.code, loaded.methodology, loaded.file) == (
        "ru-test",
        "NAS-01",
        "lesto",
        "etalons/ru-test/NAS-01.yaml",
    )
    [benchmark] = result.benchmarks
    assert (benchmark.id, benchmark.canary, benchmark.methodology) == ("ru-test", CANARY, "lesto")


def test_an_etalons_own_methodology_overrides_the_benchmarks(etalons_root: Path) -> None:
    text = ETALON_YAML.replace("type: application\n", "type: application\nmethodology: irac\n")
    write_benchmark(etalons_root, {"NAS-01.yaml": text})
    assert load_benchmarks(etalons_root).etalons[0].methodology == "irac"


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_a_bad_file_gives_an_error_naming_its_line_and_field(
    etalons_root: Path, case: dict[str, Any]
) -> None:
    if case.get("needs_citations") and not HAS_CITATIONS:
        pytest.skip("the citations library is not there yet")
    write_benchmark(etalons_root, {"NAS-01.yaml": _bad_file(case)})
    errors = load_benchmarks(etalons_root).errors
    matching = [e for e in errors if e.field == case["field"] and case["message"] in e.message]
    assert matching, f"no error on {case['field']} with {case['message']!r}; got {[str(e) for e in errors]}"
    assert (matching[0].file, matching[0].line) == ("etalons/ru-test/NAS-01.yaml", case["line"])


def test_an_error_reads_as_file_line_field_and_expectation(etalons_root: Path) -> None:
    bad = ETALON_YAML.replace("ст. 1153 ГК РФ\n    priority: mandatory", "ст. 1153 ГК РФ\n    priority: must")
    write_benchmark(etalons_root, {"NAS-01.yaml": bad})
    [error] = load_benchmarks(etalons_root).errors
    assert str(error) == (
        "etalons/ru-test/NAS-01.yaml:23: sources[2].priority: "
        "expected one of mandatory, conditional, recommended, got 'must'"
    )


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_every_other_etalon_still_loads_beside_a_bad_one(etalons_root: Path, case: dict[str, Any]) -> None:
    if case.get("needs_citations") and not HAS_CITATIONS:
        pytest.skip("the citations library is not there yet")
    good = ETALON_YAML.replace("code: NAS-01", "code: NAS-02")
    write_benchmark(etalons_root, {"NAS-01.yaml": _bad_file(case), "NAS-02.yaml": good})
    result = load_benchmarks(etalons_root)
    assert [e.code for e in result.etalons] == ["NAS-02"]
    assert result.failed_files == {"etalons/ru-test/NAS-01.yaml"}


def test_a_code_used_twice_loads_neither_file_and_names_both(etalons_root: Path) -> None:
    write_benchmark(etalons_root, {"NAS-01.yaml": ETALON_YAML})
    other = BENCHMARK_YAML.replace(CANARY, "f" * 32)
    write_benchmark(etalons_root, {"copy.yaml": ETALON_YAML}, benchmark="ru-other", config=other)
    result = load_benchmarks(etalons_root)
    assert result.etalons == []
    messages = {e.file: e.message for e in result.errors}
    assert "etalons/ru-other/copy.yaml" in messages["etalons/ru-test/NAS-01.yaml"]
    assert "etalons/ru-test/NAS-01.yaml" in messages["etalons/ru-other/copy.yaml"]
    assert {e.line for e in result.errors} == {1}
    assert result.failed_codes == {"NAS-01"}


@pytest.mark.parametrize(
    ("config", "field", "message"),
    [
        (BENCHMARK_YAML.replace(CANARY, "xyz"), "canary", "expected text matching ^[0-9a-f]{32}$"),
        (BENCHMARK_YAML.replace("lesto", "lexis"), "methodology", "expected one of irac, lesto, stielegi"),
        (BENCHMARK_YAML.replace("name:", "title:"), "name", "missing"),
        ("name: [broken\n", None, "YAML syntax error"),
    ],
)
def test_a_bad_benchmark_file_is_reported_and_its_etalons_are_not_loaded(
    etalons_root: Path, config: str, field: str | None, message: str
) -> None:
    write_benchmark(etalons_root, {"NAS-01.yaml": ETALON_YAML}, config=config)
    result = load_benchmarks(etalons_root)
    assert result.etalons == [] and result.benchmarks == []
    config_errors = [e for e in result.errors if e.file.endswith("benchmark.yaml") and e.field == field]
    assert any(message in e.message for e in config_errors), [str(e) for e in result.errors]
    assert "etalons/ru-test/NAS-01.yaml" in result.failed_files


def test_a_folder_without_benchmark_yaml_reports_it_missing(etalons_root: Path) -> None:
    write_benchmark(etalons_root, {"NAS-01.yaml": ETALON_YAML}, config=None)
    files = {e.file for e in load_benchmarks(etalons_root).errors}
    assert files == {"etalons/ru-test/benchmark.yaml", "etalons/ru-test/NAS-01.yaml"}


def test_two_benchmarks_sharing_a_canary_are_both_flagged(etalons_root: Path) -> None:
    write_benchmark(etalons_root, {"NAS-01.yaml": ETALON_YAML})
    write_benchmark(etalons_root, {}, benchmark="ru-copy")
    flagged = {e.file for e in load_benchmarks(etalons_root).errors if e.field == "canary"}
    assert flagged == {"etalons/ru-test/benchmark.yaml", "etalons/ru-copy/benchmark.yaml"}


def test_files_that_are_not_yaml_are_ignored(etalons_root: Path) -> None:
    folder = write_benchmark(etalons_root, {"NAS-01.yaml": ETALON_YAML, "README.md": "notes"})
    (folder / "answers").mkdir()
    (folder / "answers" / "x.yaml").write_text("not: an etalon\n", encoding="utf-8")
    result = load_benchmarks(etalons_root)
    assert ([e.code for e in result.etalons], result.errors) == (["NAS-01"], [])


def test_a_file_that_is_not_utf8_is_reported_with_its_line(etalons_root: Path) -> None:
    folder = write_benchmark(etalons_root, {})
    (folder / "NAS-01.yaml").write_bytes(ETALON_YAML.encode("utf-8").replace(b"title: ", b"title: \xff", 1))
    [error] = load_benchmarks(etalons_root).errors
    assert (error.line, "UTF-8" in error.message) == (2, True)


def test_a_missing_root_folder_is_one_error(tmp_path: Path) -> None:
    result = load_benchmarks(tmp_path / "nowhere")
    assert len(result.errors) == 1 and result.etalons == []


@pytest.mark.parametrize(
    ("name", "text", "field"),
    [
        (
            "NAS-01.yaml",
            ETALON_YAML.replace("priority: conditional", "priority: mandatory").replace(
                "gross_errors:", "  - citation: ст. 1155 ГК РФ\n    priority: mandatory\ngross_errors:"
            ),
            "sources",
        ),
        ("inheritance.yaml", ETALON_YAML, "code"),
    ],
)
def test_advice_is_a_warning_and_the_etalon_still_loads(
    etalons_root: Path, name: str, text: str, field: str
) -> None:
    write_benchmark(etalons_root, {name: text})
    result = load_benchmarks(etalons_root)
    assert ([e.code for e in result.etalons], result.errors) == (["NAS-01"], [])
    assert [w.field for w in result.warnings] == [field]

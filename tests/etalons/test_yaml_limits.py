"""The shared YAML limits never refuse a file the project itself ships, and read it exactly as PyYAML does."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from etalons.yamlsafe import YamlLimits, YamlRefused, load_file, parse_text

REPO = Path(__file__).resolve().parents[2]
SHIPPED = sorted(p for p in REPO.rglob("*.y*ml") if p.suffix in (".yaml", ".yml")
                 and not {".venv", "tests", ".git"} & set(p.relative_to(REPO).parts))


def test_the_project_ships_yaml_files_to_check() -> None:
    assert len(SHIPPED) >= 30


@pytest.mark.parametrize("path", SHIPPED, ids=[str(p.relative_to(REPO)) for p in SHIPPED])
def test_a_shipped_yaml_file_loads_under_the_limits_as_pyyaml_reads_it(path: Path) -> None:
    assert load_file(path) == yaml.safe_load(path.read_text(encoding="utf-8"))


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    (tmp_path / "big.yaml").write_text("a: " + "x" * 2_000, encoding="utf-8")
    with pytest.raises(YamlRefused, match=r"big\.yaml: expected at most 1000 bytes, got 2003$"):
        load_file(tmp_path / "big.yaml", limits=YamlLimits(max_bytes=1000))


def test_nesting_beyond_the_depth_limit_is_refused_at_its_line() -> None:
    text = "top:\n" + "".join("  " * i + f"  k{i}:\n" for i in range(70)) + "  " * 71 + "leaf\n"
    with pytest.raises(YamlRefused, match=r"^deep\.yaml:\d+: nested deeper than 64 levels$"):
        parse_text(text, "deep.yaml")


def test_a_syntax_error_is_one_line_with_where_the_construct_began() -> None:
    with pytest.raises(YamlRefused) as caught:
        parse_text("a: [1, 2\nb: 3\n", "x.yaml")
    assert str(caught.value).startswith("x.yaml:2: YAML syntax error: ")
    assert "started on line 1" in str(caught.value) and "\n" not in str(caught.value)


def test_bytes_that_are_not_utf8_are_refused_at_their_line(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_bytes(b"a: 1\nb: \xff\n")
    with pytest.raises(YamlRefused, match=r"x\.yaml:2: expected UTF-8 text"):
        load_file(tmp_path / "x.yaml")

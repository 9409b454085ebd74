"""Codes enacted in parts (citations/data/parts.yaml): every example lands in the part it names."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from citations import extract
from citations.parts import load, parted_acts

EXAMPLES = [(act.act, citation, part) for act in parted_acts().values() for citation, part in act.examples]


@pytest.mark.parametrize(("act", "citation", "part"), EXAMPLES)
def test_every_example_of_the_parts_registry_is_in_the_part_it_names(act: str, citation: str, part: str) -> None:
    [found] = extract(citation, "ru")
    assert found.act == act and found.article is not None
    located = parted_acts()[act].part_of(found.article)
    assert located is not None and located.name == part


def test_the_parts_of_an_act_do_not_overlap() -> None:
    for act in parted_acts().values():
        ranges = sorted((p.first, p.last) for p in act.parts)
        assert all(a_last < b_first for (_, a_last), (b_first, _) in pairwise(ranges))


def test_a_malformed_parts_file_is_refused_naming_the_file_and_entry(tmp_path: Path) -> None:
    path = tmp_path / "parts.yaml"
    path.write_text("parts:\n  - act: ru/gk\n    ranges:\n      - {part: one, first: x, last: 2}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"parts\.yaml: entry 0"):
        load(path)

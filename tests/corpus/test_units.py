"""Units built in bulk are the same frozen records the dataclass constructor makes."""

from __future__ import annotations

import dataclasses

import pytest

from corpus.ingest import units
from corpus.model import IN_FORCE, REPEALED, Unit
from corpus.ru_structure import RawUnit

RAW = [
    RawUnit("1152", "1152", "article", "1152", "Принятие наследства", "Текст статьи", IN_FORCE, "Глава 64"),
    RawUnit("1152", "1152/2", "part", "2", None, "2. Принятие части", REPEALED, None),
]


@pytest.mark.parametrize("index", range(len(RAW)))
def test_a_bulk_built_unit_equals_the_constructed_one(index: int) -> None:
    u = RAW[index]
    built = units("ru/gk/part-3", "ru/gk", RAW)[index]
    expected = Unit("ru/gk/part-3", "ru/gk", u.article, u.path, u.kind, u.number, u.heading, u.text, index,
                    u.status, u.context)
    assert (built, hash(built), repr(built)) == (expected, hash(expected), repr(expected))


def test_a_bulk_built_unit_cannot_be_changed() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        units("d", None, RAW)[0].text = "changed"  # type: ignore[misc]

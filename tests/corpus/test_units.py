"""Units drafted by the readers and finished in bulk are the same immutable records the constructor makes."""

from __future__ import annotations

import pytest

from corpus.model import IN_FORCE, REPEALED, Unit, amend, draft, finish

FIELDS = [
    ("1152", "1152", "article", "1152", "Принятие наследства", "Текст статьи", IN_FORCE, "Глава 64"),
    ("1152", "1152/2", "part", "2", None, "2. Принятие части", REPEALED, None),
]


def _finished() -> tuple[Unit, ...]:
    return finish("ru/gk/part-3", "ru/gk", [draft(*f) for f in FIELDS])


@pytest.mark.parametrize("index", range(len(FIELDS)))
def test_a_finished_unit_equals_the_constructed_one(index: int) -> None:
    article, path, kind, number, heading, text, status, context = FIELDS[index]
    built = _finished()[index]
    expected = Unit("ru/gk/part-3", "ru/gk", article, path, kind, number, heading, text, index, status, context)
    assert (built, hash(built), repr(built)) == (expected, hash(expected), repr(expected))


def test_an_amended_draft_keeps_the_amended_text() -> None:
    unit = draft(*FIELDS[1])
    amend(unit, "text", "2. Принятие части\nпродолжение")
    assert finish("d", None, [unit])[0].text == "2. Принятие части\nпродолжение"


def test_a_finished_unit_cannot_be_changed() -> None:
    with pytest.raises(AttributeError):
        _finished()[0].text = "changed"  # type: ignore[misc]

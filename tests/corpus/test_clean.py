"""Whitespace in paragraph text is collapsed to single spaces, whatever character the source used."""

from __future__ import annotations

import pytest

from corpus.ru.structure import clean


@pytest.mark.parametrize(("raw", "cleaned"), [
    ("Статья 1. Текст", "Статья 1. Текст"),
    ("  Статья 1.", "Статья 1."),
    ("Статья 1.  ", "Статья 1."),
    ("Статья  1.", "Статья 1."),
    ("1.\u00a0Текст", "1. Текст"),
    ("перенос\nстроки", "перенос строки"),
    ("таб\tуляция", "таб уляция"),
    ("узкий\u2009пробел", "узкий пробел"),
    ("нулевой\u200bпробел", "нулевойпробел"),
    ("строка\u2028раздел", "строка раздел"),
    ("", ""),
])
def test_every_kind_of_whitespace_collapses_to_one_space(raw: str, cleaned: str) -> None:
    assert clean(raw) == cleaned

from __future__ import annotations

import pytest

from etalons.canary import Leak, find_leaks

CANARIES = {
    "ru-private": "3f2a9b0c4d5e6f708192a3b4c5d6e7f8",
    "ro-private": "00112233445566778899aabbccddeeff",
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ответ: ст. 1152 ГК РФ. 3f2a9b0c4d5e6f708192a3b4c5d6e7f8", ["ru-private"]),
        ("BENCHMARK DATA: 3F2A9B0C4D5E6F708192A3B4C5D6E7F8", ["ru-private"]),
        ("3f2a9b0c 4d5e6f70-8192a3b4 c5d6e7f8", ["ru-private"]),
        (
            "both 00112233445566778899aabbccddeeff and 3f2a9b0c4d5e6f708192a3b4c5d6e7f8",
            ["ro-private", "ru-private"],
        ),
        ("Наследство принимается в течение шести месяцев (ст. 1154 ГК РФ).", []),
        ("almost: 3f2a9b0c4d5e6f708192a3b4c5d6e7f", []),
    ],
)
def test_a_canary_in_an_answer_is_reported_with_its_benchmark(text: str, expected: list[str]) -> None:
    leaks = find_leaks([("acme", "NAS-01", text)], CANARIES)
    assert [leak.benchmark for leak in leaks] == expected


def test_each_leaking_answer_names_its_system_and_code_once() -> None:
    answers = [
        ("acme", "NAS-01", "x 3f2a9b0c4d5e6f708192a3b4c5d6e7f8 y 3f2a9b0c4d5e6f708192a3b4c5d6e7f8"),
        ("beta", "NAS-01", "clean"),
        ("beta", "SUC-02", "00112233445566778899aabbccddeeff"),
    ]
    assert find_leaks(answers, CANARIES) == [
        Leak("acme", "NAS-01", "ru-private"),
        Leak("beta", "SUC-02", "ro-private"),
    ]

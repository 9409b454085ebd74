"""A quote the judge gave that is not in the answer: the reviewer is shown the closest passage, as a hint."""

import pytest

from evaluation.quotes import closest_passage, quote_in

ANSWER = "По закону наследство можно принять в течение шести месяцев со дня открытия наследства."


@pytest.mark.parametrize(("quote", "expected_fragment"), [
    ("наследство принимается в течение шести месяцев", "в течение шести месяц"),
    ("со дня открытия наследства", "со дня открытия наследства"),
])
def test_the_closest_passage_points_at_the_part_of_the_answer_the_judge_meant(quote: str,
                                                                           expected_fragment: str) -> None:
    found = closest_passage(quote, ANSWER)
    assert found is not None
    score, passage = found
    assert expected_fragment in passage
    assert 50 < score <= 100


def test_a_paraphrase_stays_no_evidence_even_when_it_is_close() -> None:
    quote = "наследство принимается в течение шести месяцев"
    assert closest_passage(quote, ANSWER) is not None
    assert not quote_in(quote, ANSWER)


@pytest.mark.parametrize(("quote", "text"), [("", ANSWER), ("   ", ANSWER), ("что-то", "")])
def test_there_is_no_hint_without_a_quote_or_an_answer(quote: str, text: str) -> None:
    assert closest_passage(quote, text) is None

"""A reply's shape is checked field by field; each wrong shape is named, never an exception elsewhere."""

from __future__ import annotations

from typing import Any

import pytest

from evaluation.replies import ReplyShapeError, read_completion

OK: dict[str, Any] = {"model": "m", "choices": [{"message": {"content": "text"}}],
                      "usage": {"prompt_tokens": 3, "completion_tokens": 4}}


@pytest.mark.parametrize(("body", "named"), [
    ({"choices": ["str"]}, "'choices[0]' is a string ('str')"),
    ({"choices": [{"message": {"content": 12345}}]}, "'choices[0].message.content' is an integer (12345)"),
    ({"choices": [{"message": {"content": [{"type": "text", "text": "x"}]}}]}, "'choices[0].message.content' is a list"),
    ({**OK, "usage": {"prompt_tokens": "many"}}, "'usage.prompt_tokens' is a string ('many')"),
    ({**OK, "usage": {"completion_tokens": -1}}, "'usage.completion_tokens' is an integer (-1)"),
    ({**OK, "usage": "lots"}, "'usage' is a string"),
    ({"message": "yes"}, "no 'choices' (its fields: message)"),
    ({"choices": None}, "'choices' is null"),
    ({"choices": []}, "'choices' is an empty list"),
    ({"choices": [{}]}, "'choices[0].message' is null"),
    ({"choices": [{"message": {"content": None}}]}, "content' is null and the reply gives no refusal"),
    ({"choices": [{"message": {"content": None, "refusal": 7}}]}, "'choices[0].message.refusal' is an integer"),
    ({**OK, "model": ["m"]}, "'model' is a list"),
    ({"error": {"message": "quota exceeded"}}, "status 200 but carries an error: quota exceeded"),
    (["choices"], "the reply is a list"),
    ("text", "the reply is a string"),
])
def test_a_reply_of_the_wrong_shape_is_refused_with_the_field_named(body: Any, named: str) -> None:
    with pytest.raises(ReplyShapeError, match=None) as raised:
        read_completion(body)
    assert named in str(raised.value)


def test_a_well_formed_reply_gives_its_text_model_and_usage() -> None:
    got = read_completion(OK)
    assert (got.content, got.model, got.tokens_in, got.tokens_out) == ("text", "m", 3, 4)


def test_a_refusal_without_content_is_the_answer_text() -> None:
    body = {"choices": [{"message": {"content": None, "refusal": "I can't help with that."}}]}
    assert read_completion(body).content == "I can't help with that."


def test_missing_usage_is_unknown_not_an_error() -> None:
    got = read_completion({"choices": [{"message": {"content": "x"}}]})
    assert (got.tokens_in, got.tokens_out) == (None, None)

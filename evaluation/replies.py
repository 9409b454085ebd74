"""Reading a chat-completion reply without trusting its shape.

A 200 status says nothing about the body: proxies and local servers answer `choices: ["text"]`,
`content: 12345`, `content: [{...}]`, `usage.prompt_tokens: "many"`, `{"message": "yes"}`, a null
`choices`, or an error object with status 200. Each of these must become an error for the one call that got
it (never an exception that stops a run, never a success in the call cache), with a message that names the
field and what was there instead, so a user can tell a broken endpoint from a bad answer. Everything the
rest of Etalon reads of a reply comes through `read_completion`, for fresh and cached replies alike.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class ReplyShapeError(ValueError):
    """The reply is JSON but not a chat completion we can use; the message names the field."""


@dataclass(frozen=True)
class Completion:
    content: str
    model: str | None
    tokens_in: int | None
    tokens_out: int | None


def read_completion(body: object) -> Completion:
    """The answer text and usage of a parsed reply body; ReplyShapeError when its shape is wrong."""
    if not isinstance(body, Mapping):
        raise ReplyShapeError(f"the reply is {_what(body)}, expected a JSON object")
    if "choices" not in body:
        if body.get("error") is not None:
            raise ReplyShapeError(f"the reply has status 200 but carries an error: {_error_text(body['error'])}")
        keys = ", ".join(sorted(map(str, body))[:8]) or "none"
        raise ReplyShapeError(f"the reply has no 'choices' (its fields: {keys})")
    choices = body["choices"]
    if not isinstance(choices, list):
        raise ReplyShapeError(f"'choices' is {_what(choices)}, expected a list")
    if not choices:
        raise ReplyShapeError("'choices' is an empty list")
    choice = choices[0]
    if not isinstance(choice, Mapping):
        raise ReplyShapeError(f"'choices[0]' is {_what(choice)}, expected an object")
    message = choice.get("message")
    if not isinstance(message, Mapping):
        raise ReplyShapeError(f"'choices[0].message' is {_what(message)}, expected an object")
    content = message.get("content")
    if content is None:
        refusal = message.get("refusal")
        if isinstance(refusal, str) and refusal.strip():
            content = refusal  # a refusal is the model's answer, judged as such
        elif refusal is not None:
            raise ReplyShapeError(f"'choices[0].message.refusal' is {_what(refusal)}, expected a string")
        else:
            raise ReplyShapeError("'choices[0].message.content' is null and the reply gives no refusal")
    if not isinstance(content, str):
        raise ReplyShapeError(f"'choices[0].message.content' is {_what(content)}, expected a string")
    model = body.get("model")
    if model is not None and not isinstance(model, str):
        raise ReplyShapeError(f"'model' is {_what(model)}, expected a string")
    tokens_in, tokens_out = _usage(body.get("usage"))
    return Completion(content=content, model=model, tokens_in=tokens_in, tokens_out=tokens_out)


def _usage(usage: object) -> tuple[int | None, int | None]:
    if usage is None:
        return None, None
    if not isinstance(usage, Mapping):
        raise ReplyShapeError(f"'usage' is {_what(usage)}, expected an object")
    counts: list[int | None] = []
    for name in ("prompt_tokens", "completion_tokens"):
        value = usage.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ReplyShapeError(f"'usage.{name}' is {_what(value)}, expected a non-negative integer")
        counts.append(value)
    return counts[0], counts[1]


def _what(value: object) -> str:
    """'a str ('many')', 'an int (12345)', 'a list of 1', 'null', 'missing'..., short and quoted."""
    if value is None:
        return "null or missing"
    kind = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "an object"}.get(type(value), f"a {type(value).__name__}")
    if isinstance(value, (list, dict)):
        shown = json.dumps(value, ensure_ascii=False, default=str)
    else:
        shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return f"{kind} ({shown})"


def _error_text(error: Any) -> str:
    if isinstance(error, Mapping) and isinstance(error.get("message"), str):
        return str(error["message"])
    return json.dumps(error, ensure_ascii=False, default=str)

"""Pydantic's validation errors, reworded as 'expected X, got Y' with a 1-based field path.

Lawyers edit these files; pydantic's wording ("Input should be ...") and 0-based paths are for programmers.
Paths count list items from 1 (`sources[1]` is the first source), as the sources report does.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic_core import ErrorDetails


def field_path(loc: Sequence[int | str]) -> str:
    out = ""
    for step in loc:
        if isinstance(step, int):
            out += f"[{step + 1}]"
        else:
            out += f".{step}" if out else str(step)
    return out


def describe(error: ErrorDetails, allowed_keys: Iterable[str] = ()) -> str:
    kind = error["type"]
    ctx: dict[str, Any] = dict(error.get("ctx") or {})
    got = _shown(error.get("input"))
    if kind == "missing":
        return "missing: this key is required"
    if kind == "extra_forbidden":
        name = str(error["loc"][-1]) if error["loc"] else ""
        close = difflib.get_close_matches(name, list(allowed_keys), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        return f"unknown key{hint}; expected one of {', '.join(allowed_keys)}"
    if kind == "literal_error":
        expected = str(ctx.get("expected", "")).replace("'", "").replace(" or ", ", ")
        return f"expected one of {expected}, got {got}"
    if kind == "string_pattern_mismatch":
        return f"expected text matching {ctx.get('pattern')}, got {got}"
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return f"expected a whole number, got {got}"
    if kind in ("float_parsing", "float_type"):
        return f"expected a number, got {got}"
    if kind == "greater_than_equal":
        return f"expected at least {ctx.get('ge')}, got {got}"
    if kind == "greater_than":
        return f"expected more than {ctx.get('gt')}, got {got}"
    if kind == "less_than_equal":
        return f"expected at most {ctx.get('le')}, got {got}"
    if kind == "less_than":
        return f"expected less than {ctx.get('lt')}, got {got}"
    if kind == "string_too_short":
        return "expected non-empty text"
    if kind == "string_type":
        return f"expected text, got {got}"
    if kind == "list_type":
        return f"expected a list, got {got}"
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return f"expected a mapping of keys, got {got}"
    if kind == "value_error":
        return str(error["msg"]).removeprefix("Value error, ")
    return f"{error['msg']}, got {got}"


def _shown(value: object) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "...'"

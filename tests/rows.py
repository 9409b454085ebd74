"""Rows of a declared table for tests that write the lake directly: the columns a test names, every other one
null (or the type's zero where the column is not nullable), since the lake refuses a row lacking a column."""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from warehouse.schemas import SCHEMAS


def _zero(kind: pa.DataType) -> Any:
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return ""
    if pa.types.is_boolean(kind):
        return False
    if pa.types.is_integer(kind):
        return 0
    if pa.types.is_floating(kind):
        return 0.0
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        return []
    return None


def row(table: str, **values: Any) -> dict[str, Any]:
    schema = SCHEMAS[table].schema
    unknown = set(values) - set(schema.names)
    if unknown:
        raise KeyError(f"{table} has no column(s) {', '.join(sorted(unknown))}")
    return {f.name: values[f.name] if f.name in values else (None if f.nullable else _zero(f.type)) for f in schema}

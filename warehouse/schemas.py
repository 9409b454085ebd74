"""Declared schemas of the lake's tables, generated from their records (`warehouse.tables`).

Declaring them once keeps every partition file of a table in the same shape, so the analysts' views never break
on a partition written by an older run, and empty tables still have their columns.
"""

from __future__ import annotations

import pyarrow as pa

from warehouse.tables import TABLES, Table

SCHEMAS: dict[str, Table] = TABLES


def require_complete(table: str, data: pa.Table) -> None:
    """A write must carry every declared column: a column left unwritten is a bug, not a null."""
    spec = SCHEMAS.get(table)
    if spec is None:
        return
    missing = [name for name in spec.schema.names if name not in data.column_names]
    if missing:
        raise ValueError(f"lake table {table!r}: the data lacks declared column(s) {', '.join(missing)}")


def conform(table: str, data: pa.Table) -> pa.Table:
    """Cast declared columns to their types, add missing ones as nulls (files written by an older version),
    keep extra columns after them."""
    spec = SCHEMAS.get(table)
    if spec is None:
        return data
    columns: list[pa.Array | pa.ChunkedArray] = []
    names: list[str] = []
    for field in spec.schema:
        if field.name in data.column_names:
            col = data.column(field.name)
            columns.append(col if col.type == field.type else col.cast(field.type))
        else:
            columns.append(pa.nulls(data.num_rows, type=field.type))
        names.append(field.name)
    for name in data.column_names:
        if name not in names:
            col = data.column(name)
            columns.append(col.cast(pa.string()) if pa.types.is_null(col.type) else col)
            names.append(name)
    return pa.Table.from_arrays(columns, names=names)

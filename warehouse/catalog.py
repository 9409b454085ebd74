"""The analysts' catalog: a DuckDB file of views over the lake.

The catalog holds no rows, only views with absolute paths, so it opens read-only from any working directory.
It is rebuilt into a temporary file and renamed over the old one: a writer never takes a lock on the file that
readers hold open, and a reader sees either the old catalog or the new one. Views glob the lake, so rows written
by runs appear in open connections without any refresh; a rebuild is needed only when the set of tables or
view definitions changes.
"""

from __future__ import annotations

import os
import tempfile
from importlib import resources
from pathlib import Path

import duckdb
import polars as pl

from warehouse.lake import Lake
from warehouse.tables import TABLES

_DUCK = {"string": "VARCHAR", "int64": "BIGINT", "double": "DOUBLE", "bool": "BOOLEAN"}

SCHEMAS = ("raw", "corpus", "bench", "eval")
# Tables produced by the analytics asset with no view definition of their own: exposed as eval.<name>.
ANALYTICS_TABLES = ("slices", "judge_agreement", "judge_disagreements", "pass_at_k", "calibration",
                    "passport", "leaderboard_indicative")


def view_definitions() -> list[tuple[str, str]]:
    """(qualified view name, SELECT) from warehouse/sql/NN_schema.view.sql, in file order."""
    folder = resources.files("warehouse") / "sql"
    found = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".sql"):
            name = entry.name.removesuffix(".sql").split("_", 1)[1]
            found.append((name, entry.read_text(encoding="utf-8")))
    return found


def create_views(con: duckdb.DuckDBPyConnection, lake: Lake) -> None:
    for schema in SCHEMAS:
        con.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
    if lake.url.startswith("s3://"):
        # DuckDB reads the lake through httpfs with the same credential chain as pyarrow (AWS_* or the role).
        con.execute("CREATE OR REPLACE SECRET etalon_lake (TYPE s3, PROVIDER credential_chain)")
    for table in lake.tables():
        glob = lake.glob(table).replace("'", "''")
        spec = TABLES.get(table)
        if spec is not None and spec.events:
            columns = ", ".join(f"'{f.name}': '{_DUCK[str(f.type)]}'" for f in spec.schema)
            con.execute(f"CREATE OR REPLACE VIEW raw.{table} AS SELECT * FROM read_json('{glob}', "
                        f"columns = {{{columns}}}, format = 'newline_delimited', ignore_errors = true)")
        else:
            con.execute(f"CREATE OR REPLACE VIEW raw.{table} AS SELECT * FROM read_parquet('{glob}', "
                        "union_by_name = true)")
    for name, sql in view_definitions():
        con.execute(f"CREATE OR REPLACE VIEW {name} AS {sql}")
    existing = {r[0] for r in con.execute(
        "SELECT view_name FROM duckdb_views() WHERE schema_name = 'raw'").fetchall()}
    for table in ANALYTICS_TABLES:
        if table in existing:
            con.execute(f"CREATE OR REPLACE VIEW eval.{table} AS SELECT * FROM raw.{table}")


def build_catalog(catalog: Path, lake: Lake) -> Path:
    """Rebuild the catalog beside the old one and swap it in with one rename."""
    lake.ensure_schemas()
    catalog.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".etalon.", suffix=".duckdb.tmp", dir=catalog.parent)
    os.close(fd)
    os.unlink(tmp_name)  # DuckDB wants to create the file itself
    tmp = Path(tmp_name)
    try:
        con = duckdb.connect(str(tmp))
        try:
            create_views(con, lake)
            con.execute("CHECKPOINT")
        finally:
            con.close()
        os.replace(tmp, catalog)
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + ".wal")):
            if leftover.exists():
                leftover.unlink()
    return catalog


def connect(catalog: Path, read_only: bool = True) -> duckdb.DuckDBPyConnection:
    return duckdb.connect(str(catalog), read_only=read_only)


def memory_catalog(lake: Lake) -> duckdb.DuckDBPyConnection:
    """The same views in an in-memory database: how pipeline steps read the warehouse as analysts do."""
    lake.ensure_schemas()
    con = duckdb.connect(":memory:")
    create_views(con, lake)
    return con


def query(con: duckdb.DuckDBPyConnection, sql: str) -> pl.DataFrame:
    """A query's result as a polars frame, through Arrow (no per-row Python objects)."""
    result = pl.from_arrow(con.sql(sql).to_arrow_table())
    assert isinstance(result, pl.DataFrame)
    return result

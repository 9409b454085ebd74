"""The analysts' catalog: a DuckDB file of views over the lake.

The catalog holds no rows, only views with absolute paths, so it opens read-only from any working directory.
It is rebuilt into a temporary file and renamed over the old one: a writer never takes a lock on the file that
readers hold open, and a reader sees either the old catalog or the new one. Views glob the lake, so rows written
by runs appear in open connections without any refresh; a rebuild is needed only when the set of tables or
view definitions changes.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from warehouse.lake import Lake

if TYPE_CHECKING:   # imported where used: deciding that the catalog is current needs neither (a no-op update)
    import duckdb
    import polars as pl
from warehouse.tables import TABLES

_DUCK = {"string": "VARCHAR", "int64": "BIGINT", "double": "DOUBLE", "bool": "BOOLEAN"}

SCHEMAS = ("raw", "corpus", "bench", "eval")
# Tables whose partitions are analytics frames: their extra columns may differ from one benchmark to the next.
VARYING = frozenset({"leaderboard", "leaderboard_indicative", "slices", "paired", "judge_agreement",
                     "judge_disagreements", "pass_at_k", "calibration"})
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
            # Declared tables are written in their declared shape: binding the view reads one file's schema, not
            # every file's (union_by_name is kept for tables whose partitions may carry different extra columns).
            union = ", union_by_name = true" if spec is None or table in VARYING else ""
            con.execute(f"CREATE OR REPLACE VIEW raw.{table} AS SELECT * FROM read_parquet('{glob}'{union})")
    for name, sql in view_definitions():
        con.execute(f"CREATE OR REPLACE VIEW {name} AS {sql}")
    existing = {r[0] for r in con.execute(
        "SELECT view_name FROM duckdb_views() WHERE schema_name = 'raw'").fetchall()}
    for table in ANALYTICS_TABLES:
        if table in existing:
            con.execute(f"CREATE OR REPLACE VIEW eval.{table} AS SELECT * FROM raw.{table}")


def _signature(lake: Lake) -> str:
    """What the catalog's definitions depend on: the lake's place, its tables and the view definitions."""
    import hashlib

    h = hashlib.sha256(lake.url.encode("utf-8"))
    for table in lake.tables():
        h.update(table.encode("utf-8") + b"\0")
    for name, sql in view_definitions():
        h.update(name.encode("utf-8") + sql.encode("utf-8"))
    return h.hexdigest()[:16]


def _marker(catalog: Path) -> Path:
    return catalog.with_name(f".{catalog.name}.signature")


def is_current(catalog: Path, lake: Lake, signature: str | None = None) -> bool:
    """Whether the catalog holds the views the lake's tables and the definitions make now (no rebuild due)."""
    marker = _marker(catalog)
    try:
        return catalog.exists() and marker.read_text(encoding="utf-8") == (signature or _signature(lake))
    except OSError:
        return False


def build_catalog(catalog: Path, lake: Lake, force: bool = False) -> Path:
    """Rebuild the catalog beside the old one and swap it in with one rename, when its definitions changed.

    Views glob the lake, so new rows and partitions appear without a rebuild; only a new table, a new view
    definition or a moved lake needs one."""
    lake.ensure_schemas()
    catalog.parent.mkdir(parents=True, exist_ok=True)
    marker = _marker(catalog)
    signature = _signature(lake)
    if not force and is_current(catalog, lake, signature):
        return catalog
    fd, tmp_name = tempfile.mkstemp(prefix=".etalon.", suffix=".duckdb.tmp", dir=catalog.parent)
    os.close(fd)
    os.unlink(tmp_name)  # DuckDB wants to create the file itself
    tmp = Path(tmp_name)
    # DuckDB names a database's write-ahead log by inserting ".wal" before the first "?" of the whole path, so a
    # warehouse folder with a "?" in its name cannot be written in place: build elsewhere, then copy beside it.
    # (Read-only connections write no log, so analysts open the catalog there as anywhere.)
    import duckdb

    workdir = Path(tempfile.mkdtemp(prefix="etalon-catalog-")) if "?" in str(tmp) else None
    built = workdir / "etalon.duckdb" if workdir is not None else tmp
    try:
        con = duckdb.connect(str(built))
        try:
            create_views(con, lake)
            con.execute("CHECKPOINT")
        finally:
            con.close()
        if workdir is not None:
            shutil.copyfile(built, tmp)
        os.replace(tmp, catalog)
        marker.write_text(signature, encoding="utf-8")
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + ".wal")):
            if leftover.exists():
                leftover.unlink()
        if workdir is not None:
            shutil.rmtree(workdir, ignore_errors=True)
    return catalog


def connect(catalog: Path, read_only: bool = True) -> duckdb.DuckDBPyConnection:
    import duckdb

    return duckdb.connect(str(catalog), read_only=read_only)


def memory_catalog(lake: Lake) -> duckdb.DuckDBPyConnection:
    """The same views in an in-memory database: how pipeline steps read the warehouse as analysts do."""
    import duckdb

    lake.ensure_schemas()
    con = duckdb.connect(":memory:")
    create_views(con, lake)
    return con


def query(con: duckdb.DuckDBPyConnection, sql: str) -> pl.DataFrame:
    """A query's result as a polars frame, through Arrow (no per-row Python objects)."""
    import polars as pl

    result = pl.from_arrow(con.sql(sql).to_arrow_table())
    assert isinstance(result, pl.DataFrame)
    return result

"""What the workbench's pages read: a copy of the catalog's views in an in-memory DuckDB, kept current.

Every page is a few indexed or paged SQL queries over these tables, so it renders in milliseconds however the
lake lays out its files; reading the views themselves globs every Parquet file of a table, which costs time in
proportion to the number of files (a third of a second for a few hundred event files). The copy is made from
the views only (never from the lake's files), replaced whole in one swap, and reloaded in the background:
after the warehouse's catalog is rebuilt (every `etalon update` ends so), after each refresh the workbench
runs, and, for the small event tables, right after the workbench's own actions.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb

from warehouse.catalog import build_catalog, connect
from warehouse.home import Home
from warehouse.lake import Lake

log = logging.getLogger("etalon.web")

# snapshot table -> the catalog query it copies. Columns a page never shows (raw model output, passports)
# stay behind: they are most of the bytes.
TABLES: dict[str, str] = {
    "etalons": "SELECT * FROM bench.etalons",
    "history": "SELECT * FROM bench.etalon_history",
    "sources": "SELECT * FROM bench.sources",
    "review": "SELECT * FROM eval.review",
    "scores": "SELECT * EXCLUDE (open_items) FROM eval.scores",
    "leaderboard": "SELECT * FROM eval.leaderboard",
    "answers": "SELECT * EXCLUDE (passport) FROM eval.answers",
    "citations": "SELECT * FROM eval.citations",
    "judgments": "SELECT * EXCLUDE (raw) FROM eval.judgments",
    "candidates": "SELECT * FROM raw.candidates",
    "approvals": "SELECT * FROM raw.approvals",
    "benchmarks": "SELECT * FROM raw.benchmarks",
}
EVENTS: dict[str, str] = {
    "decisions": "SELECT * FROM eval.decisions",
    "audits": "SELECT * FROM eval.audits",
    "signatures": "SELECT * FROM bench.signatures",
}
OPTIONAL: dict[str, str] = {   # views the engine adds (a law's amendment reaching the etalons)
    "corpus_changes": "SELECT * FROM bench.corpus_changes",
}
INDEXES: dict[str, Sequence[str]] = {
    "review": ("id", "code", "system"),
    "scores": ("code", "system"),
    "decisions": ("code", "system"),
    "audits": ("code", "system"),
    "answers": ("code", "system"),
    "citations": ("code", "system"),
    "judgments": ("code", "system"),
    "candidates": ("code", "system"),
    "history": ("code",),
    "sources": ("code",),
    "etalons": ("code",),
}
CHECK_EVERY_S = 2.0


class Snapshot:
    """The in-memory copy and its reloads. `cursor()` gives a connection of its own to each request."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self._db = duckdb.connect(":memory:")
        self._lock = threading.Lock()          # one reload at a time
        self._catalog_mtime = 0
        self._checked_at = 0.0
        self.loaded_at: float | None = None
        self.load_seconds: float | None = None
        self.generation = 0
        self._reloading = threading.Event()
        self.columns: dict[str, set[str]] = {}

    # -- reading -------------------------------------------------------------------------------------
    def cursor(self) -> duckdb.DuckDBPyConnection:
        return self._db.cursor()

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        cur = self.cursor()
        try:
            result = cur.execute(sql, list(params))
            names = [d[0] for d in result.description]
            return [dict(zip(names, r, strict=True)) for r in result.fetchall()]
        finally:
            cur.close()

    def one(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        found = self.rows(sql, params)
        return found[0] if found else None

    def value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        found = self.rows(sql, params)
        return next(iter(found[0].values())) if found else None

    @property
    def catalog_mtime(self) -> int:
        """Changes when the catalog is rebuilt (every update ends so): what caches of the corpus key on."""
        return self._catalog_mtime

    def has_column(self, table: str, column: str) -> bool:
        return column in self.columns.get(table, set())

    # -- loading -------------------------------------------------------------------------------------
    def load(self, tables: Sequence[str] | None = None) -> None:
        """Copy the chosen tables (default all) from the catalog's views, each swapped in whole."""
        with self._lock:
            started = time.perf_counter()
            catalog = self._catalog()
            mtime = catalog.stat().st_mtime_ns
            con = connect(catalog)
            try:
                wanted = {**TABLES, **EVENTS, **OPTIONAL}
                for name in tables or list(wanted):
                    self._copy(con, name, wanted[name])
            finally:
                con.close()
            if tables is None:
                self._catalog_mtime = mtime
                self.load_seconds = time.perf_counter() - started
            self.loaded_at = time.time()
            self.generation += 1

    def load_events(self, tables: Sequence[str] = ("decisions",)) -> None:
        """The human events an action just wrote, and what the views derive from them at query time (an
        etalon's status follows its signatures): only those tables, so the page shows the action at once."""
        self.load(list(tables))

    def _catalog(self) -> Path:
        catalog = self.home.catalog
        if not catalog.exists():
            build_catalog(catalog, Lake(self.home.lake))
        return catalog

    def _copy(self, con: duckdb.DuckDBPyConnection, name: str, sql: str) -> None:
        try:
            arrow = con.sql(sql).to_arrow_table()
        except duckdb.Error as exc:
            if name not in OPTIONAL:
                log.warning("snapshot: %s unavailable (%s); shown empty", name, str(exc).splitlines()[0])
            arrow = None
        cur = self._db.cursor()
        try:
            cur.execute("BEGIN")
            cur.execute(f"DROP TABLE IF EXISTS {name}")
            if arrow is not None:
                cur.register("incoming", arrow)
                cur.execute(f"CREATE TABLE {name} AS SELECT * FROM incoming")
                cur.unregister("incoming")
            else:
                cur.execute(f"CREATE TABLE {name} AS SELECT NULL::VARCHAR AS code, NULL::VARCHAR AS system LIMIT 0")
            for column in INDEXES.get(name, ()):
                if arrow is None or column in arrow.column_names:
                    cur.execute(f"CREATE INDEX {name}_{column} ON {name} ({column})")
            cur.execute("COMMIT")
            self.columns[name] = set(arrow.column_names) if arrow is not None else {"code", "system"}
        except BaseException:
            cur.execute("ROLLBACK")
            raise
        finally:
            cur.close()

    def stale(self) -> bool:
        """Whether the catalog was rebuilt since the last full load (checked at most every 2 s)."""
        now = time.monotonic()
        if now - self._checked_at < CHECK_EVERY_S:
            return False
        self._checked_at = now
        try:
            return self.home.catalog.stat().st_mtime_ns != self._catalog_mtime
        except FileNotFoundError:
            return True

    def reload_in_background(self) -> None:
        if self._reloading.is_set():
            return
        self._reloading.set()

        def run() -> None:
            try:
                self.load()
            except Exception:  # a reload that fails keeps the last good copy
                log.exception("snapshot reload failed; pages keep the previous copy")
            finally:
                self._reloading.clear()

        threading.Thread(target=run, name="etalon-snapshot", daemon=True).start()

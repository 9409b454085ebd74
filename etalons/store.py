"""Etalons in the lake: one partition per code holding every version, plus its verified sources.

Evaluation stages read etalons from here, never from the files, so a score can always be traced to the exact
version it was computed on, and an archived etalon (file removed) stays queryable with its results.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa

from etalons.errors import EtalonError
from etalons.loader import LoadedEtalon, LoadResult
from etalons.model import Etalon
from etalons.verify import SourceCheck
from etalons.versions import EtalonVersion, record_versions
from warehouse.lake import Lake


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def stored_history(lake: Lake, code: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = lake.read("etalon_versions", code).to_pylist()
    return found


def refresh_etalon(lake: Lake, code: str, loaded: LoadedEtalon | None, held: bool, at: str) -> str:
    """Fold the file's current content into the code's history; returns the partition's data version.

    `loaded` None and not `held`: the file is gone, so the etalon is archived (nothing is deleted). `held`:
    the file exists but failed to load; the last good version stays current until it is fixed.
    """
    rows = stored_history(lake, code)
    if loaded is None:
        if not rows:
            return "absent"
        archived = not held
        for row in rows:
            row["archived"] = archived
        lake.write("etalon_versions", (code,), rows)
        current = next((r for r in rows if r.get("is_current")), rows[-1])
        return f"{current['version']}:{'archived' if archived else 'held'}"
    history = [_version(r) for r in rows]
    merged = record_versions(history, [loaded], at)
    out = []
    for version in merged:
        row = asdict(version)
        row.update(
            is_current=version.version == loaded.version,
            archived=False,
            jurisdiction=loaded.etalon.jurisdiction,
            branch=loaded.etalon.branch
            if version.version == loaded.version
            else _old(rows, version, "branch"),
            difficulty=loaded.etalon.difficulty
            if version.version == loaded.version
            else _old(rows, version, "difficulty"),
            type=loaded.etalon.type if version.version == loaded.version else _old(rows, version, "type"),
            author=_author(loaded.etalon)
            if version.version == loaded.version
            else _old(rows, version, "author"),
        )
        out.append(row)
    lake.write("etalon_versions", (code,), out)
    return loaded.version


def _old(rows: Sequence[dict[str, Any]], version: EtalonVersion, key: str) -> Any:
    return next((r.get(key) for r in rows if r["version"] == version.version), None)


def _author(etalon: Etalon) -> str | None:
    return etalon.author or None


def _version(row: dict[str, Any]) -> EtalonVersion:
    fields = EtalonVersion.__dataclass_fields__
    return EtalonVersion(**{k: row.get(k) or "" for k in fields})


def current(lake: Lake, code: str) -> tuple[dict[str, Any], Etalon] | None:
    """The current stored version of an etalon (row and model), or None when it was never stored."""
    rows = stored_history(lake, code)
    row = next((r for r in rows if r.get("is_current")), None)
    if row is None:
        return None
    return row, Etalon.model_validate(json.loads(row["content"]))


def write_sources(lake: Lake, code: str, checks: Sequence[SourceCheck], corpus_version: str) -> str:
    rows = []
    for check in checks:
        row = asdict(check)
        row["idx"] = row.pop("index")
        row["corpus_version"] = corpus_version
        rows.append(row)
    table = pa.Table.from_pylist(rows) if rows else None
    lake.write("etalon_sources", (code,), table if table is not None else [])
    return json.dumps([[c.index, c.status] for c in checks])


def read_sources(lake: Lake, code: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = lake.read("etalon_sources", code).to_pylist()
    return found


def write_errors(lake: Lake, result: LoadResult, at: str) -> None:
    """The current load errors (bench.errors); the file is rewritten only when the errors change."""
    rows = [_error_row(e, at) for e in result.errors]
    before = [{k: v for k, v in r.items() if k != "at"} for r in lake.read("etalon_errors", "all").to_pylist()]
    if before != [{k: v for k, v in r.items() if k != "at"} for r in rows]:
        lake.write("etalon_errors", ("all",), rows)


def _error_row(error: EtalonError, at: str) -> dict[str, Any]:
    return {"file": error.file, "line": error.line, "field": error.field, "message": str(error), "at": at}

"""The corpus as the workbench shows it: a citation's unit and its text, with why it was or was not found.

Built once from `app.actions.corpus_index` (the same lookup the pipeline resolves with) and rebuilt when the
warehouse changes; a page resolves the handful of citations it shows with dictionary probes.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from warehouse.home import Home
from warehouse.lake import Lake

_FIELDS = ("kind", "jurisdiction", "act", "act_text", "article", "article_to", "part", "court", "number",
           "date", "year", "point")


@dataclass(frozen=True)
class UnitText:
    status: str
    reason: str
    doc_id: str | None = None
    path: str | None = None
    heading: str | None = None
    text: str | None = None
    unit_status: str | None = None     # in_force | repealed


class Corpus:
    def __init__(self, home: Home) -> None:
        self.home = home
        self._lock = threading.Lock()
        self._built_for: object = None
        self._lookup: Any = None
        self._rows: dict[tuple[str, str], int] = {}
        self._units: Any = None

    def refresh(self, generation: object) -> None:
        """Rebuild when the warehouse changed since the last build (the snapshot's generation of a full load)."""
        with self._lock:
            if self._built_for == generation and self._lookup is not None:
                return
            from app.actions import corpus_index

            _, units, lookup = corpus_index(Lake(self.home.lake))
            doc_ids = units.column("doc_id").to_pylist() if units.num_rows else []
            paths = units.column("path").to_pylist() if units.num_rows else []
            self._rows = {(d, p): i for i, (d, p) in enumerate(zip(doc_ids, paths, strict=True))}
            self._units, self._lookup, self._built_for = units, lookup, generation

    @property
    def lookup(self) -> Any:
        return self._lookup

    def unit(self, doc_id: str | None, path: str | None) -> tuple[str | None, str | None, str | None]:
        """(heading, text, status) of a unit; a whole act or decision gives its first units' text."""
        if doc_id is None or self._units is None:
            return None, None, None
        if path:
            row = self._rows.get((doc_id, path))
            if row is None:
                return None, None, None
            unit = self._units.slice(row, 1).to_pylist()[0]
            return unit.get("heading"), unit.get("text"), unit.get("status")
        top = sorted((p for (d, p) in self._rows if d == doc_id and "/" not in p),
                     key=lambda p: self._rows[(doc_id, p)])[:3]
        texts = [self._units.slice(self._rows[(doc_id, p)], 1).to_pylist()[0]["text"] for p in top]
        return None, "\n".join(t for t in texts if t) or None, None

    def resolve_text(self, citation: str, jurisdiction: str) -> list[UnitText]:
        """Every citation in a source string (an etalon's source may hold a list), each with its unit."""
        from citations import extract, resolve

        found = extract(citation, jurisdiction)  # type: ignore[arg-type]
        if not found:
            return [UnitText("not_found", "no citation of a norm or a decision recognised")]
        return [self._with_text(r) for r in resolve(found, self._lookup)]

    def resolve_row(self, row: Mapping[str, Any]) -> UnitText:
        """A stored citation row (eval.citations) resolved again to find its unit (the act may come from
        an earlier mention, so the row, not its text, is what is resolved)."""
        from citations import resolve
        from citations.model import new_citation

        values = {k: row.get(k) for k in _FIELDS}
        citation = new_citation(int(row.get("start") or 0), int(row.get("end") or 0), str(row.get("text") or ""),
                                values["kind"] or "article", values["jurisdiction"] or "ru",
                                *(values[k] for k in _FIELDS[2:]))
        return self._with_text(resolve([citation], self._lookup)[0])

    def _with_text(self, resolution: Any) -> UnitText:
        heading, text, unit_status = self.unit(resolution.doc_id, resolution.unit_path)
        return UnitText(str(resolution.status), str(resolution.reason), resolution.doc_id, resolution.unit_path,
                        heading, text, unit_status)

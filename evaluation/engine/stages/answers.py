"""Answers, one partition per shard and system: one row per (etalon version, attempt).

Only the case goes out. A row is computed from the question and the system's request settings (or, for a
system of kind `import`, the imported answer), so a new etalon version whose question is unchanged reuses the
stored answer without a call, and a changed question asks again. A failed call is an `error` row: never a
score, and asked again by the next run (the model-call cache makes every call that succeeded free).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from evaluation.engine import code as stage_code
from evaluation.engine.keys import Part, digest
from evaluation.engine.stages.base import Cell, CellKey, CellStage, Computed
from evaluation.engine.world import World
from evaluation.systems import SystemConfig
from warehouse.tables import AnswerRow, LedgerRow

VERSION = stage_code.version("answers", "answers-2")


def request_settings(system: SystemConfig, attempt: int) -> dict[str, Any]:
    """What of a system's configuration reaches the model for one attempt (never the key, never limits), and
    where its confidence is read from: a system switched to `confidence: json` answers again (from the
    model-call cache) so that its reply is read anew. Left out when none, so older rows keep their inputs."""
    settings = {"base_url": system.base_url, "model": system.model, "system_prompt": system.system_prompt,
                "params": system.params_for(attempt)}
    if system.confidence != "none":
        settings["confidence"] = system.confidence
    return settings


def output_hash(row: AnswerRow) -> str:
    return digest(row.text, row.sources, row.status, row.error, row.tokens_in, row.tokens_out, row.cost,
                  row.confidence)


class AnswersStage(CellStage):
    name: ClassVar[str] = "answers"
    version: ClassVar[str] = VERSION
    tables: ClassVar[tuple[str, ...]] = ("answers",)

    def cells(self, world: World, partition: str, ledger: Mapping[CellKey, LedgerRow]) -> list[Cell] | None:
        part = Part.parse(partition)
        system = world.system(part.system)
        if system is None:
            return None
        cells = []
        if system.kind == "import":
            imported = imported_rows(world, system.id)
            for row, etalon in world.current_etalons(part.shard):
                for item in imported.get(row.code, []):
                    if item.get("question_version") not in (None, row.question_version):
                        continue   # imported for an older question: it does not answer the current one
                    basis = {k: item.get(k) for k in ("text", "sources", "confidence", "status", "error")}
                    cells.append(Cell(row.code, row.version, int(item["attempt"]),
                                      digest(VERSION, "import", row.question_version, int(item["attempt"]), basis),
                                      payload=(row, etalon, item)))
        else:
            for row, etalon in world.current_etalons(part.shard):
                for attempt in range(1, system.attempts + 1):
                    cells.append(Cell(row.code, row.version, attempt,
                                      # The attempt is part of the request (each is its own sample), so two
                                      # attempts with the same parameters are never one answer.
                                      digest(VERSION, "ask", row.question_version, attempt,
                                             request_settings(system, attempt)),
                                      payload=(row, etalon, None)))
        return cells

    def owned(self, world: World, partition: str) -> set[str]:
        """The etalons whose rows live in this partition: every one stored in its shard, any version."""
        return {r.code for r in world.etalon_rows(Part.parse(partition).shard)}

    def current_versions(self, world: World, partition: str) -> set[tuple[str, str]]:
        return {(r.code, r.version) for r, _ in world.current_etalons(Part.parse(partition).shard)}

    def partition_digest(self, world: World, partition: str,
                         ledger: Mapping[CellKey, LedgerRow] | None = None) -> str | None:
        cells = self.cells(world, partition, {})
        if cells is None:
            return "frozen"
        return digest(VERSION, sorted((list(c.key), c.input_hash) for c in cells))

    def compute(self, world: World, partition: str, cells: Sequence[Cell]) -> dict[CellKey, Computed]:
        part = Part.parse(partition)
        system = world.system(part.system)
        assert system is not None
        out: dict[CellKey, Computed] = {}
        if system.kind == "import":
            for cell in cells:
                row, _, item = cell.payload
                answer = _imported(part, row, cell.attempt, item, cell.input_hash)
                out[cell.key] = _computed(answer, retry=False)   # an imported error is what was imported
            return out
        reusable = {r["input_hash"]: r for r in world.lake.read("answers", *part.lake_key()).to_pylist()
                    if r.get("status") == "ok" and r.get("input_hash")}
        to_ask = []
        for cell in cells:
            row = cell.payload[0]
            old = reusable.get(cell.input_hash)
            if old is not None:   # the same question asked the same way, for an earlier version: no call
                copied = AnswerRow(**{**{k: old.get(k) for k in AnswerRow.__dataclass_fields__},
                                      "version": row.version, "code": row.code, "benchmark": row.benchmark,
                                      "attempt": cell.attempt})
                out[cell.key] = _computed(copied)
            else:
                to_ask.append(cell)
        if to_ask:
            from evaluation.answering import ask

            client = world.client
            answers = client.map(lambda c: ask(system, c.payload[1], c.attempt, client, c.payload[0].benchmark),
                                 to_ask, workers=max(1, system.concurrency))
            for cell, answer in zip(to_ask, answers, strict=True):
                out[cell.key] = _computed(_asked(part, cell.payload[0], answer, cell.input_hash))
        return out

    def summary(self, world: World, partition: str, ledger: Mapping[CellKey, LedgerRow]) -> dict[str, Any]:
        return {}


def _computed(row: AnswerRow, retry: bool = True) -> Computed:
    return Computed({"answers": [row]}, output_hash(row), status="error" if retry and row.status == "error" else "ok")


def _asked(part: Part, row: Any, answer: Any, input_hash: str) -> AnswerRow:
    return AnswerRow(system=part.system, benchmark=row.benchmark, code=row.code, version=row.version,
                     question_version=row.question_version, attempt=answer.attempt, text=answer.text,
                     sources=json.dumps(list(answer.sources), ensure_ascii=False), status=answer.status,
                     error=answer.error, tokens_in=answer.tokens_in, tokens_out=answer.tokens_out,
                     latency_ms=answer.latency_ms, cost=answer.cost, confidence=getattr(answer, "confidence", None),
                     created_at=answer.created_at, passport=answer.passport, input_hash=input_hash)


def _imported(part: Part, row: Any, attempt: int, item: Mapping[str, Any], input_hash: str) -> AnswerRow:
    status = item.get("status") or "ok"
    return AnswerRow(system=part.system, benchmark=row.benchmark, code=row.code, version=row.version,
                     question_version=row.question_version, attempt=attempt,
                     text=item.get("text") or "" if status != "error" else "",
                     sources=item.get("sources") or "[]", status=status, error=item.get("error"),
                     tokens_in=None, tokens_out=None, latency_ms=None, cost=None,
                     confidence=item.get("confidence"), created_at=item.get("imported_at"),
                     passport=json.dumps({"kind": "import", "file": item.get("file"), "line": item.get("line")},
                                         ensure_ascii=False),
                     input_hash=input_hash)


def imported_rows(world: World, system: str) -> dict[str, list[dict[str, Any]]]:
    """The imported answers of a system by code (read once per run)."""
    cache: dict[str, dict[str, list[dict[str, Any]]]] = world.__dict__.setdefault("_imported", {})
    if system not in cache:
        by_code: dict[str, list[dict[str, Any]]] = {}
        for item in world.lake.read("imported_answers", system).to_pylist():
            by_code.setdefault(item["code"], []).append(item)
        cache[system] = by_code
    return cache[system]


STAGE = AnswersStage()

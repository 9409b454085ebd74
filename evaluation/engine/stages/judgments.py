"""Candidates and judgments of every answer, one partition per shard and system.

The program prepares the critical-error and hallucination candidates from the answer's citations; a judge,
when one is configured, rules on every element twice (two independent runs), yes/no with a literal quote the
program checks. A row is computed from the answer, its citations (and what the corpus says of them), the
etalon's sources and rubric, and the judge's configuration: an edited etalon whose rubric did not change is
not judged again, and every call that was made before is served from the model-call cache.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, replace
from functools import lru_cache
from typing import Any, ClassVar

from evaluation.engine import code as stage_code
from evaluation.engine.keys import Part, Shard, digest
from evaluation.engine.stages.base import Cell, CellKey, CellStage, Computed, upstream_output
from evaluation.engine.world import World
from evaluation.systems import JudgeConfig
from warehouse.tables import CandidateRow, JudgmentRow, LedgerRow, from_row

VERSION = stage_code.version("judgments", "judgments-2")
_FIELDS = tuple(JudgmentRow.__dataclass_fields__)


@lru_cache(maxsize=1)
def _prompt_files_hash() -> str:
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "judge_prompts"
    h = hashlib.sha256()
    for path in sorted(folder.glob("*.yaml")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def judge_fingerprint(judge: JudgeConfig | None) -> str:
    """What of the judge's configuration changes a verdict: models, endpoints, parameters, prompts, guards."""
    if judge is None:
        return "no judge"
    relevant = judge.model_dump(mode="json", exclude={"api_key_env", "concurrency", "rpm", "timeout_s", "retries"})
    return digest(relevant, _prompt_files_hash())


class JudgmentsStage(CellStage):
    name: ClassVar[str] = "judgments"
    version: ClassVar[str] = VERSION
    tables: ClassVar[tuple[str, ...]] = ("candidates", "judgments")

    def cells(self, world: World, partition: str, ledger: Mapping[CellKey, LedgerRow]) -> list[Cell] | None:
        part = Part.parse(partition)
        if world.system(part.system) is None:
            return None
        key = part.lake_key()
        answers = world.ledger("answers", key)
        citations = world.ledger("citations", key)
        sources = world.ledger("sources", part.shard.lake_key())
        current = {(r.code, r.version): (r, e) for r, e in world.current_etalons(part.shard)}
        judge = judge_fingerprint(world.judge)
        cells = []
        for k, answer in sorted(answers.items()):
            found = current.get((k[0], k[1]))
            if found is None:
                continue
            row = found[0]
            cited = citations.get(k)
            source = sources.get((k[0], "", 0))
            basis = (VERSION, answer.output_hash, cited.output_hash if cited else None,
                     source.output_hash if source else None, row.rubric_version, row.methodology, judge)
            cells.append(Cell(*k, input_hash=digest(*basis), payload=found))
        return cells

    def owned(self, world: World, partition: str) -> set[str]:
        """The etalons whose rows live in this partition: every one stored in its shard, any version."""
        return {r.code for r in world.etalon_rows(Part.parse(partition).shard)}

    def current_versions(self, world: World, partition: str) -> set[tuple[str, str]]:
        return {(r.code, r.version) for r, _ in world.current_etalons(Part.parse(partition).shard)}

    def partition_digest(self, world: World, partition: str,
                         ledger: Mapping[CellKey, LedgerRow] | None = None) -> str | None:
        part = Part.parse(partition)
        if world.system(part.system) is None:
            return "frozen"
        citations = upstream_output(world, "citations", partition, part.lake_key())
        sources = upstream_output(world, "sources", part.shard.key, part.shard.lake_key())
        etalons = upstream_output(world, "etalons", part.shard.key, part.shard.lake_key())
        if citations is None or sources is None or etalons is None:
            return None
        return digest(VERSION, citations, sources, etalons, judge_fingerprint(world.judge))

    def compute(self, world: World, partition: str, cells: Sequence[Cell]) -> dict[CellKey, Computed]:
        from evaluation.candidates import build_candidates
        from evaluation.elements import elements_for
        from evaluation.records import Answer

        part = Part.parse(partition)
        key = part.lake_key()
        answers = _by_cell(world.lake.read("answers", *key).to_pylist())
        citations = _grouped(world.lake.read("citations", *key).to_pylist())
        sources = _sources(world, part.shard)
        corpus = world.corpus
        out: dict[CellKey, Computed] = {}
        for cell in cells:
            row, etalon = cell.payload
            answer = answers.get(cell.key)
            candidate_rows: list[CandidateRow] = []
            judgments: list[JudgmentRow] = []
            status = "ok"
            if answer is not None and answer["status"] == "ok":
                mine = citations.get(cell.key, [])
                expected = sources.get(row.code, [])
                texts = _texts(corpus, mine, expected)
                candidates = build_candidates(etalon, answer["text"], mine, texts, expected=expected,
                                              repealed_acts=corpus.repealed_acts)
                candidate_rows = [CandidateRow(system=part.system, benchmark=row.benchmark, code=row.code,
                                               version=row.version, attempt=cell.attempt, element=c.id,
                                               kind=c.kind, text=c.text,
                                               detail=json.dumps(dict(c.detail), ensure_ascii=False, default=str))
                                  for c in candidates]
                if world.judge is not None:
                    from evaluation.judge import judge as run_judge  # the model client: only with a judge

                    elements = elements_for(etalon, row.methodology, candidates)
                    scored = Answer(system=part.system, benchmark=row.benchmark, code=row.code, version=row.version,
                                    question_version=row.question_version, attempt=cell.attempt,
                                    text=answer["text"])
                    for j in run_judge(etalon, scored, elements, texts, world.judge, world.client):
                        record = {**asdict(replace(j, version=row.version)), "benchmark": row.benchmark,
                                  "rubric_version": row.rubric_version, "input_hash": cell.input_hash}
                        judgments.append(from_row(JudgmentRow, record))
                        if j.error and str(j.error).startswith("model error"):
                            status = "error"
            visible = ([[c.element, c.kind, c.text, c.detail] for c in candidate_rows],
                       [[j.element, j.run, j.verdict, j.quote, j.quote_found, j.judge_model, j.detail, j.error]
                        for j in judgments])
            out[cell.key] = Computed({"candidates": candidate_rows, "judgments": judgments}, digest(visible),
                                     status=status)
        return out

    def summary(self, world: World, partition: str, ledger: Mapping[CellKey, LedgerRow]) -> dict[str, Any]:
        return {}


def _by_cell(rows: list[dict[str, Any]]) -> dict[CellKey, dict[str, Any]]:
    return {(r["code"], r["version"], int(r["attempt"])): r for r in rows}


def _grouped(rows: list[dict[str, Any]]) -> dict[CellKey, list[dict[str, Any]]]:
    out: dict[CellKey, list[dict[str, Any]]] = {}
    for r in rows:
        out.setdefault((r["code"], r["version"], int(r["attempt"])), []).append(r)
    return out


def _sources(world: World, shard: Shard) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for r in world.lake.read("etalon_sources", *shard.lake_key()).to_pylist():
        out.setdefault(r["code"], []).append(r)
    for rows in out.values():
        rows.sort(key=lambda r: r["idx"])
    return out


def _texts(corpus: Any, citations: Sequence[Mapping[str, Any]], sources: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Texts of the cited and expected articles, as the judge and the candidate finder are shown them."""
    texts: dict[str, str] = {}
    for item in [*citations, *sources]:
        act, article = item.get("act"), item.get("article")
        if act and article and (act, article) in corpus.article_texts:
            texts[f"{act} {article}"] = corpus.article_texts[(act, article)]
    return texts


STAGE = JudgmentsStage()

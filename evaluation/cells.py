"""One evaluation cell (etalon x system) through its stages, reading and writing the lake.

Each stage reads only stored inputs (the stored etalon version, the stored answer text), so every stage of a
cell can be re-run alone and gives the same result for the same inputs; each returns a content hash that the
orchestrator records as the partition's data version, so unchanged results trigger nothing downstream.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

import pyarrow.compute as pc

from corpus.store import corpus_version, current_tables
from etalons import store as etalon_store
from etalons.model import Etalon
from evaluation.client import ModelClient
from evaluation.records import Answer, Judgment
from evaluation.systems import JudgeConfig, SystemConfig, SystemsFile
from warehouse.home import Home
from warehouse.lake import Lake


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def digest(rows: Iterable[Mapping[str, Any]], ignore: Sequence[str] = ()) -> str:
    """Content hash of rows, ignoring volatile columns (timestamps): the partition's data version."""
    h = hashlib.sha256()
    for row in rows:
        clean = {k: v for k, v in row.items() if k not in ignore}
        h.update(json.dumps(clean, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()[:16]


@dataclass
class RunContext:
    """What the cells of one run share: built once, so a run over many cells loads the corpus once."""

    lake: Lake
    home: Home
    systems: SystemsFile
    client: ModelClient
    _memo: dict[str, Any] = field(default_factory=dict)

    @property
    def judge(self) -> JudgeConfig | None:
        return self.systems.judge

    def system(self, system_id: str) -> SystemConfig:
        return self.systems.system(system_id)

    @cached_property
    def corpus(self) -> tuple[Any, Any]:
        return current_tables(self.lake)

    @cached_property
    def corpus_version(self) -> str:
        return corpus_version(self.lake)

    @cached_property
    def lookup(self) -> Any:
        from citations import SetLookup

        documents, units = self.corpus
        return SetLookup.from_tables(documents, units)

    @cached_property
    def unit_texts(self) -> dict[tuple[str, str], str]:
        """Article texts by (act, article): what the judge is shown of cited and expected norms."""
        _, units = self.corpus
        if units.num_rows == 0:
            return {}
        articles = units.filter(pc.equal(units["kind"], "article")) if "kind" in units.column_names else units
        out: dict[tuple[str, str], str] = {}
        for act, article, text in zip(articles["act"].to_pylist(), articles["article"].to_pylist(),
                                      articles["text"].to_pylist(), strict=True):
            if act and article and (act, article) not in out:
                out[(act, article)] = text or ""
        return out

    @cached_property
    def repealed_acts(self) -> frozenset[str]:
        documents, _ = self.corpus
        if documents.num_rows == 0 or "status" not in documents.column_names:
            return frozenset()
        return frozenset(a for a, s in zip(documents["act"].to_pylist(), documents["status"].to_pylist(),
                                           strict=True) if a and s == "repealed")

    def memo(self, key: str, make: Callable[[], Any]) -> Any:
        """A value shared by every cell of the run, computed once."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def benchmark_config(self, benchmark: str) -> dict[str, Any]:
        if "benchmarks" not in self._memo:
            self._memo["benchmarks"] = {r["id"]: r for r in self.lake.read_all("benchmarks").to_pylist()}
        row = self._memo["benchmarks"].get(benchmark) or {}
        return {k: json.loads(row[k]) for k in ("weights", "thresholds") if row.get(k)}


# -- answers --------------------------------------------------------------------------------------------

def answer_row(answer: Answer) -> dict[str, Any]:
    row = asdict(answer)
    row["sources"] = json.dumps(list(answer.sources), ensure_ascii=False)
    return row


def answer_from_row(row: Mapping[str, Any]) -> Answer:
    sources = tuple(json.loads(row["sources"])) if row.get("sources") else ()
    fields = Answer.__dataclass_fields__
    data: dict[str, Any] = {k: row.get(k) for k in fields if k != "sources"}
    return Answer(**data, sources=sources)


def stored_etalon(ctx: RunContext, code: str) -> tuple[dict[str, Any], Etalon] | None:
    key = f"etalon:{code}"
    if key not in ctx._memo:
        ctx._memo[key] = etalon_store.current(ctx.lake, code)
    found: tuple[dict[str, Any], Etalon] | None = ctx._memo[key]
    return found


def current_answers(ctx: RunContext, code: str, system: str, etalon: Etalon) -> list[Answer]:
    rows = ctx.lake.read("answers", code, system).to_pylist()
    return sorted((answer_from_row(r) for r in rows if r["question_version"] == etalon.question_version),
                  key=lambda a: a.attempt)


def answer_cell(ctx: RunContext, code: str, system_id: str) -> str:
    """Ask (or take the imported answer) once per attempt of the current question; reuse what is stored."""
    stored = stored_etalon(ctx, code)
    if stored is None:
        return "absent"
    row, etalon = stored
    system = ctx.system(system_id)
    existing = ctx.lake.read("answers", code, system_id).to_pylist()
    kept = [r for r in existing if r["question_version"] != etalon.question_version]
    current = {r["attempt"]: r for r in existing if r["question_version"] == etalon.question_version}
    if not row.get("archived"):
        if system.kind == "import":
            _take_imported(ctx, row, etalon, system, current)
        else:
            from evaluation.answering import ask

            for attempt in range(1, system.attempts + 1):
                old = current.get(attempt)
                if old is None or old["status"] == "error":  # errors are retried, successes never re-asked
                    current[attempt] = answer_row(ask(system, etalon, attempt, ctx.client, row["benchmark"]))
    ordered = [current[a] for a in sorted(current)]
    ctx.lake.write("answers", (code, system_id), kept + ordered)
    return digest(ordered, ignore=("created_at", "latency_ms", "passport"))


def _take_imported(ctx: RunContext, row: Mapping[str, Any], etalon: Etalon, system: SystemConfig,
                   current: dict[int, dict[str, Any]]) -> None:
    imported = ctx.lake.read("imported_answers", system.id)
    for item in imported.to_pylist():
        if item["code"] != etalon.code:
            continue
        if item.get("question_version") and item["question_version"] != etalon.question_version:
            continue  # imported for an older question: it does not answer the current one
        old = current.get(item["attempt"])
        if old is not None and old["text"] == item["text"] and old["sources"] == item["sources"]:
            continue
        answer = Answer(system=system.id, benchmark=row["benchmark"], code=etalon.code, version=row["version"],
                        question_version=etalon.question_version, attempt=int(item["attempt"]),
                        text=item["text"], sources=tuple(json.loads(item["sources"] or "[]")),
                        created_at=item.get("imported_at"),
                        passport=json.dumps({"kind": "import", "file": item.get("file"),
                                             "line": item.get("line")}, ensure_ascii=False))
        current[answer.attempt] = answer_row(answer)


# -- citations ------------------------------------------------------------------------------------------

def _citation_key(c: Any) -> tuple[Any, ...]:
    return (c.kind, c.act, c.article, c.court, c.number)


def cite_cell(ctx: RunContext, code: str, system_id: str) -> str:
    """Citations of the answer text (in_text) and of its separate sources list (only those not in the text)."""
    from citations import extract, resolve

    stored = stored_etalon(ctx, code)
    if stored is None:
        return "absent"
    row, etalon = stored
    out: list[dict[str, Any]] = []
    for answer in current_answers(ctx, code, system_id, etalon):
        if answer.status != "ok":
            continue
        body = extract(answer.text, etalon.jurisdiction)
        seen = {_citation_key(c) for c in body}
        listed: list[Any] = []
        for source in answer.sources:
            listed.extend(c for c in extract(source, etalon.jurisdiction) if _citation_key(c) not in seen)
        for in_text, group in ((True, body), (False, listed)):
            for resolution in resolve(group, ctx.lookup):
                record = resolution.citation.to_record(status=resolution.status)
                record.update(system=system_id, code=code, version=row["version"], attempt=answer.attempt,
                              in_text=in_text, other_acts=",".join(resolution.other_acts) or None)
                out.append(record)
    ctx.lake.write("citations", (code, system_id), out)
    return digest(out)


def stored_citations(ctx: RunContext, code: str, system_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = ctx.lake.read("citations", code, system_id).to_pylist()
    return found


# -- judgments ------------------------------------------------------------------------------------------

def _texts_for(ctx: RunContext, citations: Sequence[Mapping[str, Any]],
               sources: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    texts: dict[str, str] = {}
    for item in [*citations, *sources]:
        act, article = item.get("act"), item.get("article")
        if act and article and (act, article) in ctx.unit_texts:
            texts[f"{act} {article}"] = ctx.unit_texts[(act, article)]
    return texts


def judge_cell(ctx: RunContext, code: str, system_id: str) -> str:
    """Prepare the candidates (always) and, when a judge is configured, judge every element twice."""
    from evaluation.candidates import build_candidates
    from evaluation.elements import elements_for
    from evaluation.judge import judge

    stored = stored_etalon(ctx, code)
    if stored is None:
        return "absent"
    row, etalon = stored
    citations = stored_citations(ctx, code, system_id)
    sources = etalon_store.read_sources(ctx.lake, code)
    judgments: list[dict[str, Any]] = []
    candidate_rows: list[dict[str, Any]] = []
    for answer in current_answers(ctx, code, system_id, etalon):
        if answer.status != "ok":
            continue
        mine = [c for c in citations if c["attempt"] == answer.attempt]
        texts = _texts_for(ctx, mine, sources)
        candidates = build_candidates(etalon, answer.text, mine, texts, expected=sources,
                                      repealed_acts=ctx.repealed_acts)
        for c in candidates:
            candidate_rows.append({"system": system_id, "code": code, "version": row["version"],
                                   "attempt": answer.attempt, "element": c.id, "kind": c.kind, "text": c.text,
                                   "detail": json.dumps(dict(c.detail), ensure_ascii=False, default=str)})
        if ctx.judge is None:
            continue
        elements = elements_for(etalon, row["methodology"], candidates)
        scored = replace(answer, version=row["version"])
        for j in judge(etalon, scored, elements, texts, ctx.judge, ctx.client):
            record = asdict(j)
            record["rubric_version"] = etalon.rubric_version
            judgments.append(record)
    ctx.lake.write("candidates", (code, system_id), candidate_rows)
    ctx.lake.write("judgments", (code, system_id), judgments)
    return digest(candidate_rows) + digest(judgments, ignore=("raw",))


def stored_judgments(ctx: RunContext, code: str, system_id: str) -> list[Judgment]:
    fields = Judgment.__dataclass_fields__
    return [Judgment(**{k: r.get(k) for k in fields})
            for r in ctx.lake.read("judgments", code, system_id).to_pylist()]

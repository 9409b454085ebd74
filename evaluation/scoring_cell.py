"""Scoring one cell from stored records: the bridge between the lake and the pure scorer."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from etalons import store as etalon_store
from evaluation.cells import (
    RunContext,
    current_answers,
    digest,
    now,
    stored_citations,
    stored_etalon,
    stored_judgments,
)
from evaluation.elements import Element
from evaluation.methodologies.config import config_for
from evaluation.methodologies.inputs import AnswerCitation, ExpectedSource
from evaluation.quotes import closest_passage
from evaluation.records import Judgment
from evaluation.review_store import all_decisions, approvals, for_cell
from evaluation.scoring import score_answer


def expected_sources(rows: list[dict[str, Any]]) -> list[ExpectedSource]:
    return [ExpectedSource(index=int(r["idx"]), citation=r["citation"], priority=r["priority"],
                           condition=r.get("condition"), kind=r.get("kind") or "article", act=r.get("act"),
                           article=r.get("article"), article_to=r.get("article_to"), part=r.get("part"),
                           court=r.get("court"), number=r.get("number"), point=r.get("point"),
                           status=r.get("status") or "not_found") for r in rows]


def answer_citations(rows: list[dict[str, Any]]) -> list[AnswerCitation]:
    return [AnswerCitation(kind=r.get("kind") or "article", act=r.get("act"), article=r.get("article"),
                           article_to=r.get("article_to"), part=r.get("part"), court=r.get("court"),
                           number=r.get("number"), point=r.get("point"), status=r.get("status"),
                           in_text=bool(r.get("in_text")), text=r.get("text")) for r in rows]


def _candidates(ctx: RunContext, code: str, system_id: str, attempt: int) -> list[Element]:
    rows = ctx.lake.read("candidates", code, system_id).to_pylist()
    return [Element(id=r["element"], kind=r["kind"], text=r["text"], detail=json.loads(r["detail"] or "{}"))
            for r in rows if r["attempt"] == attempt]


def _near_miss(target: str, judgments: list[Judgment], text: str) -> str:
    """For a quote the judge gave that is not in the answer: the closest passage, to speed up the reviewer."""
    for j in judgments:
        if j.element == target and j.quote and not j.quote_found:
            found = closest_passage(j.quote, text)
            if found is not None:
                score, passage = found
                return f"; run {j.run} quoted text not in the answer, closest passage ({score:.0f}% alike): «{passage}»"
    return ""


def _signed(ctx: RunContext, row: dict[str, Any]) -> bool:
    sigs = ctx.memo("signatures", lambda: ctx.lake.read_all("signatures").to_pylist())
    return any(s["code"] == row["code"] and s["version"] == row["version"] for s in sigs)


def _reviewers(ctx: RunContext, benchmark: str) -> int:
    """Independent lawyers the benchmark asks per review item (`review: {reviewers: N}`; 1 by default)."""
    rows = ctx.memo("benchmark_rows", lambda: {r["id"]: r for r in ctx.lake.read_all("benchmarks").to_pylist()})
    return int(rows.get(benchmark, {}).get("reviewers") or 1)


def score_cell(ctx: RunContext, code: str, system_id: str) -> str:
    stored = stored_etalon(ctx, code)
    if stored is None:
        return "absent"
    row, etalon = stored
    methodology = row["methodology"]
    bench = ctx.benchmark_config(row["benchmark"])
    bench_methodology = ctx._memo.get(f"bm:{row['benchmark']}")
    config = config_for(methodology, bench if bench and bench_methodology in (None, methodology) else None)
    expected = expected_sources([r for r in etalon_store.read_sources(ctx.lake, code)
                                if r["version"] == row["version"]])
    citations = stored_citations(ctx, code, system_id)
    judgments = stored_judgments(ctx, code, system_id)
    decisions = for_cell(ctx.memo("decisions", lambda: all_decisions(ctx.lake)), code, system_id)
    approved = [a for a in ctx.memo("approvals", lambda: approvals(ctx.lake))
                if a["code"] == code and a["system"] == system_id and a["version"] == row["version"]]
    signed = _signed(ctx, row)
    scores: list[dict[str, Any]] = []
    items: list[dict[str, Any]] = []
    for answer in current_answers(ctx, code, system_id, etalon):
        answer = replace(answer, version=row["version"])
        approver = next((a["approved_by"] for a in reversed(approved) if a["attempt"] == answer.attempt), None)
        scored = score_answer(
            etalon=etalon, benchmark=row["benchmark"], answer=answer,
            expected=expected,
            cited=answer_citations([c for c in citations if c["attempt"] == answer.attempt]),
            judgments=[j for j in judgments if j.attempt == answer.attempt and j.version == row["version"]],
            decisions=decisions, config=config, judge_configured=ctx.judge is not None, signed=signed,
            approved_by=approver, candidates=_candidates(ctx, code, system_id, answer.attempt),
            reviewers=_reviewers(ctx, row["benchmark"]),
        )
        s = scored.score
        scores.append({
            "system": s.system, "benchmark": s.benchmark, "code": s.code, "version": s.version,
            "attempt": s.attempt, "methodology": s.methodology, "score": s.score, "verdict": s.verdict,
            "status": s.status, "indicative": scored.indicative,
            "components": json.dumps(s.components, ensure_ascii=False),
            "open_items": len(s.open_items), "notes": json.dumps(list(s.notes), ensure_ascii=False),
            "corpus_version": ctx.corpus_version, "scored_at": now(), "jurisdiction": etalon.jurisdiction,
            "branch": etalon.branch, "difficulty": etalon.difficulty, "type": etalon.type,
            "tokens_in": answer.tokens_in, "tokens_out": answer.tokens_out, "cost": answer.cost,
            "approved_by": approver if s.status == "approved" else None,
        })
        mine = [j for j in judgments if j.attempt == answer.attempt and j.version == row["version"]]
        for item in s.open_items:
            items.append({"id": item.id, "system": item.system, "code": item.code, "version": item.version,
                          "attempt": item.attempt, "target": item.target,
                          "why": item.why + _near_miss(item.target, mine, answer.text),
                          "options": json.dumps(list(item.options))})
    # Scores of earlier etalon versions stay: "what changed since the last version" is a query, not a guess.
    earlier = [r for r in ctx.lake.read("scores", code, system_id).to_pylist() if r["version"] != row["version"]]
    ctx.lake.write("review_items", (code, system_id), items)
    ctx.lake.write("scores", (code, system_id), earlier + scores)
    return digest(scores, ignore=("scored_at",))

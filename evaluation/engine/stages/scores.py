"""Scores, verdicts and what waits for a human, one partition per shard and system.

Each answer is scored by its etalon's methodology from the stored records: the judged elements resolved (two
runs that agree, with a quote found in the answer, settle an element; anything else waits for a human), the
human decisions on the cell, the benchmark's own settings for that methodology. A row is computed from all of
these, so a decision, an undo, an approval, an edited etalon, a changed benchmark.yaml or a re-judged answer
re-scores exactly the cells they concern.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from evaluation.engine import code as stage_code
from evaluation.engine.keys import Part, digest
from evaluation.engine.stages.base import Cell, CellKey, CellStage, Computed, upstream_output
from evaluation.engine.world import World
from warehouse.tables import AuditCellRow, AuditTargetRow, LedgerRow, ReviewItemRow, ScoreRow, from_row

VERSION = stage_code.version("scores", "scores-4")
_SITUATIONS = (
    ("possible manipulation", "manipulation"),
    ("disagreement marked by", "disputed"),
    ("independent reviews recorded", "awaiting_review"),
    ("an adjudicator decides", "to_adjudicate"),
    ("disagree", "runs_disagree"),
    ("quote", "quote_not_found"),
    ("cannot settle", "unsettled"),
    ("no judge is configured", "no_judge"),
    ("overrule", "overruled"),
)


def situation(why: str) -> str:
    """Which of the reviewer's situations an open item is in, from why it is open."""
    text = why.lower()
    for needle, name in _SITUATIONS:
        if needle in text:
            return name
    return "no_verdict"


class ScoresStage(CellStage):
    name: ClassVar[str] = "scores"
    version: ClassVar[str] = VERSION
    tables: ClassVar[tuple[str, ...]] = ("scores", "review_items", "audit_cells", "audit_targets")

    def cells(self, world: World, partition: str, ledger: Mapping[CellKey, LedgerRow]) -> list[Cell] | None:
        part = Part.parse(partition)
        if world.system(part.system) is None:
            return None
        key = part.lake_key()
        answers = world.ledger("answers", key)
        citations = world.ledger("citations", key)
        judgments = world.ledger("judgments", key)
        sources = world.ledger("sources", part.shard.lake_key())
        current = {(r.code, r.version): (r, e) for r, e in world.current_etalons(part.shard)}
        humans = world.human_names(part.benchmark, {c for c, _ in current}, part.system)
        settings = world.settings.get(part.benchmark)
        judged = world.judge is not None
        cells = []
        for k, answer in sorted(answers.items()):
            found = current.get((k[0], k[1]))
            if found is None:
                continue
            row = found[0]
            scoring = settings.scoring_hash(row.methodology) if settings else None
            review = settings.raw.get("review") if settings else None
            audit = settings.raw.get("audit") if settings else None   # the seed places the answer in the draw
            basis = (VERSION, answer.output_hash, _out(citations.get(k)), _out(judgments.get(k)),
                     _out(sources.get((k[0], "", 0))), row.version, row.benchmark, row.methodology, row.branch,
                     row.difficulty, row.type, row.jurisdiction, scoring, review, judged,
                     sorted(humans.get(k[0], [])), audit)
            # What this score read of the corpus: the resolved citations and sources it was computed from.
            seen = digest(_out(citations.get(k)), _out(sources.get((k[0], "", 0))))
            cells.append(Cell(*k, input_hash=digest(*basis), payload=(*found, seen)))
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
        key, shard = part.lake_key(), part.shard
        upstream = [upstream_output(world, "answers", partition, key),
                    upstream_output(world, "citations", partition, key),
                    upstream_output(world, "judgments", partition, key),
                    upstream_output(world, "sources", shard.key, shard.lake_key()),
                    upstream_output(world, "etalons", shard.key, shard.lake_key())]
        if any(u is None for u in upstream):
            return None
        settings = world.settings.get(part.benchmark)
        codes = [r.code for r, _ in world.current_etalons(shard)]
        humans = world.human_names(part.benchmark, codes, part.system)
        return digest(VERSION, upstream, settings.raw if settings else None, world.judge is not None,
                      sorted((c, sorted(n)) for c, n in humans.items()))

    def compute(self, world: World, partition: str, cells: Sequence[Cell]) -> dict[CellKey, Computed]:
        from evaluation.engine.stages.judgments import _by_cell, _grouped, _sources

        part = Part.parse(partition)
        key = part.lake_key()
        answers = _by_cell(world.lake.read("answers", *key).to_pylist())
        citations = _grouped(world.lake.read("citations", *key).to_pylist())
        judgments = _grouped(world.lake.read("judgments", *key).to_pylist())
        candidates = _grouped(world.lake.read("candidates", *key).to_pylist())
        sources = _sources(world, part.shard)
        settings = world.settings.get(part.benchmark)
        events = human_events(world, part, {c.code for c in cells})
        from evaluation.audit.sample import AuditSettings

        audit = AuditSettings.of(settings.raw if settings else None)
        audit_seed = audit.seed if audit is not None else None
        out: dict[CellKey, Computed] = {}
        for cell in cells:
            row, etalon, seen = cell.payload
            answer = answers.get(cell.key)
            if answer is None:
                continue
            overrides = settings.overrides(row.methodology) if settings else {}
            review = (settings.raw.get("review") or {}) if settings else {}
            score, items, audit_cell, targets = score_one(
                part, row, etalon, answer, citations.get(cell.key, []), judgments.get(cell.key, []),
                candidates.get(cell.key, []), sources.get(row.code, []), overrides, events, world.judge is not None,
                cell.input_hash, world.at, seen, int(review.get("reviewers", 1) or 1), audit_seed)
            visible = ([v for k, v in score.__dict__.items() if k not in ("scored_at", "input_hash")],
                       [i.__dict__ for i in items], [a.__dict__ for a in audit_cell], [t.__dict__ for t in targets])
            out[cell.key] = Computed({"scores": [score], "review_items": items, "audit_cells": audit_cell,
                                      "audit_targets": targets}, digest(visible))
        return out

    def summary(self, world: World, partition: str, ledger: Mapping[CellKey, LedgerRow]) -> dict[str, Any]:
        """What a data engineer reads at a glance on the partition: cells, mean score, verdicts, errors, open."""
        key = Part.parse(partition).lake_key()
        rows = [r for r in world.lake.read("scores", *key).to_pylist()
                if (r["code"], r["version"], int(r["attempt"])) in ledger]
        scored = [r["score"] for r in rows if r["score"] is not None and r["status"] != "error"]
        verdicts = {v: sum(1 for r in rows if r["verdict"] == v) for v in ("positive", "partial", "negative")}
        return {"cells": len(rows), "mean_score": round(sum(scored) / len(scored), 2) if scored else None,
                **verdicts, "errors": sum(1 for r in rows if r["status"] == "error"),
                "open_items": sum(int(r["open_items"] or 0) for r in rows),
                "needs_input": sum(1 for r in rows if r["status"] == "needs_input")}


def _out(row: LedgerRow | None) -> str | None:
    return row.output_hash if row is not None else None


def human_events(world: World, part: Part, codes: set[str]) -> dict[str, Any]:
    """Decisions and audit labels (with their undos) and approvals on the system's cells of these codes."""
    from evaluation.records import Decision

    names = world.human_names(part.benchmark, codes, part.system)
    decisions: list[Decision] = []
    audits: list[Decision] = []
    approvals: list[dict[str, Any]] = []
    for code, found in names.items():
        by_table: dict[str, list[str]] = {}
        for name in found:
            table, _, event = name.partition("/")
            by_table.setdefault(table, []).append(event)
        undone = {r["decision_id"]: r for r in
                  world.lake.read_events("revocations", part.benchmark, code,
                                         names=by_table.get("revocations", [])).to_pylist()}
        for r in world.lake.read_events("decisions", part.benchmark, code,
                                        names=by_table.get("decisions", [])).to_pylist():
            u = undone.get(r["decision_id"], {})
            decisions.append(Decision(
                decision_id=r["decision_id"], system=r["system"], code=r["code"], version=r["version"],
                attempt=int(r["attempt"]), target=r["target"], decision=r["decision"], decided_by=r["decided_by"],
                decided_at=r["decided_at"], note=r.get("note"), revoked_at=u.get("revoked_at"),
                revoked_by=u.get("revoked_by"), kind=r.get("kind") or "decision", via=r.get("via")))
        if by_table.get("audits"):
            for r in world.lake.read_events("audits", part.benchmark, code, names=by_table["audits"]).to_pylist():
                u = undone.get(r["decision_id"], {})
                audits.append(Decision(
                    decision_id=r["decision_id"], system=r["system"], code=r["code"], version=r["version"],
                    attempt=int(r["attempt"]), target=r["target"], decision=r["label"], decided_by=r["decided_by"],
                    decided_at=r["decided_at"], note=r.get("note"), revoked_at=u.get("revoked_at"),
                    revoked_by=u.get("revoked_by"), kind="decision", via=r.get("via")))
        approvals.extend(world.lake.read_events("approvals", part.benchmark, code,
                                                names=by_table.get("approvals", [])).to_pylist())
    decisions.sort(key=lambda d: (d.decided_at, d.decision_id))
    audits.sort(key=lambda d: (d.decided_at, d.decision_id))
    approvals.sort(key=lambda a: a["approved_at"])
    return {"decisions": decisions, "audits": audits, "approvals": approvals}


def score_one(part: Part, row: Any, etalon: Any, answer: Mapping[str, Any], citations: Sequence[Mapping[str, Any]],
              judgments: Sequence[Mapping[str, Any]], candidates: Sequence[Mapping[str, Any]],
              sources: Sequence[Mapping[str, Any]], overrides: Mapping[str, Any], events: Mapping[str, Any],
              judged: bool, input_hash: str, at: str, corpus_version: str, reviewers: int = 1,
              audit_seed: int | None = None,
              ) -> tuple[ScoreRow, list[ReviewItemRow], list[AuditCellRow], list[AuditTargetRow]]:
    """One answer's score row, its open review items and its part in the audit of the judge."""
    from evaluation.elements import Element
    from evaluation.methodologies.config import config_for
    from evaluation.records import Answer, Judgment
    from evaluation.scoring import score_answer

    attempt = int(answer["attempt"])
    record = Answer(system=part.system, benchmark=row.benchmark, code=row.code, version=row.version,
                    question_version=row.question_version, attempt=attempt, text=answer["text"] or "",
                    status=answer["status"], error=answer.get("error"),
                    sources=tuple(json.loads(answer.get("sources") or "[]")), tokens_in=answer.get("tokens_in"),
                    tokens_out=answer.get("tokens_out"), cost=answer.get("cost"))
    judged_rows = [from_row(Judgment, j) for j in judgments]
    approved = [a for a in events["approvals"] if a["code"] == row.code and a["system"] == part.system
                and a["version"] == row.version and int(a["attempt"]) == attempt]
    approver = approved[-1]["approved_by"] if approved else None
    decisions = [d for d in events["decisions"] if d.code == row.code and d.system == part.system]

    def score_with(chosen: Sequence[Any]) -> Any:
        return score_answer(
            etalon=etalon, benchmark=row.benchmark, answer=record, expected=expected_sources(list(sources)),
            cited=answer_citations(list(citations)), judgments=judged_rows, decisions=chosen,
            config=config_for(row.methodology, overrides), judge_configured=judged, signed=False,
            approved_by=approver, reviewers=reviewers,
            candidates=[Element(id=c["element"], kind=c["kind"], text=c["text"],
                                detail=json.loads(c["detail"] or "{}")) for c in candidates])

    scored = score_with(decisions)
    s = scored.score
    score = ScoreRow(
        system=s.system, benchmark=s.benchmark, code=s.code, version=s.version, attempt=s.attempt,
        methodology=s.methodology, score=s.score, verdict=s.verdict, status=s.status,
        components=json.dumps(s.components, ensure_ascii=False), open_items=len(s.open_items),
        notes=json.dumps(list(s.notes), ensure_ascii=False), rule=s.rule, corpus_version=corpus_version,
        scored_at=at, jurisdiction=row.jurisdiction, branch=row.branch, difficulty=int(row.difficulty),
        type=row.type, tokens_in=answer.get("tokens_in"), tokens_out=answer.get("tokens_out"),
        cost=answer.get("cost"), confidence=answer.get("confidence"),
        approved_by=approver if s.status == "approved" else None, input_hash=input_hash)
    items = [ReviewItemRow(id=i.id, benchmark=row.benchmark, system=i.system, code=i.code, version=i.version,
                           attempt=i.attempt, target=i.target,
                           why=i.why + near_miss(i.target, judged_rows, record.text), situation=situation(i.why),
                           options=json.dumps(list(i.options))) for i in s.open_items]
    cells, targets = _audit_rows(part, row, attempt, record.status, scored, judged_rows, decisions,
                                 [a for a in events.get("audits", []) if a.code == row.code and a.system == part.system],
                                 judged, reviewers, audit_seed, lambda chosen: score_with(chosen).score)
    return score, items, cells, targets


def _audit_rows(part: Part, row: Any, attempt: int, status: str, scored: Any, judgments: Sequence[Any],
                decisions: Sequence[Any], audits: Sequence[Any], judged: bool, reviewers: int,
                seed: int | None, rescore: Any) -> tuple[list[AuditCellRow], list[AuditTargetRow]]:
    """The answer's audit targets and its judge's and human scores (evaluation.audit.cells)."""
    from evaluation.audit.cells import cell_audit
    from evaluation.audit.sample import audit_hash

    if scored.score.status == "error":
        return [], []
    key = (part.system, row.code, row.version, attempt)
    audit = cell_audit(dict(scored.states), key=key, answer_status=status, judgments=judgments,
                       decisions=decisions, audits=audits, judge_configured=judged, reviewers=reviewers,
                       official=scored.score, rescore=rescore)
    judge, human = audit.judge, audit.human
    cell = AuditCellRow(
        system=part.system, benchmark=row.benchmark, code=row.code, version=row.version, attempt=attempt,
        methodology=row.methodology, targets=len(audit.targets), kinds=json.dumps(list(audit.kinds)),
        covered=audit.covered, audit_hash=audit_hash(seed, *key) if seed is not None else None,
        judge_score=judge.score if judge is not None else None, judge_verdict=judge.verdict if judge else None,
        human_score=human.score if human is not None else None, human_verdict=human.verdict if human else None)
    targets = [AuditTargetRow(system=part.system, benchmark=row.benchmark, code=row.code, version=row.version,
                              attempt=attempt, target=t.target, kind=t.kind, options=json.dumps(list(t.options)),
                              automatic=t.automatic, human=t.human, source=t.source, label_id=t.label_id)
               for t in audit.targets]
    return [cell], targets


def expected_sources(rows: list[Mapping[str, Any]]) -> list[Any]:
    from evaluation.methodologies.inputs import ExpectedSource

    return [ExpectedSource(index=int(r["idx"]), citation=r["citation"], priority=r["priority"],
                           condition=r.get("condition"), kind=r.get("kind") or "article", act=r.get("act"),
                           article=r.get("article"), article_to=r.get("article_to"), part=r.get("part"),
                           court=r.get("court"), number=r.get("number"), point=r.get("point"),
                           status=r.get("status") or "not_found") for r in rows]


def answer_citations(rows: list[Mapping[str, Any]]) -> list[Any]:
    from evaluation.methodologies.inputs import AnswerCitation

    return [AnswerCitation(kind=r.get("kind") or "article", act=r.get("act"), article=r.get("article"),
                           article_to=r.get("article_to"), part=r.get("part"), court=r.get("court"),
                           number=r.get("number"), point=r.get("point"), status=r.get("status"),
                           in_text=bool(r.get("in_text")), text=r.get("text")) for r in rows]


def near_miss(target: str, judgments: Sequence[Any], text: str) -> str:
    """For a quote the judge gave that is not in the answer: the closest passage, to speed up the reviewer."""
    from evaluation.quotes import closest_passage

    for j in judgments:
        if j.element == target and j.quote and not j.quote_found:
            found = closest_passage(j.quote, text)
            if found is not None:
                score, passage = found
                return f"; run {j.run} quoted text not in the answer, closest passage ({score:.0f}% alike): «{passage}»"
    return ""


STAGE = ScoresStage()

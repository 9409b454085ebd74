"""Everything a lawyer needs to settle one element of one answer, gathered from the snapshot.

The element states are recomputed here with the scorer's own pure functions (elements_for, resolve,
target_reviews) from the judgments and decisions of this one cell, so the page shows a decision the moment
it is recorded, before the cell is re-scored; the score, verdict and the rule that decided it come from
eval.scores and say when they were computed.

An answer of the audit sample with an audit item still waiting is shown blind: no judge run, verdict, quote,
automatic conclusion or score (they would tell the lawyer what the judge said), until every audit item of the
answer has its label; then the labels are shown beside the judge's conclusions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from app.web.corpus import Corpus, UnitText
from app.web.render import Segment, highlight
from app.web.snapshot import Snapshot
from etalons.model import Etalon
from evaluation.elements import Element, elements_for
from evaluation.methodologies.inputs import ElementState
from evaluation.methodologies.resolution import resolve
from evaluation.records import Decision, Judgment
from evaluation.review import TargetReview, item_id, target_reviews


@dataclass
class ElementView:
    element: Element
    state: ElementState
    review: TargetReview | None
    runs: list[dict[str, Any]]
    id: str
    is_open: bool


@dataclass
class CellView:
    system: str
    code: str
    version: str
    attempt: int
    benchmark: str
    methodology: str
    etalon: Etalon
    etalon_row: dict[str, Any]
    answer: dict[str, Any] | None
    segments: list[Segment]
    quotes: list[dict[str, Any]]
    elements: list[ElementView]
    selected: ElementView | None
    score: dict[str, Any] | None
    components: dict[str, float]
    notes: list[str]
    cited: list[tuple[dict[str, Any], UnitText]]
    expected: list[tuple[dict[str, Any], list[UnitText]]]
    candidates: list[dict[str, Any]]
    history: list[Decision]
    reviewers_required: int
    open_ids: set[str] = field(default_factory=set)
    audit_waiting: set[str] = field(default_factory=set)        # targets of audit items waiting for a label
    audit_labels: dict[str, dict[str, Any]] = field(default_factory=dict)   # target -> the label in force

    @property
    def blind(self) -> bool:
        """Whether the page must hide what the judge said: an audit item of this answer waits for its label."""
        return bool(self.audit_waiting)


def decisions_of(rows: list[dict[str, Any]]) -> list[Decision]:
    return [Decision(decision_id=r["decision_id"], system=r["system"], code=r["code"], version=r["version"],
                     attempt=int(r["attempt"]), target=r["target"], decision=r["decision"],
                     decided_by=r["decided_by"], decided_at=r["decided_at"], note=r.get("note"),
                     revoked_at=r.get("revoked_at"), revoked_by=r.get("revoked_by"),
                     kind=r.get("kind") or "decision", via=r.get("via")) for r in rows]


def _judgment(r: dict[str, Any]) -> Judgment:
    return Judgment(r["system"], r["code"], r["version"], int(r["attempt"]), r["element"], int(r["run"]),
                    r.get("verdict"), r.get("quote"), bool(r.get("quote_found")), r.get("judge_model") or "",
                    detail=r.get("detail"), error=r.get("error"))


def _reason(r: dict[str, Any]) -> str | None:
    try:
        detail = json.loads(r.get("detail") or "{}")
    except ValueError:
        return None
    if not isinstance(detail, dict):
        return None
    reason = detail.get("reason") or detail.get("brief_justification")
    check = detail.get("quote_check")
    return " — ".join(str(x) for x in (reason, check) if x) or None


def cell(snap: Snapshot, corpus: Corpus, system: str, code: str, version: str, attempt: int,
         target: str | None, reviewers_required: int, judge_configured: bool) -> CellView | None:
    row = snap.one("SELECT * FROM history WHERE code = ? AND version = ?", [code, version])
    if row is None:
        return None
    etalon = Etalon.model_validate(json.loads(row["content"]))
    methodology = row["methodology"]
    key = [system, code, version, attempt]
    where = "system = ? AND code = ? AND version = ? AND attempt = ?"
    answer = snap.one("SELECT a.* FROM answers a WHERE system = ? AND code = ? AND attempt = ? "
                      "ORDER BY (question_version = ?) DESC, created_at DESC LIMIT 1",
                      [system, code, attempt, etalon.question_version])
    judgments = snap.rows(f"SELECT * FROM judgments WHERE {where} ORDER BY element, run", key)
    candidates = snap.rows(f"SELECT * FROM candidates WHERE {where} ORDER BY element", key)
    decision_rows = snap.rows(f"SELECT * FROM decisions WHERE {where} ORDER BY decided_at, decision_id", key)
    history = decisions_of(decision_rows)
    reviews = target_reviews(history, reviewers_required)
    waiting = snap.rows(f"SELECT id, target, situation FROM review WHERE {where}", key)
    open_ids = {r["id"] for r in waiting if r.get("situation") != "audit"}
    audit_waiting = {r["target"] for r in waiting if r.get("situation") == "audit"}
    audit_labels = {r["target"]: r for r in snap.rows(
        f"SELECT * FROM audits WHERE {where} AND revoked_at IS NULL ORDER BY decided_at, decision_id", key)} \
        if snap.has_column("audits", "label") else {}
    cand_elements = [Element(c["element"], c["kind"], c["text"], detail=json.loads(c["detail"] or "{}"))
                     for c in candidates]
    elements: list[ElementView] = []
    for element in elements_for(etalon, methodology, cand_elements):
        runs = [j for j in judgments if j["element"] == element.id]
        eid = item_id(system, code, version, attempt, element.id)
        review = reviews.get(eid)
        state = resolve(element, [_judgment(j) for j in runs], judge_configured=judge_configured,
                        decision=review.effective if review else None)
        is_open = state.is_open or (review is not None and review.pending is not None and state.decision is None)
        for j in runs:
            j["reason"] = _reason(j)
        elements.append(ElementView(element, state, review, runs, eid, is_open or eid in open_ids))
    selected = next((e for e in elements if e.element.id == target), None) if target else \
        next((e for e in elements if e.is_open), elements[0] if elements else None)
    text = (answer or {}).get("text") or ""
    if audit_waiting:   # blind: nothing the judge said reaches the page
        for e in elements:
            e.runs = []
        judgments = []
    quoted = [j for j in judgments if j.get("quote")]
    spans_for = [j["quote"] for j in quoted]
    segments = highlight(text, spans_for)
    marked = {n for s in segments for n in s.marks}
    quotes = [{"n": n, "element": j["element"], "run": j["run"], "quote": j["quote"],
               "found": n in marked, "quote_found": bool(j.get("quote_found"))} for n, j in enumerate(quoted)]
    score = None if audit_waiting else snap.one(f"SELECT * FROM scores WHERE {where}", key)
    components = json.loads(score["components"]) if score and score.get("components") else {}
    notes = json.loads(score["notes"]) if score and score.get("notes") else []
    cited = [(c, corpus.resolve_row(c)) for c in snap.rows(f"SELECT * FROM citations WHERE {where} ORDER BY start", key)]
    expected = [(s, corpus.resolve_text(s["citation"], etalon.jurisdiction))
                for s in snap.rows("SELECT * FROM sources WHERE code = ? AND version = ? ORDER BY idx", [code, version])]
    if audit_waiting and (selected is None or selected.element.id not in audit_waiting) and target is None:
        selected = next((e for e in elements if e.element.id in audit_waiting), selected)
    return CellView(system, code, version, attempt, row["benchmark"], methodology, etalon, row, answer, segments,
                    quotes, elements, selected, score, components, notes, cited, expected, candidates, history,
                    reviewers_required, open_ids, audit_waiting, audit_labels)

"""Builders for scoring tests: a small authored etalon and records around it (no corpus text)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from etalons.model import Etalon
from evaluation.elements import Element
from evaluation.records import Answer, Decision, Judgment
from evaluation.scoring import (
    AnswerCitation,
    ExpectedSource,
    MethodologyConfig,
    ScoredAnswer,
    config_for,
    score_answer,
)

SYSTEM, CODE, VERSION, ATTEMPT = "sys-a", "TST-01", "v1", 1


def etalon(methodology: str = "stielegi", **changes: Any) -> Etalon:
    data: dict[str, Any] = {
        "code": CODE,
        "title": "Sample inheritance case",
        "jurisdiction": "ru",
        "branch": "inheritance",
        "difficulty": 2,
        "type": "application",
        "methodology": methodology,
        "question": "My father died in March; I live in his flat but filed nothing. Am I an heir?",
        "decisive_issue": "Living in the flat counts as actual acceptance of the estate.",
        "solution_fact": "The client moved in within six months of the death.",
        "branches": ["Acceptance by conduct", "Certificate from the notary"],
        "reference_answer": "Yes: moving in within the term is acceptance by conduct.",
        "next_steps": "Ask the notary for a certificate, bringing proof of residence.",
        "sources": [{"citation": "art. 1 of act X", "priority": "mandatory"}],
        "gross_errors": ["Says the heir lost the estate for not filing with the notary."],
    }
    data.update(changes)
    return Etalon.model_validate(data)


def answer(status: str = "ok", **changes: Any) -> Answer:
    base: dict[str, Any] = dict(system=SYSTEM, benchmark="bench", code=CODE, version=VERSION,
                                question_version="q1", attempt=ATTEMPT, text="Yes, you accepted it.",
                                status=status)
    base.update(changes)
    return Answer(**base)


def runs(element: str, *verdicts: str | None, found: Sequence[bool] | bool = True,
         detail: Sequence[str | None] | None = None) -> list[Judgment]:
    """One judgment per verdict, runs numbered from 1; `found` per run or for all."""
    flags = [found] * len(verdicts) if isinstance(found, bool) else list(found)
    details = list(detail) if detail is not None else [None] * len(verdicts)
    return [
        Judgment(SYSTEM, CODE, VERSION, ATTEMPT, element, run, verdict,
                 "quoted words" if verdict is not None else None, flags[run - 1], "judge-x",
                 detail=details[run - 1], error=None if verdict is not None or details[run - 1] else "timeout")
        for run, verdict in enumerate(verdicts, start=1)
    ]


def agreed(values: dict[str, str]) -> list[Judgment]:
    """Both runs agree on every element, with found quotes."""
    out: list[Judgment] = []
    for element, value in values.items():
        out.extend(runs(element, value, value))
    return out


def decision(target: str, value: str, at: str = "2026-11-01T10:00:00", *, revoked: bool = False,
             did: str = "d1") -> Decision:
    return Decision(did, SYSTEM, CODE, VERSION, ATTEMPT, target, value, "Ana", at,
                    revoked_at="2026-11-02T10:00:00" if revoked else None)


def source(index: int = 1, kind: str = "article", act: str | None = "ru/gk", article: str | None = "1153",
           *, priority: str = "mandatory", status: str = "found", condition: str | None = None,
           article_to: str | None = None, court: str | None = None, number: str | None = None,
           point: str | None = None) -> ExpectedSource:
    return ExpectedSource(index, f"source {index}", priority, condition, kind, act, article, article_to,
                          None, court, number, point, status)


def cite(kind: str = "article", act: str | None = "ru/gk", article: str | None = "1153", *,
         article_to: str | None = None, court: str | None = None, number: str | None = None,
         point: str | None = None, status: str | None = "found", in_text: bool = True) -> AnswerCitation:
    return AnswerCitation(kind, act, article, article_to, None, court, number, point, status, in_text,
                          text=f"{kind} {act} {article or number}")


def score(
    *,
    et: Etalon | None = None,
    methodology: str = "stielegi",
    ans: Answer | None = None,
    expected: Iterable[ExpectedSource] = (),
    cited: Iterable[AnswerCitation] = (),
    judgments: Iterable[Judgment] = (),
    decisions: Iterable[Decision] = (),
    config: MethodologyConfig | None = None,
    judge_configured: bool = True,
    signed: bool = True,
    approved_by: str | None = None,
    candidates: Sequence[Element] = (),
    reviewers: int = 1,
) -> ScoredAnswer:
    et = et or etalon(methodology)
    return score_answer(
        etalon=et, benchmark="bench", answer=ans or answer(), expected=list(expected),
        cited=list(cited), judgments=list(judgments), decisions=list(decisions),
        config=config or config_for(methodology, None), judge_configured=judge_configured, signed=signed,
        approved_by=approved_by, candidates=candidates, reviewers=reviewers,
    )

"""A report's data with everything a page can show: two methodologies in one benchmark, slices of 1 and of 14
etalons, several attempts, stated confidences, a judge audited by humans, long names, Cyrillic and Romanian
titles, long answers; and, on request, hostile text in every place untrusted text reaches a page."""

from __future__ import annotations

import json
from typing import Any

import polars as pl

from evaluation.report import ReportData, from_scores
from tests.analytics.test_attempts_and_judge import DECISIONS, JUDGMENTS
from tests.analytics.warehouse_sample import score_row, scores_frame

LONG_NAME = "acme-legal-assistant-with-a-very-long-name-v2026-11-production"
HOSTILE_NAME = "<img src=x onerror=alert(1)>"
HOSTILE_TITLE = "<script>alert('title')</script>"
HOSTILE_ANSWER = ("<a href=\"javascript:alert('answer')\">click</a> \" onmouseover=\"alert(2)\" "
                  "<svg onload=alert(3)></svg>")
BRANCHES = ["inheritance"] * 14 + ["labour"] * 4 + ["family"]
PASSPORT = {
    "benchmark": {"id": "ru-civil", "version": "2026-11", "etalons signed": 19},
    "systems": {"alpha": {"kind": "openai", "model": "alpha-7b"}, "judge": {"models": ["judge-x", "judge-y"]}},
    "judge": {"model": "judge-x", "prompt": "stielegi-v3"},
    "dates": "2026-11-29",
    "cost": 0.08,
}


def _score(system: str, code: str, value: float, *, methodology: str, branch: str, attempt: int = 1,
           confidence: float | None = None, status: str = "final", indicative: bool = False) -> dict[str, Any]:
    verdict = "positive" if value >= 75 else "partial" if value >= 60 else "negative"
    notes = [f"conclusion: {'correct' if value >= 60 else 'partial'}", "source ст. 1152 ГК РФ: cited"]
    if value < 10:
        notes.append("confirmed gross error (gross_error:1): score 0")
    return score_row(system, code, value, verdict, methodology=methodology, branch=branch, attempt=attempt,
                     confidence=confidence, status=status, indicative=indicative, benchmark="ru-civil",
                     components=json.dumps({"conclusion": min(40.0, value), "norms": max(0.0, value - 40)}),
                     notes=json.dumps(notes, ensure_ascii=False))


def sample_scores(systems: tuple[str, ...] = ("alpha", "beta", LONG_NAME)) -> pl.DataFrame:
    rows = []
    for s_index, system in enumerate(systems):
        for i, branch in enumerate(BRANCHES):
            value = max(0.0, min(100.0, 92.0 - 30 * s_index - 7 * (i % 5)))
            confidence = round(min(1.0, value / 100 + 0.05), 2) if s_index == 0 else None
            attempts = 3 if s_index == 1 else 1
            for attempt in range(1, attempts + 1):
                rows.append(_score(system, f"N-{i + 1:02d}", max(0.0, value - 12 * (attempt - 1)),
                                   methodology="lesto", branch=branch, attempt=attempt, confidence=confidence,
                                   status="needs_input" if i == 3 else "final", indicative=i == 17))
        for i in range(6):
            rows.append(_score(system, f"RO-{i + 1:02d}", 80.0 - 20 * s_index + 3 * i, methodology="stielegi",
                               branch="contracts"))
    return scores_frame(rows)


def _double_review(code: str, target: str, first: str, second: str) -> list[dict[str, Any]]:
    """Two lawyers' independent reviews of one element (blind double review)."""
    return [{"system": "alpha", "code": code, "version": "v1", "attempt": 1, "target": target, "decision": value,
             "decided_by": who, "decided_at": f"2026-11-0{day}T10:00", "revoked_at": None}
            for day, (who, value) in enumerate((("Анна Воронцова", first), ("Мария Ионеску", second)), 1)]


# Four elements reviewed twice: the lawyers agree on three of them.
LAWYER_DECISIONS = pl.DataFrame(
    [*_double_review("N-02", "branch:1", "yes", "yes"), *_double_review("N-03", "branch:1", "no", "no"),
     *_double_review("N-05", "branch:2", "yes", "yes"), *_double_review("N-06", "branch:2", "yes", "no")],
    schema_overrides={"revoked_at": pl.Utf8})


def sample_data(hostile: bool = False) -> ReportData:
    systems = ("alpha", "beta", LONG_NAME, HOSTILE_NAME) if hostile else ("alpha", "beta", LONG_NAME)
    scores = sample_scores(systems)
    codes = scores.select("code", "methodology").unique().sort("code")
    title = HOSTILE_TITLE if hostile else "Фактическое принятие наследства и пропущенный срок"
    etalons = codes.with_columns(
        pl.lit("ru-civil").alias("benchmark"), pl.lit("v1").alias("version"),
        pl.when(pl.col("code").str.starts_with("RO")).then(pl.lit("Rezoluțiunea vânzării pentru neplata prețului"))
        .otherwise(pl.lit(title)).alias("title"),
        pl.when(pl.col("code") == "N-18").then(pl.lit("pool")).otherwise(pl.lit("signed")).alias("status"),
        pl.lit("Анна Сергеевна Воронцова").alias("signed_by"), pl.lit("2026-11-01").alias("signed_at"))
    long_text = "Скорее всего, вы наследство уже приняли (ст. 1153 ГК РФ). " * 30 + "x" * 400
    text = HOSTILE_ANSWER if hostile else long_text
    answers = scores.select("system", "code", "version", "attempt").unique().with_columns(
        pl.lit(text).alias("text"), pl.lit("ok").alias("status"), pl.lit(None, pl.Utf8).alias("error"))
    citations = answers.select("system", "code", "version", "attempt").with_columns(
        pl.lit(HOSTILE_NAME if hostile else "ст. 1199 ГК РФ").alias("text"), pl.lit("ru/gk").alias("act"),
        pl.lit("1199").alias("article"), pl.lit("not_found").alias("status"), pl.lit(True).alias("in_text"))
    sources = codes.select("code").with_columns(
        pl.lit("ru-civil").alias("benchmark"), pl.lit("v1").alias("version"),
        pl.lit(HOSTILE_TITLE if hostile else "п. 2 ст. 1153 ГК РФ").alias("citation"),
        pl.lit("mandatory").alias("priority"), pl.lit("found").alias("status"), pl.lit(0).alias("idx"))
    review = pl.DataFrame([{"id": "x", "system": "alpha", "code": "N-04", "version": "v1", "attempt": 1,
                            "target": "next_steps", "why": "no judge is configured: a human decides",
                            "options": "[\"yes\", \"no\"]"}])
    return from_scores(scores, judgments=JUDGMENTS,
                       decisions=pl.concat([DECISIONS, LAWYER_DECISIONS], how="diagonal_relaxed"), passport=PASSPORT, etalons=etalons,
                       answers=answers, citations=citations, sources=sources, review=review)

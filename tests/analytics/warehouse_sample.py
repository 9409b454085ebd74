"""A small authored warehouse whose analytics are known by hand (no corpus text involved)."""

from __future__ import annotations

from typing import Any

import polars as pl


def score_row(
    system: str, code: str, score: float | None, verdict: str | None, **extra: Any
) -> dict[str, Any]:
    row: dict[str, Any] = {
        "system": system,
        "benchmark": extra.pop("benchmark", "ru-inherit"),
        "code": code,
        "version": extra.pop("version", "v1"),
        "attempt": extra.pop("attempt", 1),
        "methodology": "lesto",
        "score": score,
        "verdict": verdict,
        "status": extra.pop("status", "final"),
        "indicative": extra.pop("indicative", False),
        "jurisdiction": "ru",
        "branch": "inheritance",
        "difficulty": 2,
        "type": "application",
        "tokens_in": 100,
        "tokens_out": 50,
        "cost": 0.01,
        "confidence": None,
    }
    row.update(extra)
    return row


def scores_frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema_overrides={"confidence": pl.Float64, "score": pl.Float64}, strict=False)


def known_scores() -> pl.DataFrame:
    """System alpha: 4 signed etalons (scores 1, 0.5, 0, 1; verdicts +, partial, -, +), one error, one
    needs_input, one indicative etalon. System beta: the same 4 signed etalons, all negative at 0.25 except
    N-01."""
    rows = [
        score_row("alpha", "N-01", 1.0, "positive", branch="inheritance", difficulty=1),
        score_row("alpha", "N-02", 0.5, "partial", branch="inheritance", difficulty=2),
        score_row("alpha", "N-03", 0.0, "negative", branch="labour", difficulty=3),
        score_row("alpha", "N-04", 1.0, "positive", branch="labour", difficulty=3, status="needs_input"),
        score_row("alpha", "N-05", None, None, status="error", tokens_in=None, tokens_out=None, cost=None),
        score_row("alpha", "N-09", 0.8, "positive", indicative=True),
        score_row("beta", "N-01", 1.0, "positive", branch="inheritance", difficulty=1),
        score_row("beta", "N-02", 0.25, "negative", branch="inheritance", difficulty=2),
        score_row("beta", "N-03", 0.25, "negative", branch="labour", difficulty=3),
        score_row("beta", "N-04", 0.25, "negative", branch="labour", difficulty=3),
    ]
    return scores_frame(rows)

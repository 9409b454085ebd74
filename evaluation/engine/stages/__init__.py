"""The engine's stages in the order they run, grouped by how they are partitioned.

corpus (per source) -> etalons, sources (per benchmark shard) -> answers, citations, judgments, scores (per
shard and system) -> signatures, analytics (per benchmark) -> report (one).
"""

from __future__ import annotations

from typing import Any

from evaluation.engine.stages import (
    analytics,
    answers,
    citations,
    corpus,
    etalons,
    judgments,
    report,
    scores,
    signatures,
    sources,
)

GROUPS: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("corpus", (corpus.STAGE,)),
    ("etalons", (etalons.STAGE, sources.STAGE)),
    ("cells", (answers.STAGE, citations.STAGE, judgments.STAGE, scores.STAGE)),
    ("analytics", (signatures.STAGE, analytics.STAGE)),
    ("report", (report.STAGE,)),
)
STAGES: dict[str, Any] = {stage.name: stage for _, group in GROUPS for stage in group}
CELL_STAGES = ("answers", "citations", "judgments", "scores")

__all__ = ["CELL_STAGES", "GROUPS", "STAGES"]

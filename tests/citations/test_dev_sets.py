"""The labelled dev sets in ../shared/citations meet the issue's accuracy goals, matched as their README says."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.citations.gold_sets import GOALS, counts

SHARED = Path(__file__).resolve().parents[1].parent.parent / "shared" / "citations"
FILES = sorted(SHARED.glob("*-dev.jsonl"))


@pytest.mark.skipif(not FILES, reason="../shared/citations is not present")
@pytest.mark.parametrize(
    ("path", "kind", "precision", "recall"), [(f, k, p, r) for f in FILES for k, p, r in GOALS]
)
def test_dev_set_precision_and_recall_meet_the_goals(
    path: Path, kind: str, precision: float, recall: float
) -> None:
    tp, fp, fn = counts(path, kind)
    assert tp / (tp + fp) >= precision
    assert tp / (tp + fn) >= recall

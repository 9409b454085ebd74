"""The labelled dev sets in ../shared/citations meet the issue's accuracy goals, matched as their README says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citations import extract

SHARED = Path(__file__).resolve().parents[1].parent.parent / "shared" / "citations"
FILES = sorted(SHARED.glob("*-dev.jsonl"))


def _counts(path: Path, kind: str) -> tuple[int, int, int]:
    tp = fp = fn = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        gold, pred = set(), set()
        for c in item["citations"]:
            if c["kind"] == kind:
                gold.add(
                    (c.get("act"), c.get("article"), c.get("article_to"))
                    if kind == "article"
                    else (c.get("court"), str(c.get("number")))
                )
        for p in extract(item["text"]):
            if p.kind == kind:
                pred.add((p.act, p.article, p.article_to) if kind == "article" else (p.court, p.number))
        tp, fp, fn = tp + len(gold & pred), fp + len(pred - gold), fn + len(gold - pred)
    return tp, fp, fn


@pytest.mark.skipif(not FILES, reason="../shared/citations is not present")
@pytest.mark.parametrize(
    ("path", "kind", "precision", "recall"),
    [(f, k, p, r) for f in FILES for k, p, r in (("article", 0.97, 0.95), ("decision", 0.90, 0.90))],
)
def test_dev_set_precision_and_recall_meet_the_goals(
    path: Path, kind: str, precision: float, recall: float
) -> None:
    tp, fp, fn = _counts(path, kind)
    assert tp / (tp + fp) >= precision
    assert tp / (tp + fn) >= recall

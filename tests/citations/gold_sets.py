"""Scoring a labelled set of answers the way ../shared/citations/README.md says, for the dev and probe set tests.

Per item, the set of (act, article, article_to) for articles and (court, number) for decisions, predicted
through the public `extract` against the gold labels.
"""

from __future__ import annotations

import json
from pathlib import Path

from citations import extract

# The goals: precision and recall per kind, on any labelled set of answers.
GOALS = (("article", 0.97, 0.95), ("decision", 0.90, 0.90))
# ... and on real third-party text: articles 0.95 / 0.95, acts and decisions 0.90.
REAL_GOALS = (("article", 0.95, 0.95), ("act", 0.90, 0.90), ("decision", 0.90, 0.90))


def counts(path: Path, kind: str, jurisdiction: str | None = None) -> tuple[int, int, int]:
    """True positives, false positives and false negatives of `kind` over every item of a JSON Lines set (of
    one jurisdiction only, when given)."""
    tp = fp = fn = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        if jurisdiction is not None and item["jurisdiction"] != jurisdiction:
            continue
        gold, pred = set(), set()
        for c in item["citations"]:
            if c["kind"] == kind:
                gold.add(
                    (c.get("act"), c.get("article"), c.get("article_to"))
                    if kind == "article"
                    else (c.get("court"), str(c.get("number"))) if kind == "decision" else (c.get("act"),)
                )
        for p in extract(item["text"]):
            if p.kind == kind:
                pred.add(
                    (p.act, p.article, p.article_to) if kind == "article"
                    else (p.court, p.number) if kind == "decision" else (p.act,)
                )
        tp, fp, fn = tp + len(gold & pred), fp + len(pred - gold), fn + len(gold - pred)
    return tp, fp, fn

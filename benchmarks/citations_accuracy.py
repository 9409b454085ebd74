"""Accuracy of the citation extractor on the labelled dev sets (../shared/citations/*-dev.jsonl).

Matching as ../shared/citations/README.md describes: per item, the set of (act, article, article_to) for
articles, (court, number) for decisions and (act) for acts, predicted against gold; precision, recall and F1
per kind and jurisdiction. `--errors` lists what was missed and what was invented; `--half odd|even` scores
one half only (develop on one half, check on the other). `--sets` scores other labelled sets of the same format
instead, e.g. our own probe sets (tests/citations/data/probe-*.jsonl), or `--sets probe` for those.

    .venv/bin/python benchmarks/citations_accuracy.py [--errors] [--half odd|even] [--sets PATH|probe ...] [FILE...]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citations import Citation, extract

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "citations"
PROBES = Path(__file__).resolve().parents[1] / "tests" / "citations" / "data"
Key = tuple[Any, ...]


def gold_keys(c: dict[str, Any]) -> tuple[str, Key]:
    kind = c["kind"]
    if kind == "article":
        return kind, (c.get("act"), c.get("article"), c.get("article_to"))
    if kind == "decision":
        return kind, (c.get("court"), str(c.get("number")))
    return kind, (c.get("act"),)


def predicted_keys(c: Citation) -> tuple[str, Key]:
    if c.kind == "article":
        return c.kind, (c.act, c.article, c.article_to)
    if c.kind == "decision":
        return c.kind, (c.court, c.number)
    return c.kind, (c.act,)


def score(files: list[Path], half: str | None, show_errors: bool) -> dict[tuple[str, str], list[int]]:
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # tp, fp, fn
    for path in files:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            if half is not None and (n % 2 == 1) != (half == "odd"):
                continue
            item = json.loads(line)
            j = item["jurisdiction"]
            gold: dict[str, set[Key]] = defaultdict(set)
            pred: dict[str, set[Key]] = defaultdict(set)
            for c in item["citations"]:
                kind, key = gold_keys(c)
                gold[kind].add(key)
            for found in extract(item["text"], "auto"):
                kind, key = predicted_keys(found)
                pred[kind].add(key)
            for kind in ("article", "act", "decision"):
                g, p = gold[kind], pred[kind]
                cell = counts[(j, kind)]
                cell[0] += len(g & p)
                cell[1] += len(p - g)
                cell[2] += len(g - p)
                if show_errors and (g - p or p - g):
                    print(
                        f"{item['id']} {kind}: missed {sorted(g - p, key=str)} invented {sorted(p - g, key=str)}"
                    )
    return counts


def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--errors", action="store_true")
    ap.add_argument("--half", choices=("odd", "even"))
    ap.add_argument(
        "--sets", nargs="+", default=[], metavar="PATH", help="labelled sets to score ('probe': ours)"
    )
    args = ap.parse_args()
    sets = [
        p for s in args.sets for p in (sorted(PROBES.glob("probe-*.jsonl")) if s == "probe" else [Path(s)])
    ]
    files = [*args.files, *sets] or sorted(SHARED.glob("*-dev.jsonl"))
    counts = score(files, args.half, args.errors)
    print(
        f"{'jurisdiction':<13}{'kind':<10}{'tp':>5}{'fp':>5}{'fn':>5}{'precision':>11}{'recall':>8}{'F1':>7}"
    )
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for (j, kind), cell in sorted(counts.items()):
        p, r, f = prf(*cell)
        print(f"{j:<13}{kind:<10}{cell[0]:>5}{cell[1]:>5}{cell[2]:>5}{p:>11.3f}{r:>8.3f}{f:>7.3f}")
        for k in (kind, f"all:{j}"):
            totals[k] = [a + b for a, b in zip(totals[k], cell, strict=True)]
    for k, cell in sorted(totals.items()):
        p, r, f = prf(*cell)
        j, kind = ("all", k) if not k.startswith("all:") else (k[4:], "all")
        print(f"{j:<13}{kind:<10}{cell[0]:>5}{cell[1]:>5}{cell[2]:>5}{p:>11.3f}{r:>8.3f}{f:>7.3f}")


if __name__ == "__main__":
    main()

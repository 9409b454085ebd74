"""Accuracy of the citation extractor on labelled sets: the synthetic answers, real third-party texts, and ours.

Matching as ../shared/citations/README.md describes: per item, the set of (act, article, article_to) for
articles, (court, number) for decisions and (act) for acts, predicted against gold; precision, recall and F1
per kind and jurisdiction, one column group per set, side by side:

- `synthetic`: ../shared/citations/*-dev.jsonl (answers written for the extractor);
- `real-dev`: ../shared/citations/real-dev/*.jsonl (real texts, other people's labels);
- `ours-dev` / `ours-held`: tests/citations/data/real-*-dev.jsonl / real-*-held.jsonl (real public texts we
  labelled; the held-back half is never tuned on, so its figure is the honest one);
- `probe`: tests/citations/data/probe-*.jsonl (answers written for our tests);
- `web-*`, `gazette-*`: the second round's web passages and Romanian legislation text, dev and held halves;
- `unseen-*`, `mo-*`: the third round's court decisions, lawyers' and official answers, commentaries (ru, ro) and
  Monitorul Oficial legislation (ro), first measured before any change made for them; dev and held halves.
  `gazette-held` and `unseen-held` keep their names, but the fourth round read their errors and tuned on them:
  their figures are no longer those of unseen text (tests/citations/data/README.md).

`--errors` lists every error under its category (an act read wrong, an act missed, a range read as one
article, a citation missed or invented ...), per set; `--half odd|even` scores one half of each file only;
`--sets NAME|PATH ...` scores only those sets (a path scores that file as its own set).

    .venv/bin/python benchmarks/citations_accuracy.py [--errors] [--half odd|even] [--sets NAME|PATH ...]
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
OURS = Path(__file__).resolve().parents[1] / "tests" / "citations" / "data"
SETS: dict[str, tuple[Path, tuple[str, ...]]] = {
    "synthetic": (SHARED, ("*-dev.jsonl",)),
    "real-dev": (SHARED / "real-dev", ("*.jsonl",)),
    "ours-dev": (OURS, ("real-*-dev.jsonl",)),
    "ours-held": (OURS, ("real-*-held.jsonl",)),
    "probe": (OURS, ("probe-*.jsonl",)),
    "web-dev": (OURS, ("web-*-dev.jsonl",)),
    "web-held": (OURS, ("web-*-held.jsonl",)),
    "gazette-dev": (OURS, ("gazette-*-dev.jsonl",)),
    "gazette-held": (OURS, ("gazette-*-held.jsonl",)),
    "unseen-dev": (OURS, ("unseen-*-dev.jsonl",)),
    "unseen-held": (OURS, ("unseen-*-held.jsonl",)),
    "mo-dev": (OURS, ("mo-*-dev.jsonl",)),
    "mo-held": (OURS, ("mo-*-held.jsonl",)),
}
KINDS = ("article", "act", "decision")
Key = tuple[Any, ...]
Cell = list[int]  # tp, fp, fn


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


def categorise(kind: str, missed: set[Key], invented: set[Key]) -> list[tuple[str, str]]:
    """Each error under the category that says what went wrong: a missed and an invented key that share the
    article (or the court) are one error of the act (or the number), not two unrelated ones."""
    out: list[tuple[str, str]] = []
    missed, invented = set(missed), set(invented)
    if kind == "article":
        for g in sorted(missed, key=str):
            same = [p for p in invented if p[1] == g[1] and p[0] == g[0]]
            if same:
                out.append(("article: range read wrong", f"{g} as {same[0]}"))
            else:
                same = [p for p in invented if p[1] == g[1] and p[2] == g[2]]
                if not same:
                    continue
                p = same[0]
                category = "article: act left null" if p[0] is None else (
                    "article: act given, gold null" if g[0] is None else "article: act read wrong")
                out.append((category, f"{g} as {p}"))
            missed.discard(g)
            invented.discard(same[0])
    if kind == "decision":
        for g in sorted(missed, key=str):
            same = [p for p in invented if p[1] == g[1]]
            if same:
                out.append(("decision: court read wrong", f"{g} as {same[0]}"))
                missed.discard(g)
                invented.discard(same[0])
    out += [(f"{kind}: missed", str(g)) for g in sorted(missed, key=str)]
    out += [(f"{kind}: invented", str(p)) for p in sorted(invented, key=str)]
    return out


def score(
    files: list[Path], half: str | None, errors: dict[str, list[str]] | None = None
) -> dict[tuple[str, str], Cell]:
    counts: dict[tuple[str, str], Cell] = defaultdict(lambda: [0, 0, 0])
    for path in files:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip() or (half is not None and (n % 2 == 1) != (half == "odd")):
                continue
            item = json.loads(line)
            gold: dict[str, set[Key]] = defaultdict(set)
            pred: dict[str, set[Key]] = defaultdict(set)
            for c in item["citations"]:
                kind, key = gold_keys(c)
                gold[kind].add(key)
            for found in extract(item["text"], "auto"):
                kind, key = predicted_keys(found)
                pred[kind].add(key)
            for kind in KINDS:
                g, p = gold[kind], pred[kind]
                cell = counts[(item["jurisdiction"], kind)]
                cell[0] += len(g & p)
                cell[1] += len(p - g)
                cell[2] += len(g - p)
                if errors is not None:
                    for category, what in categorise(kind, g - p, p - g):
                        errors[category].append(f"{item['id']}: {what}")
    return counts


def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def with_totals(counts: dict[tuple[str, str], Cell]) -> dict[tuple[str, str], Cell]:
    out = dict(counts)
    for (j, kind), cell in counts.items():
        for key in ((j, "all"), ("all", kind)):
            out[key] = [a + b for a, b in zip(out.get(key, [0, 0, 0]), cell, strict=True)]
    return out


def table(results: dict[str, dict[tuple[str, str], Cell]]) -> str:
    names = list(results)
    rows = sorted({k for r in results.values() for k in r}, key=lambda k: (k[0] == "all", k[0], k[1] == "all", k[1]))
    head = f"{'':<4}{'kind':<10}" + "".join(f"{n:>26}" for n in names)
    sub = f"{'':<14}" + "".join(f"{'P':>8}{'R':>7}{'n gold':>11}" for _ in names)
    lines = [head, sub]
    for j, kind in rows:
        line = f"{j:<4}{kind:<10}"
        for n in names:
            cell = results[n].get((j, kind))
            if cell is None or cell[0] + cell[1] + cell[2] == 0:
                line += f"{'-':>26}"
                continue
            p, r, _ = prf(*cell)
            line += f"{p:>8.3f}{r:>7.3f}{cell[0] + cell[2]:>11}"
        lines.append(line)
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--errors", action="store_true", help="list the errors by category")
    ap.add_argument("--half", choices=("odd", "even"))
    ap.add_argument("--sets", nargs="+", default=list(SETS), metavar="NAME|PATH")
    args = ap.parse_args()
    results: dict[str, dict[tuple[str, str], Cell]] = {}
    all_errors: dict[str, dict[str, list[str]]] = {}
    for name in args.sets:
        if name in SETS:
            folder, patterns = SETS[name]
            files = sorted(f for pattern in patterns for f in folder.glob(pattern))
        else:
            files, name = [Path(name)], Path(name).stem
        if not files:
            print(f"{name}: no files ({SETS[name][0] / SETS[name][1][0] if name in SETS else ''}), skipped")
            continue
        errors: dict[str, list[str]] = defaultdict(list)
        results[name] = with_totals(score(files, args.half, errors if args.errors else None))
        all_errors[name] = errors
    print(table(results))
    for name, errors in all_errors.items():
        for category in sorted(errors):
            print(f"\n[{name}] {category} ({len(errors[category])})")
            for line in errors[category]:
                print(f"  {line}")


if __name__ == "__main__":
    main()

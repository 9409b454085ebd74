"""Act-span recall and precision on Romanian legislation text, in the style of LegalNERo's LEGAL spans.

LegalNERo annotates Romanian gazette text (Monitorul Oficial) with LEGAL spans: every reference to a legal act,
with the article it cites when it cites one ("art. 5 alin. (2) din Legea nr. 53/2003", "Hotărârea Guvernului nr.
1.259/2001", "Codul civil"). This script measures the extractor the same way on our own labelled gazette text
(tests/citations/data/gazette-ro-*.jsonl: acts, opinions of the Legislative Council, consolidation notes, gazette
summaries; sources in that folder's README). Every labelled citation is a gold span at its surface (repeated
surfaces are located in order of appearance); every extracted citation is a predicted span.

- span recall: gold spans that an extracted citation overlaps;
- act recall: gold spans naming an act (or a court decision) that an overlapping extracted citation reads as the
  same act (the same court and number);
- span precision: extracted citations that overlap a gold span.

    .venv/bin/python benchmarks/act_spans.py [--misses] [--sets NAME|PATH ...]

Sets: `gazette-dev`, `gazette-held` (tuned on since the fourth round, which read its errors), `real-dev-ro` (../shared/citations/real-dev, the Romanian
half: official acts, consolidated acts, a law firm's blog), `web-ro` (our Romanian web passages, both halves),
`mo-dev`, `mo-held` (the third round's Monitorul Oficial legislation), `unseen-ro-dev`, `unseen-ro-held` (its court
decisions, lawyers' articles and commentaries; `unseen-ro-held` tuned on since the fourth round).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citations import Citation, extract

ROOT = Path(__file__).resolve().parents[1]
OURS = ROOT / "tests" / "citations" / "data"
SHARED = ROOT.parent / "shared" / "citations" / "real-dev"
SETS: dict[str, list[Path]] = {
    "gazette-dev": [OURS / "gazette-ro-dev.jsonl"],
    "gazette-held": [OURS / "gazette-ro-held.jsonl"],
    "real-dev-ro": [SHARED / "ro-real-dev.jsonl"],
    "web-ro": [OURS / "web-ro-dev.jsonl", OURS / "web-ro-held.jsonl"],
    "mo-dev": [OURS / "mo-ro-dev.jsonl"],
    "mo-held": [OURS / "mo-ro-held.jsonl"],
    "unseen-ro-dev": [OURS / "unseen-ro-dev.jsonl"],
    "unseen-ro-held": [OURS / "unseen-ro-held.jsonl"],
}


@dataclass
class Counts:
    gold: int = 0
    found: int = 0  # gold spans an extracted citation overlaps
    keyed: int = 0  # gold spans that name an act or decision
    keyed_found: int = 0  # ... read as the same act or decision
    predicted: int = 0
    predicted_on_gold: int = 0

    def add(self, other: Counts) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


def gold_spans(item: dict[str, Any]) -> list[tuple[int, int, dict[str, Any]]]:
    """Each labelled citation at its surface. Labels are listed in order of appearance, so a surface is looked for
    from where the previous label starts ("art. 1, alin. (1)" after "art. 1, alin. (1) şi (3) din Ordinul ..." is
    the later one), then anywhere after its own previous occurrence, then anywhere."""
    text, spans, after, cursor = item["text"], [], {}, 0
    for c in item["citations"]:
        surface = c["surface"]
        start = text.find(surface, max(cursor, after.get(surface, 0)))
        if start < 0:
            start = text.find(surface, after.get(surface, 0))
        if start < 0:
            start = text.find(surface)
        if start < 0:
            raise ValueError(f"{item['id']}: surface {surface!r} is not in the text")
        after[surface], cursor = start + 1, start
        spans.append((start, start + len(surface), c))
    return spans


def same_act(gold: dict[str, Any], found: Citation) -> bool:
    if gold["kind"] == "decision":
        return found.kind == "decision" and (found.court, found.number) == (gold.get("court"), str(gold.get("number")))
    return found.kind != "decision" and found.act == gold.get("act")


def score_item(item: dict[str, Any], misses: list[str] | None) -> Counts:
    counts = Counts()
    found = extract(item["text"], "ro" if item.get("jurisdiction") == "ro" else "auto")
    spans = gold_spans(item)
    counts.predicted = len(found)
    counts.predicted_on_gold = sum(1 for f in found if any(f.start < e and s < f.end for s, e, _ in spans))
    for s, e, g in spans:
        over = [f for f in found if f.start < e and s < f.end]
        counts.gold += 1
        counts.found += bool(over)
        named = g["kind"] == "decision" or g.get("act") is not None
        counts.keyed += named
        hit = named and any(same_act(g, f) for f in over)
        counts.keyed_found += hit
        if misses is not None and (not over or (named and not hit)):
            why = "missed" if not over else "act read as " + ", ".join(str(f.act or f.court) for f in over)
            misses.append(f"{item['id']}: {g['surface']!r} ({g.get('act') or g.get('court')}): {why}")
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--misses", action="store_true", help="list the gold spans missed or read as another act")
    ap.add_argument("--sets", nargs="+", default=list(SETS), metavar="NAME|PATH")
    args = ap.parse_args()
    print(f"{'set':<14}{'gold':>6}{'span R':>9}{'act R':>9}{'span P':>9}{'predicted':>11}")
    all_misses: dict[str, list[str]] = {}
    for name in args.sets:
        files = SETS.get(name, [Path(name)])
        files = [f for f in files if f.exists()]
        if not files:
            print(f"{name:<14}no files, skipped")
            continue
        total, misses = Counts(), ([] if args.misses else None)
        for path in files:
            for line in path.read_text(encoding="utf-8").splitlines():
                item = json.loads(line)
                if line.strip() and item.get("jurisdiction", "ro") == "ro":
                    total.add(score_item(item, misses))
        r = total.found / total.gold if total.gold else 1.0
        ar = total.keyed_found / total.keyed if total.keyed else 1.0
        p = total.predicted_on_gold / total.predicted if total.predicted else 1.0
        print(f"{name:<14}{total.gold:>6}{r:>9.3f}{ar:>9.3f}{p:>9.3f}{total.predicted:>11}")
        if misses:
            all_misses[name] = misses
    for name, misses in all_misses.items():
        print(f"\n[{name}] missed or read as another act ({len(misses)})")
        for m in misses:
            print(f"  {m}")


if __name__ == "__main__":
    main()

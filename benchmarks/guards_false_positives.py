"""How often the evaluator-addressing guards flag legal text that addresses no one but the client.

A flagged answer costs a reviewer a whole cell, so the guards are measured on text known to be innocent:
the sample answers, the labelled real texts of ../shared/citations (when present), and every paragraph of
the official corpus in ../shared/corpus (.md, .txt and the text of .html). Prints, per source, how many
texts were flagged, and each flagged passage with its rule. Usage:
    .venv/bin/python benchmarks/guards_false_positives.py [--no-corpus]
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import time
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaluation.guards import scan  # noqa: E402

SHARED = ROOT.parent / "shared"


def jsonl_texts(paths: Iterable[Path]) -> list[tuple[str, str]]:
    return [(f"{p.name}:{i}", json.loads(line)["text"]) for p in paths
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if line.strip()]


def corpus_paragraphs() -> list[tuple[str, str]]:
    out = []
    for p in sorted((SHARED / "corpus").rglob("*")):
        if p.suffix not in (".md", ".txt", ".html"):
            continue
        text = p.read_text(encoding="utf-8", errors="replace")
        if p.suffix == ".html":
            text = html.unescape(re.sub(r"<[^>]+>", "\n", text))
        out += [(p.name, para) for para in text.splitlines() if len(para.strip()) > 20]
    return out


def measure(name: str, texts: list[tuple[str, str]]) -> None:
    started = time.perf_counter()
    flagged = 0
    for where, text in texts:
        found = scan(text)
        flagged += bool(found)
        for f in found:
            print(f"  {where}: {f.rule} ({f.severity}): {text[f.start:f.end][:160]!r}")
    rate = flagged / len(texts) if texts else 0.0
    print(f"{name}: {flagged} flagged of {len(texts)} ({rate:.3%}) in {time.perf_counter() - started:.1f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--no-corpus", action="store_true", help="skip the official corpus (slow: minutes)")
    args = parser.parse_args()
    measure("sample answers", jsonl_texts(sorted((ROOT / "evaluation/sample/answers").glob("*.jsonl"))))
    if not SHARED.is_dir():
        print("../shared is absent: the real texts and the corpus are skipped")
        return 0
    measure("citations real-dev", jsonl_texts(sorted((SHARED / "citations/real-dev").glob("*.jsonl"))))
    measure("citations ru/ro-dev", jsonl_texts(sorted((SHARED / "citations").glob("*-dev.jsonl"))))
    if not args.no_corpus:
        measure("corpus paragraphs", corpus_paragraphs())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

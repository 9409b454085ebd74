"""The version of the code each stage runs: a hash of the source files it depends on.

A row is current only while the code that computed it is the code that would compute it now: a better citation
extractor re-resolves every answer, a changed scoring rule re-scores every cell, a new judge prompt re-judges
(every call before that is still served from the cache). Hashing the files, rather than a number someone must
remember to bump, makes that true after any change.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Files (or folders, read recursively) each stage's results depend on, relative to the repository's root.
DEPENDS: dict[str, tuple[str, ...]] = {
    "corpus": ("corpus",),
    "etalons": ("etalons/model.py", "etalons/loader.py", "etalons/benchmark.py"),
    "sources": ("citations", "etalons/verify.py"),
    "answers": ("evaluation/answering.py", "evaluation/confidence.py", "evaluation/replies.py"),
    "citations": ("citations",),
    "judgments": ("evaluation/candidates.py", "evaluation/judge.py", "evaluation/judge_prompts", "evaluation/guards",
                  "evaluation/elements.py", "evaluation/quotes.py", "evaluation/methodologies"),
    "scores": ("evaluation/scoring.py", "evaluation/methodologies", "evaluation/elements.py", "evaluation/review.py",
               "evaluation/quotes.py"),
    "signatures": ("etalons/signatures.py", "etalons/keys.py"),
    "analytics": ("evaluation/analytics", "evaluation/stats.py"),
    "report": ("evaluation/report",),
}
_SUFFIXES = (".py", ".yaml", ".yml", ".json", ".html", ".txt")


@cache
def fingerprint(stage: str) -> str:
    h = hashlib.sha256()
    for name in DEPENDS.get(stage, ()):
        path = ROOT / name
        files = sorted(p for p in path.rglob("*") if p.suffix in _SUFFIXES) if path.is_dir() else [path]
        for f in files:
            if f.is_file() and "__pycache__" not in f.parts:
                h.update(str(f.relative_to(ROOT)).encode("utf-8"))
                h.update(f.read_bytes())
    return h.hexdigest()[:10]


def version(stage: str, base: str) -> str:
    """`base` (the stage's own format version) plus the hash of the code it runs."""
    return f"{base}+{fingerprint(stage)}"

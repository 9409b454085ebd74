"""Reading the documentation the way the tests need it: code blocks by language, the views' column tables."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
README = ROOT / "README.md"


def documents() -> list[Path]:
    """The README and every page of docs/: what a newcomer reads."""
    return [README, *sorted(DOCS.glob("*.md"))]


def blocks(path: Path, language: str) -> list[str]:
    """The ```language fenced blocks of a markdown file, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```", path.read_text(encoding="utf-8"), re.S | re.M)


def documented_views(path: Path = DOCS / "views.md") -> dict[str, list[tuple[str, str]]]:
    """`### schema.view` -> [(column, type)] from the table under it; a row may name several columns."""
    views: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"^### (\w+\.\w+)\s*$", line)
        if heading:
            current = views.setdefault(heading.group(1), [])
            continue
        if line.startswith("## "):
            current = None
        if current is None or not line.startswith("| ") or line.startswith("| column"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        for name in re.findall(r"`([^`]+)`", cells[0]):
            current.append((name, cells[1]))
    return views

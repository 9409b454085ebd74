"""The project stands alone: no file a user receives points outside the repository, and every link resolves.

Tests and benchmarks may read material kept beside the project (real corpora, development sets) and skip when
it is absent; everything else — code, comments, docstrings, README, docs, configuration — must make sense in a
fresh clone.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.docs.docs_text import ROOT, documents

# "../shared", a numbered contract section ("CONTRACT section 3", "CONTRACT §3", "CONTRACT.md"), a numbered seed.
POINTERS = re.compile(r"\.\./shared|\bshared/seeds\b|CONTRACT(?:\.md|\s+section|\s*§)|\bseeds?[ /]?0\d\d\b",
                      re.IGNORECASE)
CHECKED = (".py", ".md", ".yaml", ".yml", ".sql", ".html", ".toml", ".json", ".txt", ".cfg", ".sh", ".js", ".css")
EXEMPT = ("tests/", "benchmarks/")


def _project_files() -> list[str]:
    """Files git knows (tracked or new, not ignored), so a local virtualenv or data folder is never read."""
    done = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"not a git checkout ({done.stderr.strip()}): the project's files cannot be listed")
    return [f for f in done.stdout.splitlines()
            if f.endswith(CHECKED) and not f.startswith(EXEMPT) and (ROOT / f).is_file()]


@pytest.mark.parametrize(("text", "points_outside"), [
    ("see ../shared/CONTRACT.md", True),
    ("(CONTRACT section 4)", True),
    ("CONTRACT §3 columns", True),
    ("the lecture in shared/seeds/002", True),
    ("The Lesto methodology (seed 000)", True),
    ("(seeds/002, section 8)", True),
    ("docs/formats.md, \"Canonical act keys\"", False),
    ("a contract of sale (art. 1.650 C.civ.)", False),
    ("the seed of attempt 2 is shifted by one", False),
])
def test_the_pointer_pattern_tells_an_outside_reference_from_ordinary_words(text: str, points_outside: bool) -> None:
    assert bool(POINTERS.search(text)) == points_outside


def test_no_file_outside_tests_and_benchmarks_points_outside_the_repository() -> None:
    found = []
    for name in _project_files():
        for n, line in enumerate((ROOT / name).read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if POINTERS.search(line):
                found.append(f"{name}:{n}: {line.strip()[:120]}")
    assert not found, "point at docs/ instead:\n" + "\n".join(found)


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_of_the_readme_and_docs_resolves_to_a_file_in_the_repository(page: Path) -> None:
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z]+://|^mailto:", target):
            continue
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        outside = not resolved.exists() or (ROOT not in resolved.parents and resolved != ROOT)
        if outside or (anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved)):
            broken.append(target)
    assert not broken, f"{page.name}: broken links {broken}"


def _anchors(page: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    out = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", title)))
    return out

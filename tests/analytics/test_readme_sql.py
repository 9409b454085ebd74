"""Every analyst example in the README and docs/ runs, as written, on the DuckDB the lock file installs, against
the catalog of a real demo warehouse: each SQL query, and each Python snippet that opens the catalog."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]


def _blocks(language: str, pages: list[Path] = PAGES) -> list[str]:
    return [block for page in pages
            for block in re.findall(rf"```{language}\n(.*?)```", page.read_text(encoding="utf-8"), re.S)]


def _queries() -> list[tuple[str, str]]:
    """(the comment above it, the statement) for every statement of every ```sql block."""
    found = []
    for block in _blocks("sql"):
        for statement in block.split(";"):
            lines = statement.strip().splitlines()
            comment = " ".join(line.strip("- ") for line in lines if line.startswith("--"))
            sql = "\n".join(line for line in lines if not line.startswith("--")).strip()
            if sql:
                found.append((comment or sql[:40], sql))
    return found


QUERIES = _queries()


def test_the_readme_has_analyst_examples() -> None:
    assert len(QUERIES) >= 6 and _blocks("python", [README])


@pytest.mark.parametrize(("question", "sql"), QUERIES, ids=[q for q, _ in QUERIES])
def test_a_readme_query_runs_on_the_demo_catalog(demo_home: Path, question: str, sql: str) -> None:
    con = duckdb.connect(str(demo_home / "etalon.duckdb"), read_only=True)
    try:
        cursor = con.execute(sql)
        rows = cursor.fetchall()
        names = [d[0] for d in cursor.description]
    finally:
        con.close()
    assert names, question
    if "'demo-" in sql:  # a question about the demo's own systems has an answer there
        assert rows, question


SNIPPETS = [b for b in _blocks("python") if "duckdb.connect" in b]


def test_the_readme_python_snippet_prints_the_leaderboard(demo_home: Path, tmp_path: Path) -> None:
    (snippet,) = [b for b in _blocks("python", [README]) if "duckdb.connect" in b]
    assert "demo-strong" in _run(snippet, demo_home, tmp_path)


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[f"python snippet {i}" for i in range(1, len(SNIPPETS) + 1)])
def test_every_python_snippet_that_opens_the_catalog_runs_on_the_locked_duckdb(
        demo_home: Path, tmp_path: Path, snippet: str) -> None:
    _run(snippet, demo_home, tmp_path)


def _run(snippet: str, demo_home: Path, tmp_path: Path) -> str:
    """The snippet as written, with the documented catalog path pointed at the demo warehouse's."""
    script = re.sub(r'"[^"]*etalon\.duckdb"', repr(str(demo_home / "etalon.duckdb")), snippet)
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout

"""docs/ stays in step with the interface description kept beside the project, when it is there.

Outside checks rely on that description (commands, the catalog's key columns, the formats), and docs/ is what
users of the repository read instead: every command it names is described in docs/commands.md, and every key
column of every view it names is a key (bold) column of docs/views.md. Without it (a fresh clone) this skips.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.docs.docs_text import DOCS, ROOT

BESIDE = Path(os.environ.get("ETALON_SHARED_DIR") or ROOT.parent / "shared") / "CONTRACT.md"
pytestmark = pytest.mark.skipif(not BESIDE.is_file(),
                                reason=f"{BESIDE} is not present (set ETALON_SHARED_DIR to check against it)")


def _section(number: int) -> str:
    text = BESIDE.read_text(encoding="utf-8")
    match = re.search(rf"^## {number}\. .*?(?=^## \d|\Z)", text, re.S | re.M)
    assert match, f"{BESIDE} has no section {number}"
    return match.group(0)


def test_every_command_it_names_is_described_in_docs_commands() -> None:
    commands = re.findall(r"^\| `(etalon [a-z ]+?)[ `]", _section(1), re.M)
    text = (DOCS / "commands.md").read_text(encoding="utf-8")
    assert commands and [c for c in commands if c.strip() not in text] == []


def test_every_key_column_it_names_is_a_key_column_of_docs_views() -> None:
    views = (DOCS / "views.md").read_text(encoding="utf-8")
    missing = []
    for view, columns in re.findall(r"^\| `(\w+\.\w+)` \| (.*) \|$", _section(3), re.M):
        section = re.search(rf"^### {re.escape(view)}\n(.*?)(?=^##|\Z)", views, re.S | re.M)
        keys = set(re.findall(r"\*\*`(\w+)`\*\*", section.group(1))) if section else set()
        for column in re.findall(r"(\w+)", re.sub(r"\([^)]*\)", "", columns.replace("`", ""))):
            if column not in keys:
                missing.append(f"{view}.{column}")
    assert missing == []

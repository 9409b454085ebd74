"""The report's section corrected for the judge's errors, on a warehouse whose judge errs in a known way.

    python -m tests.browser.audit_screenshot docs/images [KEEP_DIR]

builds the acceptance story of tests/acceptance/test_audit_corrects_the_judge.py (thirty etalons, a judge that
grades right conclusions "partial" and misses next steps, half the answers audited and labelled) and writes
report-corrected.png: the corrected section of its board, at a laptop's 1280 px. KEEP_DIR keeps the warehouses.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.acceptance.project import Project
from tests.acceptance.test_audit_corrects_the_judge import build_story
from tests.browser.conftest import CHROMIUM_ARGS, LAPTOP, find_chromium


def take(out: Path, keep: Path | None = None) -> Path:
    from playwright.sync_api import sync_playwright

    executable = find_chromium()
    if executable is None:
        raise SystemExit("needs Chromium: apt-get install -y chromium (or set ETALON_CHROMIUM)")
    root = keep or Path(tempfile.mkdtemp(prefix="etalon-audit-shot-"))

    def make(name: str, systems: tuple[str, ...] = ("sys-a",)) -> Project:
        folder = root / name
        folder.mkdir(parents=True, exist_ok=False)
        return Project(folder, systems=systems).create()

    story = build_story(make)
    assert story.erring.etalon("update").returncode == 0
    report = story.erring.home / "report" / "index.html"
    out.mkdir(parents=True, exist_ok=True)
    target = out / "report-corrected.png"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": LAPTOP, "height": 900})
        page.goto(report.as_uri())
        board = page.eval_on_selector("section.board", "e => e.id")
        page.locator(f"#{board}-corrected").screenshot(path=str(target))
        browser.close()
    return target


if __name__ == "__main__":
    shot = take(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)
    print(shot, shot.stat().st_size)

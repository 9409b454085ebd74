"""Screenshots of the workbench's main pages for the README, from the same hostile demo the tests use.

Usage: .venv/bin/python -m tests.web.screenshots [--warehouse DIR] [--out docs/images]
(`--warehouse`: an already built test warehouse, e.g. a session's web-demo folder, to skip `etalon demo`.)
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from urllib.parse import urlencode

from tests.web import harness


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--warehouse", type=Path)
    parser.add_argument("--out", type=Path, default=harness.REPO / "docs" / "images")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="etalon-shots-") as tmp:
        source = args.warehouse or harness.build_warehouse(Path(tmp) / "demo")
        home = harness.copy_warehouse(source, Path(tmp) / "home")
        with harness.serve(home) as server, sync_playwright() as playwright:
            browser = harness.launch_browser(playwright)
            page = browser.new_context(viewport={"width": 1440, "height": 960}).new_page()  # type: ignore[attr-defined]
            harness.sign_in(page, server, "elena")
            page.screenshot(path=str(args.out / "workbench-queue.png"))
            item = page.locator("tr.row[data-id*='RO-LOC-01']").first.get_attribute("data-id")
            page.goto(server.url + "/item?" + urlencode({"id": item}))
            page.screenshot(path=str(args.out / "workbench-item.png"))
            page.goto(server.url + "/etalons/RO-LOC-01")
            page.screenshot(path=str(args.out / "workbench-etalon.png"), full_page=True)
            harness.sign_in(page, server, "mihai")
            page.goto(server.url + "/etalons/RO-INS-01/edit")
            area = page.locator("[data-testid=yaml]")
            area.fill(area.input_value().replace("priority: recommended", "priority: sometimes", 1))
            page.locator("[data-testid=errors]").wait_for()
            page.screenshot(path=str(args.out / "workbench-edit.png"))
            page.goto(server.url + "/results/demo-medium")
            page.screenshot(path=str(args.out / "workbench-results.png"))
            browser.close()  # type: ignore[attr-defined]
    for shot in sorted(args.out.glob("workbench-*.png")):
        print(shot)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

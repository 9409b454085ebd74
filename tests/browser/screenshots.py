"""Screenshots of a report for the README, taken in the same headless Chromium the tests use.

    python -m tests.browser.screenshots $ETALON_HOME/report docs/images

writes report-leaderboard.png (the first board's leaderboard), report-slices.png (its slices),
report-calibration.png (the first board's calibration that has one), report-system.png (the first system's page)
and report-etalon.png (the first etalon page with a negative answer), at a laptop's 1280 px.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.browser.conftest import CHROMIUM_ARGS, LAPTOP, find_chromium


def take(report: Path, out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    executable = find_chromium()
    if executable is None:
        raise SystemExit("needs Chromium: apt-get install -y chromium (or set ETALON_CHROMIUM)")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": LAPTOP, "height": 900})
        page.goto((report / "index.html").as_uri())
        board = page.eval_on_selector("section.board", "e => e.id")
        for name, selector in (("report-leaderboard.png", f"#{board}-leaderboard"),
                               ("report-slices.png", f"#{board}-slices")):
            page.locator(selector).screenshot(path=str(out / name))
            written.append(out / name)
        calibrated = page.eval_on_selector_all("svg[id$='-reliability']", "els => els.map(e => e.id)")
        if calibrated:
            name = "report-calibration.png"
            page.locator(f"#{calibrated[0].removesuffix('-reliability')}-calibration").screenshot(path=str(out / name))
            written.append(out / name)
        system = next(iter(sorted((report / "systems").glob("*.html"))), None)
        if system is not None:
            page.goto(system.as_uri())
            page.screenshot(path=str(out / "report-system.png"), clip={"x": 0, "y": 0, "width": LAPTOP,
                                                                          "height": 900})
            written.append(out / "report-system.png")
        negative = next((p for p in sorted((report / "etalons").glob("*.html"))
                         if "v-neg" in p.read_text(encoding="utf-8")), None)
        if negative is not None:
            page.goto(negative.as_uri())
            page.screenshot(path=str(out / "report-etalon.png"), clip={"x": 0, "y": 0, "width": LAPTOP,
                                                                          "height": 1100})
            written.append(out / "report-etalon.png")
        browser.close()
    return written


if __name__ == "__main__":
    for path in take(Path(sys.argv[1]), Path(sys.argv[2])):
        print(path, path.stat().st_size)

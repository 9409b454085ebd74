"""Fixtures of the workbench's browser tests: one demo warehouse per session, a copy and a server per test.

Headless Chromium comes from Debian's packages (/usr/bin/chromium), driven by Playwright pointed at it
(never `playwright install`); without either, these tests skip saying which is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web import harness


@pytest.fixture(scope="session")
def demo_warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return harness.build_warehouse(tmp_path_factory.mktemp("web-demo") / "home")


@pytest.fixture()
def home(demo_warehouse: Path, tmp_path: Path) -> Path:
    return harness.copy_warehouse(demo_warehouse, tmp_path / "home")


@pytest.fixture()
def server(home: Path) -> Iterator[harness.Server]:
    with harness.serve(home) as running:
        yield running


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not harness.CHROMIUM.exists():
        pytest.skip("headless Chromium is not installed (apt-get install chromium)")
    playwright_api = pytest.importorskip("playwright.sync_api", reason="the dev extras (playwright) are not installed")
    with playwright_api.sync_playwright() as playwright:
        launched = harness.launch_browser(playwright)
        yield launched
        launched.close()  # type: ignore[attr-defined]


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(60_000)
    yield opened
    context.close()


@pytest.fixture()
def second_page(browser: Any) -> Iterator[Any]:
    """Another person at another browser (own cookies)."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(60_000)
    yield opened
    context.close()

"""Headless Chromium for tests that look at a page as a person would.

Debian's `chromium`, driven by Playwright's Python client pointed at that executable (never
`playwright install`, which downloads a browser of its own). Reusable by any test folder:

    def test_something(page_at):            # a page at a given window width
        page = page_at(800)
        page.goto(path.as_uri())

    def test_other(page, network):          # a 1280 px page; `network` lists requests that left file://

Every page blocks requests that are not file:// and records them in `network`, so a page that tries to load
something from outside is both kept offline and caught. Without Chromium (or without the playwright package)
the tests skip, saying what to install; set ETALON_CHROMIUM to use a browser elsewhere.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LAPTOP, NARROW = 1280, 800


def find_chromium() -> str | None:
    """ETALON_CHROMIUM, else Debian's chromium on PATH or at /usr/bin/chromium."""
    explicit = os.environ.get("ETALON_CHROMIUM")
    if explicit:
        return explicit if Path(explicit).exists() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


@pytest.fixture(scope="session")
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    executable = find_chromium()
    if executable is None:
        pytest.skip("needs Chromium: apt-get install -y chromium (or set ETALON_CHROMIUM to its path)")
    playwright = request.getfixturevalue("playwright_driver")   # the session's one driver (tests/conftest.py)
    launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
    try:
        yield launched
    finally:
        launched.close()


@pytest.fixture
def network() -> list[str]:
    """URLs of requests that were not file:// (blocked), from every page of the test."""
    return []


@pytest.fixture
def page_at(browser: Any, network: list[str]) -> Iterator[Callable[..., Any]]:
    contexts: list[Any] = []

    def open_page(width: int = LAPTOP, height: int = 900) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)

        def offline(route: Any) -> None:
            url = route.request.url
            if url.startswith("file:"):
                route.continue_()
            else:
                network.append(url)
                route.abort()

        context.route("**/*", offline)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def page(page_at: Callable[..., Any]) -> Any:
    return page_at(LAPTOP)

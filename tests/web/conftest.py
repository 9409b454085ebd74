"""Fixtures of the workbench's browser tests: one demo warehouse per session, a copy and a server per test.

Headless Chromium comes from Debian's packages (/usr/bin/chromium), driven by Playwright pointed at it
(never `playwright install`); without either, these tests skip saying which is missing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web import harness


@pytest.fixture(scope="session")
def demo_warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built once per session; ETALON_WEB_TEST_WAREHOUSE names one built before (it is only copied from)."""
    given = os.environ.get("ETALON_WEB_TEST_WAREHOUSE")
    if given:
        return Path(given)
    return harness.build_warehouse(tmp_path_factory.mktemp("web-demo") / "home")


@pytest.fixture()
def home(demo_warehouse: Path, tmp_path: Path) -> Path:
    return harness.copy_warehouse(demo_warehouse, tmp_path / "home")


@pytest.fixture()
def server(home: Path) -> Iterator[harness.Server]:
    with harness.serve(home) as running:
        yield running


@pytest.fixture(scope="session")
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    if not harness.CHROMIUM.exists():
        pytest.skip("headless Chromium is not installed (apt-get install chromium)")
    launched = harness.launch_browser(request.getfixturevalue("playwright_driver"))   # the session's one driver
    yield launched
    launched.close()  # type: ignore[attr-defined]


def _person_at_a_browser(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})   # own cookies
    opened = context.new_page()
    opened.set_default_timeout(60_000)     # a loaded machine: the shared CI box runs several suites at once
    yield opened
    context.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    yield from _person_at_a_browser(browser)


@pytest.fixture()
def second_page(browser: Any) -> Iterator[Any]:
    """Another person at another browser."""
    yield from _person_at_a_browser(browser)

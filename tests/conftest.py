"""Fixtures shared across test folders: one real demo run into a temporary warehouse per session, read by the
pipeline tests, the report's browser tests and the test that runs the README's SQL."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.pipeline.conftest import etalon


@pytest.fixture(scope="session")
def demo_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("demo") / "warehouse"
    result = etalon("demo", home=home)
    assert result.returncode == 0, result.stderr[-3000:]
    yield home


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    """One Playwright driver for the whole session: its sync API refuses a second one while the first runs, so
    the report's browser tests and the workbench's share it (each launches its own Chromium from it)."""
    api = pytest.importorskip("playwright.sync_api", reason="the dev extras (playwright) are not installed")
    with api.sync_playwright() as driver:
        yield driver

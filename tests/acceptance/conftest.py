"""Shared setup: every selected module's story starts right after collection, all of them at once.

A story is a sequence of `etalon` commands on one temporary project (each `update` costs seconds), so the
modules' stories run concurrently in threads, each in its own project and warehouse; a module's `story`
fixture waits for its own. A module takes part by defining `build_story(make) -> anything`.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.acceptance.project import Project

_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="acceptance-story")
_STORIES: dict[str, Future[Any]] = {}
_ROOTS: list[Path] = []


def _make(name: str, systems: tuple[str, ...] = ("sys-a",), sample_corpus: bool = True) -> Project:
    root = Path(tempfile.mkdtemp(prefix=f"etalon-acceptance-{name}-"))
    _ROOTS.append(root)
    return Project(root, systems=systems).create(sample_corpus=sample_corpus)


def _start(module: ModuleType) -> Future[Any] | None:
    build: Callable[[Callable[..., Project]], Any] | None = getattr(module, "build_story", None)
    if build is None:
        return None
    if module.__name__ not in _STORIES:
        _STORIES[module.__name__] = _POOL.submit(build, _make)
    return _STORIES[module.__name__]


def pytest_collection_finish(session: pytest.Session) -> None:
    for module in {getattr(item, "module", None) for item in session.items} - {None}:
        if isinstance(module, ModuleType) and module.__name__.startswith("tests.acceptance."):
            _start(module)


def pytest_sessionfinish(session: pytest.Session) -> None:
    _POOL.shutdown(wait=True, cancel_futures=True)
    for root in _ROOTS:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def story(request: pytest.FixtureRequest) -> Any:
    future = _start(request.module)
    assert future is not None, f"{request.module.__name__} defines no build_story"
    return future.result()

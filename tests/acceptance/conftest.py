"""Shared setup of the acceptance tests: temporary projects, one per module (each costs several `etalon update`s)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.acceptance.project import Project


@pytest.fixture(scope="module")
def project_factory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., Project]]:
    def make(name: str, systems: tuple[str, ...] = ("sys-a",)) -> Project:
        project = Project(tmp_path_factory.mktemp(name), systems=systems).create()
        return project

    yield make


"""`etalon update` is the user's entry point: on an empty warehouse it must evaluate what is configured."""

from __future__ import annotations

import pytest

from evaluation.testserver import TestServer

from .conftest import CODES, Project


@pytest.mark.slow
def test_a_first_update_on_an_empty_warehouse_answers_every_etalon(fresh_project: Project) -> None:
    with TestServer(default_reply="Ответ: ст. 1152 ГК РФ.") as server:
        fresh_project.write_systems(server.base_url, attempts=1)
        done = fresh_project.etalon("update", timeout=300)
    answered = fresh_project.query("SELECT DISTINCT code FROM eval.answers WHERE system = 'sut'")
    assert sorted(c for (c,) in answered) == sorted(CODES), done.stdout + done.stderr[-1500:]

from __future__ import annotations

from typing import Any

import pytest
import yaml

from etalons.model import Etalon
from tests.etalons.etalon_files import ETALON_YAML

BASE: dict[str, Any] = yaml.safe_load(ETALON_YAML)


def _with(**changes: Any) -> Etalon:
    return Etalon.model_validate({**BASE, **changes})


ORIGINAL = _with()


@pytest.mark.parametrize(
    ("name", "changes"),
    [
        ("a new title", {"title": "Фактическое принятие наследства"}),
        ("trailing spaces and a final newline", {"decisive_issue": BASE["decisive_issue"] + "  \n"}),
        ("an optional list written out empty", {"authors": []}),
        ("an optional field written out as null", {"notes": None}),
    ],
)
def test_an_edit_that_changes_no_content_makes_no_new_version(name: str, changes: dict[str, Any]) -> None:
    assert _with(**changes).version == ORIGINAL.version


@pytest.mark.parametrize(
    ("name", "changes"),
    [
        ("the reference answer", {"reference_answer": "Нет, наследство не принято."}),
        ("the difficulty", {"difficulty": 3}),
        ("a source's priority", {"sources": [{**BASE["sources"][0], "priority": "recommended"}]}),
        ("the author", {"author": "И. Петров"}),
        ("the order of the branches", {"branches": list(reversed(BASE["branches"]))}),
    ],
)
def test_an_edit_of_the_content_makes_a_new_version(name: str, changes: dict[str, Any]) -> None:
    assert _with(**changes).version != ORIGINAL.version


@pytest.mark.parametrize(
    ("changes", "question_same", "rubric_same"),
    [
        ({"reference_answer": "Нет."}, True, False),
        ({"difficulty": 1, "type": "law", "author": "И. Петров"}, True, True),
        ({"question": "Сколько времени у меня есть, чтобы принять наследство?"}, False, False),
    ],
)
def test_question_and_rubric_versions_follow_what_system_and_judge_see(
    changes: dict[str, Any], question_same: bool, rubric_same: bool
) -> None:
    edited = _with(**changes)
    assert (edited.question_version == ORIGINAL.question_version) is question_same
    assert (edited.rubric_version == ORIGINAL.rubric_version) is rubric_same


def test_the_version_depends_on_the_code_so_two_etalons_never_share_one() -> None:
    assert _with(code="NAS-02").version != ORIGINAL.version

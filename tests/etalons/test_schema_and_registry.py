from __future__ import annotations

import json

import pytest

from etalons.branches import branches
from etalons.schema import SCHEMA_PATH, build_schema


def test_the_committed_schema_matches_the_models() -> None:
    committed = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert committed == build_schema(), "etalons/schema.json is stale: run `python -m etalons.schema`"


def test_the_schema_offers_editors_every_registered_branch() -> None:
    assert build_schema()["$defs"]["Etalon"]["properties"]["branch"]["enum"] == list(branches())


@pytest.mark.parametrize("branch", list(branches().values()), ids=list(branches()))
def test_every_registered_branch_is_named_in_russian_romanian_and_english(branch: object) -> None:
    names = branch.names  # type: ignore[attr-defined]
    assert sorted(names) == ["en", "ro", "ru"] and all(n.strip() for n in names.values())


@pytest.mark.parametrize(
    "needed",
    [
        "inheritance",
        "contracts",
        "labour",
        "land_realty",
        "family",
        "consumer",
        "procedure",
        "corporate",
        "admin_offences",
        "tax",
        "housing",
        "bankruptcy",
        "insolvency",
    ],
)
def test_the_registry_holds_every_branch_of_the_benchmarks(needed: str) -> None:
    assert needed in branches()

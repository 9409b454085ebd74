"""The ways an article gets its act (citations/context.py), each with its examples in citations/data/context_rules.yaml:
every way the extractor names has examples, and every example gets its act by that way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from citations import extract
from citations.context import RULES, SETTLED_BEFORE
from citations.extract import explain

DATA = Path(__file__).resolve().parents[2] / "citations" / "data" / "context_rules.yaml"
WAYS: list[dict[str, Any]] = yaml.safe_load(DATA.read_text(encoding="utf-8"))["ways"]
EXAMPLES = [(w["way"], ex) for w in WAYS for ex in w["examples"]]


def test_every_way_the_extractor_names_has_examples_in_the_data_file_in_its_order() -> None:
    assert [w["way"] for w in WAYS] == [*SETTLED_BEFORE, *(r.name for r in RULES)]
    assert all(w["examples"] and w["doc"] for w in WAYS)


@pytest.mark.parametrize(("way", "example"), EXAMPLES, ids=[f"{w}-{ex['article']}" for w, ex in EXAMPLES])
def test_an_article_gets_its_act_by_the_way_its_example_shows(way: str, example: dict[str, Any]) -> None:
    read = [(act, rule) for _, article, act, rule in explain(example["text"]) if article == example["article"]]
    assert (example["act"], way) in read


@pytest.mark.parametrize(("way", "example"), EXAMPLES, ids=[f"{w}-{ex['article']}" for w, ex in EXAMPLES])
def test_the_citation_a_reader_sees_carries_that_act(way: str, example: dict[str, Any]) -> None:
    acts = {c.act for c in extract(example["text"]) if c.kind == "article" and c.article == example["article"]}
    assert example["act"] in acts

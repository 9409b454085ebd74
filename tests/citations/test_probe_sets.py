"""Our own probe sets (tests/citations/data/probe-*.jsonl: answers written for these tests, never drawn from the
dev sets) meet the same goals as the dev sets: a check that the extractor generalises beyond the items it was
built on, scored the same way through the public `extract`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.citations.gold_sets import GOALS, counts

DATA = Path(__file__).resolve().parent / "data"
FILES = sorted(DATA.glob("probe-*.jsonl"))


@pytest.mark.parametrize(
    ("path", "kind", "precision", "recall"),
    [pytest.param(f, k, p, r, id=f"{f.stem}-{k}") for f in FILES for k, p, r in GOALS],
)
def test_probe_set_precision_and_recall_meet_the_goals(
    path: Path, kind: str, precision: float, recall: float
) -> None:
    tp, fp, fn = counts(path, kind)
    assert tp / (tp + fp) >= precision
    assert tp / (tp + fn) >= recall


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_every_probe_label_is_a_substring_of_its_answer(path: Path) -> None:
    for line in path.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        assert all(c["surface"] in item["text"] for c in item["citations"]), item["id"]


def test_there_is_a_russian_and_a_romanian_probe_set() -> None:
    assert [f.name for f in FILES] == ["probe-ro.jsonl", "probe-ru.jsonl"]

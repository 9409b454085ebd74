"""Real third-party texts: our labelled passages (tests/citations/data/{real,web,gazette}-*.jsonl) are well formed
and the half we develop on meets the issue's goals; the shared real-text dev set stays above a floor.

The held-back halves (*-held.jsonl) are scored by benchmarks/citations_accuracy.py and deliberately not
asserted here: its figure is the honest one only while nothing is tuned to pass it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citations import extract
from tests.citations.gold_sets import REAL_GOALS, counts

DATA = Path(__file__).resolve().parent / "data"
# real-*: the first round of real passages; web-*: lawyers' articles, FAQs, practice reviews, legal pages; gazette-*:
# Romanian legislation text (the act-span set of benchmarks/act_spans.py); unseen-*, mo-*: the third round, text no
# earlier round had seen (court decisions, answers, commentaries; Monitorul Oficial legislation)
OURS = sorted(
    f for pattern in ("real-*.jsonl", "web-*.jsonl", "gazette-*.jsonl", "unseen-*.jsonl", "mo-*.jsonl")
    for f in DATA.glob(pattern)
)
THIRD_ROUND = ("unseen-", "mo-")
OURS_DEV = sorted(f for f in OURS if f.stem.endswith("-dev") and not f.stem.startswith(THIRD_ROUND))
THIRD_DEV = sorted(f for f in OURS if f.stem.endswith("-dev") and f.stem.startswith(THIRD_ROUND))
SHARED = Path(__file__).resolve().parents[1].parent.parent / "shared" / "citations" / "real-dev"
SHARED_FILES = sorted(SHARED.glob("*-real-dev.jsonl"))


@pytest.mark.parametrize("path", OURS, ids=[f.stem for f in OURS])
def test_every_real_passage_names_its_source_and_every_label_is_a_substring_of_it(path: Path) -> None:
    for line in path.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        assert item["source"] and item["genre"], item["id"]
        assert all(c["surface"] in item["text"] for c in item["citations"]), item["id"]


def test_every_real_source_is_listed_in_the_data_readme() -> None:
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    for path in OURS:
        for line in path.read_text(encoding="utf-8").splitlines():
            source = json.loads(line)["source"]
            if source.startswith(("http://", "https://")):
                assert source in readme, source  # a web page: its whole address
            else:
                assert source.split(":")[0].split("@")[0].replace("code-index file id ", "")[:40] in readme, source


@pytest.mark.parametrize(
    ("path", "kind", "precision", "recall"),
    [pytest.param(f, k, p, r, id=f"{f.stem}-{k}") for f in OURS_DEV for k, p, r in REAL_GOALS],
)
def test_our_real_dev_half_meets_the_goals(path: Path, kind: str, precision: float, recall: float) -> None:
    tp, fp, fn = counts(path, kind)
    assert tp + fp == 0 or tp / (tp + fp) >= precision
    assert tp + fn == 0 or tp / (tp + fn) >= recall


@pytest.mark.parametrize(
    ("path", "kind"), [pytest.param(f, k, id=f"{f.stem}-{k}") for f in THIRD_DEV for k, _, _ in REAL_GOALS]
)
def test_the_third_rounds_dev_halves_stay_above_their_floor(path: Path, kind: str) -> None:
    # text first scored before any change was made for it; its dev half now reads 0.93-1.00 (the remaining misses are
    # listed in benchmarks/README.md), so a change that loses ground on it is seen
    tp, fp, fn = counts(path, kind)
    assert tp + fp == 0 or tp / (tp + fp) >= 0.90
    assert tp + fn == 0 or tp / (tp + fn) >= 0.88


@pytest.mark.skipif(not SHARED_FILES, reason="../shared/citations/real-dev is not present")
@pytest.mark.parametrize("path", SHARED_FILES, ids=[f.stem for f in SHARED_FILES])
def test_the_shared_real_dev_set_stays_above_its_floor(path: Path) -> None:
    # the goal on real text, which both files now clear (0.97-0.99), so a change that loses it is seen
    tp, fp, fn = counts(path, "article")
    assert tp / (tp + fp) >= 0.95
    assert tp / (tp + fn) >= 0.95


GAZETTE_DEV = sorted(f for pattern in ("gazette-*-dev.jsonl", "mo-*-dev.jsonl") for f in DATA.glob(pattern))


@pytest.mark.parametrize("path", GAZETTE_DEV, ids=[f.stem for f in GAZETTE_DEV])
def test_nearly_every_act_reference_in_the_legislation_dev_half_is_found_where_it_is_written(path: Path) -> None:
    # LegalNERo-style act spans (benchmarks/act_spans.py): each labelled citation is a span of the text that an
    # extracted citation must overlap; the goal for act spans is a recall of 0.90
    gold = found = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        spans, after = [], {}
        for c in item["citations"]:
            start = item["text"].find(c["surface"], after.get(c["surface"], 0))
            after[c["surface"]] = start + 1
            spans.append((start, start + len(c["surface"])))
        extracted = [(c.start, c.end) for c in extract(item["text"])]
        gold += len(spans)
        found += sum(any(s < e2 and s2 < e for s2, e2 in extracted) for s, e in spans)
    assert found / gold >= 0.90

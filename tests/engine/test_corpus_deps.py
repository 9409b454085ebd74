"""A citation's corpus keys tell exactly when its resolution can change: the promise incremental re-resolution
stands on. Random edits of the sample corpus (a unit's text, a removed article or document, a duplicate that
makes a citation ambiguous, a repeal, a new article) never change the resolution of a citation whose keys kept
their fingerprints."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from citations import extract, resolve
from corpus.sources import Source
from corpus.store import current_tables, refresh_source
from evaluation.engine.corpus_view import CorpusView, deps
from tests.engine.harness import TEXTS
from warehouse.lake import Lake

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[pa.Table, pa.Table]:
    lake = Lake(tmp_path_factory.mktemp("lake"))
    lake.ensure_schemas()
    refresh_source(lake, Source("sample", path=REPO / "corpus" / "sample"), tmp_path_factory.mktemp("staging"))
    return current_tables(lake)


@pytest.fixture(scope="module")
def citations() -> list[Any]:
    found = []
    for code, texts in sorted(TEXTS.items()):
        jurisdiction = "ro" if code.startswith("RO") else "ru"
        for text in texts:
            found.extend(extract(text, jurisdiction))
    return found


def _edit(documents: pa.Table, units: pa.Table, rng: random.Random) -> tuple[str, pa.Table, pa.Table]:
    kind = rng.choice(["text", "drop_unit", "drop_document", "duplicate", "repeal", "new_article"])
    docs = documents["doc_id"].to_pylist()
    if kind == "text":
        i = rng.randrange(units.num_rows)
        texts = units["text"].to_pylist()
        texts[i] = (texts[i] or "") + " (изменено)"
        return kind, documents, units.set_column(units.schema.get_field_index("text"), "text", pa.array(texts))
    if kind == "drop_unit":
        i = rng.randrange(units.num_rows)
        keep = [j != i for j in range(units.num_rows)]
        return kind, documents, units.filter(pa.array(keep))
    doc = rng.choice(docs)
    if kind == "drop_document":
        return (kind, documents.filter(pc.not_equal(documents["doc_id"], doc)),
                units.filter(pc.not_equal(units["doc_id"], doc)))
    if kind == "duplicate":
        extra_docs = documents.filter(pc.equal(documents["doc_id"], doc))
        extra_units = units.filter(pc.equal(units["doc_id"], doc))
        copy = doc + "-copy"
        extra_docs = extra_docs.set_column(0, "doc_id", pa.array([copy] * extra_docs.num_rows))
        extra_units = extra_units.set_column(0, "doc_id", pa.array([copy] * extra_units.num_rows))
        return kind, pa.concat_tables([documents, extra_docs]), pa.concat_tables([units, extra_units])
    if kind == "repeal":
        status = ["repealed" if d == doc else s for d, s in zip(docs, documents["status"].to_pylist(), strict=True)]
        return kind, documents.set_column(documents.schema.get_field_index("status"), "status", pa.array(status)), units
    rows = units.filter(pc.equal(units["doc_id"], doc)).slice(0, 1).to_pylist()
    if not rows:
        return kind, documents, units
    rows[0].update(article="9999", path="9999", text="Новая статья.")
    return kind, documents, pa.concat_tables([units, pa.Table.from_pylist(rows, schema=units.schema)])


def _seen(view: CorpusView, citation: Any) -> tuple[Any, ...]:
    r = resolve([citation], view.lookup)[0]
    text = view.article_texts.get((citation.act, citation.article)) if citation.act and citation.article else None
    return (r.status, r.doc_id, r.unit_path, r.reason, tuple(r.other_acts), text, citation.act in view.repealed_acts)


@pytest.mark.parametrize("seed", range(12))
def test_a_citation_whose_keys_kept_their_fingerprints_resolves_as_before(
        seed: int, corpus: tuple[pa.Table, pa.Table], citations: list[Any]) -> None:
    rng = random.Random(seed)
    documents, units = corpus
    before = CorpusView(documents, units, "before")
    kind, documents2, units2 = _edit(documents, units, rng)
    after = CorpusView(documents2, units2, "after")
    changed_keys = unchanged = 0
    for citation in citations:
        keys = deps(citation.to_record())
        if before.touch_hash(keys) != after.touch_hash(keys):
            changed_keys += 1
            continue
        unchanged += 1
        assert _seen(before, citation) == _seen(after, citation), f"{kind}: {citation.text}"
    assert unchanged, "no citation kept its fingerprints: the edit should touch only a corner of the corpus"


def test_an_amended_article_changes_the_fingerprint_of_exactly_its_citations(
        corpus: tuple[pa.Table, pa.Table], citations: list[Any]) -> None:
    documents, units = corpus
    target = next(c for c in citations if c.kind == "article" and c.act and c.article)
    texts = units["text"].to_pylist()
    rows = [i for i, (a, art) in enumerate(zip(units["act"].to_pylist(), units["article"].to_pylist(), strict=True))
            if a == target.act and art == target.article]
    assert rows
    texts[rows[0]] = (texts[rows[0]] or "") + " (в новой редакции)"
    after = CorpusView(documents, units.set_column(units.schema.get_field_index("text"), "text", pa.array(texts)), "a")
    before = CorpusView(documents, units, "b")
    touched = {c.text for c in citations if before.touch_hash(deps(c.to_record())) != after.touch_hash(deps(c.to_record()))}
    same_article = {c.text for c in citations if (c.act, c.article) == (target.act, target.article)
                    or (c.act == target.act and c.article_to is not None)}
    assert target.text in touched
    assert touched <= same_article | {c.text for c in citations if c.act == target.act and c.article_to}

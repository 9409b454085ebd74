"""Citations of every answer, resolved against the corpus (eval.citations), one partition per shard and system.

Citations in the answer's text count as `in_text`; those of its separate source list only when the text does
not already cite them. A row depends on its answer and on the corpus keys its citations look up: a new document
version that changes an article re-resolves exactly the answers citing that article.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from evaluation.engine import code as stage_code
from evaluation.engine.corpus_view import CorpusView, citation_deps
from evaluation.engine.keys import Part, digest
from evaluation.engine.stages.base import (
    Cell,
    CellKey,
    CellStage,
    Computed,
    touch_keys,
    upstream_output,
)
from evaluation.engine.stages.sources import _touch_digest, touch_summary
from evaluation.engine.world import World
from warehouse.tables import CitationRow, LedgerRow, from_row

VERSION = stage_code.version("citations", "citations-2")
_FIELDS = tuple(CitationRow.__dataclass_fields__)


def _key(c: Any) -> tuple[Any, ...]:
    return (c.kind, c.act, c.article, c.court, c.number)


def context_hash(records: Sequence[Mapping[str, Any]], corpus: CorpusView) -> str:
    """What the judge and the candidates read of the corpus for these citations: article texts, repeals."""
    texts = sorted({(r["act"], r["article"]): corpus.article_texts.get((r["act"], r["article"]))
                    for r in records if r.get("act") and r.get("article")}.items())
    repealed = sorted({r["act"] for r in records if r.get("act") in corpus.repealed_acts})
    return digest(texts, repealed)


class CitationsStage(CellStage):
    name: ClassVar[str] = "citations"
    version: ClassVar[str] = VERSION
    tables: ClassVar[tuple[str, ...]] = ("citations",)

    def cells(self, world: World, partition: str, ledger: Mapping[CellKey, LedgerRow]) -> list[Cell] | None:
        part = Part.parse(partition)
        if world.system(part.system) is None:
            return None
        answers = world.ledger("answers", part.lake_key())
        current = {(r.code, r.version): (r, e) for r, e in world.current_etalons(part.shard)}
        cells = []
        for key, upstream in sorted(answers.items()):
            found = current.get((key[0], key[1]))
            if found is None:
                continue
            base = digest(VERSION, upstream.output_hash, found[1].jurisdiction)
            keys = touch_keys(ledger.get(key))
            touch = world.corpus.touch_hash(keys) if keys is not None else None
            cells.append(Cell(*key, input_hash=digest(base, touch), payload=(found, base)))
        return cells

    def owned(self, world: World, partition: str) -> set[str]:
        """The etalons whose rows live in this partition: every one stored in its shard, any version."""
        return {r.code for r in world.etalon_rows(Part.parse(partition).shard)}

    def current_versions(self, world: World, partition: str) -> set[tuple[str, str]]:
        return {(r.code, r.version) for r, _ in world.current_etalons(Part.parse(partition).shard)}

    def partition_digest(self, world: World, partition: str,
                         ledger: Mapping[CellKey, LedgerRow] | None = None) -> str | None:
        part = Part.parse(partition)
        if world.system(part.system) is None:
            return "frozen"
        upstream = upstream_output(world, "answers", partition, part.lake_key())
        if upstream is None:
            return None
        return digest(VERSION, upstream, _touch_digest(world, self.name, partition, part.lake_key(), ledger))

    def compute(self, world: World, partition: str, cells: Sequence[Cell]) -> dict[CellKey, Computed]:
        from citations import extract, resolve

        part = Part.parse(partition)
        answers = {(r["code"], r["version"], r["attempt"]): r
                   for r in world.lake.read("answers", *part.lake_key()).to_pylist()}
        corpus = world.corpus
        out: dict[CellKey, Computed] = {}
        for cell in cells:
            (row, etalon), base = cell.payload
            answer = answers.get(cell.key)
            rows: list[CitationRow] = []
            if answer is not None and answer["status"] == "ok":
                body = extract(answer["text"], etalon.jurisdiction)
                seen = {_key(c) for c in body}
                listed: list[Any] = []
                for source in json.loads(answer.get("sources") or "[]"):
                    listed.extend(c for c in extract(source, etalon.jurisdiction) if _key(c) not in seen)
                for in_text, group in ((True, body), (False, listed)):
                    for resolution in resolve(group, corpus.lookup):
                        record = resolution.citation.to_record(status=resolution.status)
                        record.update(system=part.system, benchmark=row.benchmark, code=row.code,
                                      version=row.version, attempt=cell.attempt, in_text=in_text,
                                      other_acts=",".join(resolution.other_acts) or None,
                                      doc_id=resolution.doc_id, unit_path=resolution.unit_path,
                                      reason=resolution.reason, input_hash="")
                        rows.append(from_row(CitationRow, record))
            records = [r.__dict__ for r in rows]
            keys = tuple(citation_deps(records))
            touch = corpus.touch_hash(keys)
            final = digest(base, touch)
            rows = [CitationRow(**{**r.__dict__, "input_hash": final}) for r in rows]
            visible = [[r.__dict__[k] for k in _FIELDS if k != "input_hash"] for r in rows]
            out[cell.key] = Computed({"citations": rows}, digest(visible, context_hash(records, corpus)),
                                     input_hash=final, touch=keys, touch_hash=touch)
        return out

    def summary(self, world: World, partition: str, ledger: Mapping[CellKey, LedgerRow]) -> dict[str, Any]:
        return touch_summary(world, ledger)


STAGE = CitationsStage()

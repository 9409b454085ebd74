"""The sources of every current etalon, resolved against the corpus (bench.sources), one partition per shard.

Signing needs every cited source in the corpus, and the judge is shown the text of every expected norm, so each
row keeps where the source landed (document, unit) and that unit's text. A row depends on the corpus only
through the keys its citations look up (`corpus_view.deps`): a corpus refresh that does not touch them leaves it
as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from etalons.loader import LoadedEtalon
from evaluation.engine import code as stage_code
from evaluation.engine.corpus_view import citation_deps
from evaluation.engine.keys import Shard, digest
from evaluation.engine.stages.base import Cell, CellKey, Computed, etalon_of_row, touch_keys, upstream_output
from evaluation.engine.world import World
from warehouse.tables import EtalonSourceRow, LedgerRow

VERSION = stage_code.version("sources", "sources-2")


class SourcesStage:
    name: ClassVar[str] = "sources"
    version: ClassVar[str] = VERSION
    group: ClassVar[str] = "etalons"
    tables: ClassVar[tuple[str, ...]] = ("etalon_sources",)

    def lake_key(self, partition: str) -> tuple[str, ...]:
        return Shard.parse(partition).lake_key()

    def row_cell(self, row: Mapping[str, Any]) -> CellKey:
        return etalon_of_row(row)

    def cells(self, world: World, partition: str, ledger: Mapping[CellKey, LedgerRow]) -> list[Cell]:
        shard = Shard.parse(partition)
        etalons = world.ledger("etalons", shard.lake_key())
        cells = []
        for row, etalon in world.current_etalons(shard):
            upstream = etalons.get((row.code, "", 0))
            base = digest(VERSION, upstream.output_hash if upstream else None, row.version)
            keys = touch_keys(ledger.get((row.code, "", 0)))
            touch = world.corpus.touch_hash(keys) if keys is not None else None
            cells.append(Cell(row.code, "", 0, digest(base, touch), payload=(row, etalon, base)))
        return cells

    def owned(self, world: World, partition: str) -> set[str]:
        return {r.code for r in world.etalon_rows(Shard.parse(partition))}

    def current_versions(self, world: World, partition: str) -> set[tuple[str, str]]:
        return set()   # an etalon no longer current keeps its last resolved sources (archived etalons)

    def partition_digest(self, world: World, partition: str,
                         ledger: Mapping[CellKey, LedgerRow] | None = None) -> str | None:
        shard = Shard.parse(partition)
        upstream = upstream_output(world, "etalons", partition, shard.lake_key())
        if upstream is None:
            return None
        return digest(VERSION, upstream, _touch_digest(world, self.name, partition, shard.lake_key(), ledger))

    def compute(self, world: World, partition: str, cells: Sequence[Cell]) -> dict[CellKey, Computed]:
        from citations import extract, resolve

        corpus = world.corpus
        out: dict[CellKey, Computed] = {}
        for cell in cells:
            row, etalon, base = cell.payload
            loaded = LoadedEtalon(row.benchmark, etalon, row.file, row.methodology, row.file_hash)
            rows: list[EtalonSourceRow] = []
            records: list[dict[str, Any]] = []
            for index, source in enumerate(etalon.sources, start=1):
                found = list(extract(source.citation, etalon.jurisdiction))
                resolutions = list(resolve(found, corpus.lookup)) if found else []
                records.extend(c.to_record() for c in found)
                rows.append(_row(loaded, row.shard, index, source, found, resolutions, corpus))
            keys = tuple(citation_deps(records))
            touch = corpus.touch_hash(keys)
            texts = [corpus.article_texts.get((r.act, r.article)) if r.act and r.article else None for r in rows]
            output = digest([_visible(r) for r in rows], texts)
            out[cell.key] = Computed({"etalon_sources": rows}, output, input_hash=digest(base, touch),
                                     touch=keys, touch_hash=touch)
        return out

    def summary(self, world: World, partition: str, ledger: Mapping[CellKey, LedgerRow]) -> dict[str, Any]:
        return touch_summary(world, ledger)


def touch_summary(world: World, ledger: Mapping[CellKey, LedgerRow]) -> dict[str, Any]:
    """What the planner needs to tell, from the index alone, whether a corpus refresh reaches the partition."""
    return {"corpus_version": world.corpus.version,
            "touch_digest": digest(sorted((list(k), r.touch_hash) for k, r in ledger.items()))}


def _touch_digest(world: World, stage: str, partition: str, key: tuple[str, ...],
                  ledger: Mapping[CellKey, LedgerRow] | None = None) -> str | None:
    """The partition's corpus footprint now: from the index while the corpus is unchanged, else recomputed
    from the ledger (the one just written, when given)."""
    if ledger is None:
        entry = world.index.get(stage, partition)
        if entry is not None and entry.corpus_version == world.corpus.version:
            return entry.touch_digest
        ledger = world.ledger(stage, key)
    hashes = []
    for k, row in ledger.items():
        keys = touch_keys(row)
        hashes.append((list(k), world.corpus.touch_hash(keys) if keys is not None else None))
    return digest(sorted(hashes))


def _visible(row: EtalonSourceRow) -> list[Any]:
    return [row.idx, row.citation, row.priority, row.condition, row.kind, row.act, row.article, row.article_to,
            row.part, row.court, row.number, row.point, row.status, row.reason, row.doc_id, row.unit_path,
            row.unit_text]


def _row(loaded: LoadedEtalon, shard: str, index: int, source: Any, found: list[Any], resolutions: list[Any],
         corpus: Any) -> EtalonSourceRow:
    from etalons.verify import combine

    first = found[0] if found else None
    status, reason = combine(resolutions)
    hit = resolutions[0] if len(resolutions) == 1 and resolutions[0].status == "found" else None
    doc_id = hit.doc_id if hit is not None else None
    path = hit.unit_path if hit is not None else None
    text = corpus.text(doc_id, path) if doc_id and path else None

    def get(name: str) -> str | None:
        value = getattr(first, name, None)
        return None if value is None else str(value)

    return EtalonSourceRow(
        benchmark=loaded.benchmark, shard=shard, code=loaded.code, version=loaded.version, idx=index,
        citation=source.citation, priority=source.priority, condition=source.condition, kind=get("kind"),
        act=get("act"), article=get("article"), article_to=get("article_to"), part=get("part"),
        court=get("court"), number=get("number"), point=get("point"), status=status, reason=reason,
        doc_id=doc_id, unit_path=path, unit_text=text,
        corpus_version=corpus.touch_hash(citation_deps([c.to_record() for c in found])))


STAGE = SourcesStage()

"""The corpus, one partition per configured source, with its data-quality checks."""


import re
from collections.abc import Iterator

import pyarrow.compute as pc
from dagster import (
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetExecutionContext,
    AssetKey,
    BackfillPolicy,
    Output,
    asset,
    asset_check,
)

from assets._run import NOTHING, run_stage
from pipelines.partitions import SOURCES
from pipelines.resources import EtalonWarehouse


@asset(dagster_type=NOTHING, partitions_def=SOURCES, backfill_policy=BackfillPolicy.single_run(), deps=["corpus_files"],
       group_name="corpus", code_version="corpus-2",
       description="Documents and their units (article, part, point) from one source; every version kept.")
def corpus(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    yield from run_stage(context, warehouse, "corpus", [AssetKey("corpus")])


def article_order(article: str) -> tuple[int, ...]:
    """"12.8" -> (12, 8); "2^1" -> (2, 1): numbering checks compare these."""
    return tuple(int(p) for p in re.findall(r"\d+", article)) or (0,)


_GENERIC_ACT = re.compile(r"^(ru/fz-\d+[a-z0-9-]*|ro/[a-z]+-\d+-\d{4}|ru/[a-z-]+-\d+[a-z0-9-]*)$")


def _known(registry: object, act: str) -> bool:
    """An act key is known when the registry names it or it follows a generic numbered form."""
    try:
        title = registry.title(act)  # type: ignore[attr-defined]
    except (KeyError, ValueError):
        title = None
    return bool(title) or bool(_GENERIC_ACT.match(act))


def _current_units(warehouse: EtalonWarehouse, source: str) -> list[dict[str, object]]:
    units = warehouse.lake().read("corpus_units", source)
    if units.num_rows:
        units = units.filter(pc.fill_null(units["is_current"], True))
    rows: list[dict[str, object]] = units.select(["doc_id", "path", "kind", "text", "status", "article", "ord"]).to_pylist()
    return rows


@asset_check(asset=corpus, partitions_def=SOURCES, description="No article without text, no duplicate paths.")
def corpus_units_well_formed(context: AssetCheckExecutionContext, warehouse: EtalonWarehouse) -> AssetCheckResult:
    rows = [r for source in context.partition_keys for r in _current_units(warehouse, source)]
    empty = [f"{r['doc_id']} {r['path']}" for r in rows
             if r["kind"] == "article" and r["status"] != "repealed" and not str(r["text"] or "").strip()]
    seen: set[tuple[object, object]] = set()
    duplicates = []
    for r in rows:
        key = (r["doc_id"], r["path"])
        if key in seen:
            duplicates.append(f"{r['doc_id']} {r['path']}")
        seen.add(key)
    return AssetCheckResult(passed=not empty and not duplicates, metadata={
        "articles_without_text": len(empty), "duplicate_paths": len(duplicates),
        "examples": ", ".join((empty + duplicates)[:10]) or "none"})


@asset_check(asset=corpus, partitions_def=SOURCES, description="Articles numbered in order within a document.")
def corpus_numbering_in_order(context: AssetCheckExecutionContext, warehouse: EtalonWarehouse) -> AssetCheckResult:
    out_of_order: list[str] = []
    for source in context.partition_keys:
        last: dict[object, tuple[int, ...]] = {}
        for r in _current_units(warehouse, source):
            if r["kind"] != "article" or not r["article"]:
                continue
            key = article_order(str(r["article"]))
            prev = last.get(r["doc_id"])
            if prev is not None and key < prev:
                out_of_order.append(f"{r['doc_id']} {r['article']}")
            last[r["doc_id"]] = key
    return AssetCheckResult(passed=not out_of_order, metadata={
        "out_of_order": len(out_of_order), "examples": ", ".join(out_of_order[:10]) or "none"})


@asset_check(asset=corpus, partitions_def=SOURCES, description="Every document's act key is in the registry.")
def corpus_acts_resolve(context: AssetCheckExecutionContext, warehouse: EtalonWarehouse) -> AssetCheckResult:
    from citations.registry import default_registry

    registry = default_registry()
    docs = [d for source in context.partition_keys
            for d in warehouse.lake().read("corpus_documents", source).to_pylist()]
    unknown = sorted({d["act"] for d in docs if d["act"] and not _known(registry, d["act"])})
    return AssetCheckResult(passed=not unknown, metadata={"unknown_acts": ", ".join(unknown) or "none"})

"""Etalons, one partition per code: the stored versions, and their sources verified against the corpus."""

from collections.abc import Iterator

from dagster import (
    AllPartitionMapping,
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetDep,
    AssetExecutionContext,
    BackfillPolicy,
    Output,
    asset,
    asset_check,
)

from assets._emit import NOTHING, emit
from etalons import store
from etalons.loader import load_benchmarks
from etalons.verify import report, verify_sources
from pipelines.automation import on_change
from pipelines.partitions import ETALONS
from pipelines.resources import EtalonWarehouse


@asset(dagster_type=NOTHING, partitions_def=ETALONS, backfill_policy=BackfillPolicy.single_run(), deps=["etalon_files"], automation_condition=on_change(), group_name="etalons",
       description="Every version of one etalon (by code); removing its file archives it.")
def etalons(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    home, lake = warehouse.paths(), warehouse.lake()
    if not home.etalons_dir.is_dir():
        raise FileNotFoundError(f"no etalons folder at {home.etalons_dir} (set ETALON_ETALONS); nothing archived")
    result = load_benchmarks(home.etalons_dir)
    loaded = result.by_code()
    at = store.now()
    versions = {}
    for code in context.partition_keys:
        item = loaded.get(code)
        held = item is None and code in result.failed_codes
        versions[code] = store.refresh_etalon(lake, code, item, held, at)
    yield from emit(context, versions, {"etalons": len(versions), "load_errors": len(result.errors)})


@asset(dagster_type=NOTHING, partitions_def=ETALONS, backfill_policy=BackfillPolicy.single_run(),
       deps=["etalons", AssetDep("corpus", partition_mapping=AllPartitionMapping())],
       automation_condition=on_change(), group_name="etalons",
       description="The etalon's sources resolved against the corpus (bench.sources); re-run on corpus refresh.")
def etalon_sources(context: AssetExecutionContext, warehouse: EtalonWarehouse) -> Iterator[Output[None]]:
    from citations import SetLookup
    from corpus.store import corpus_version, current_tables
    from etalons.loader import LoadedEtalon

    lake = warehouse.lake()
    documents, units = current_tables(lake)
    lookup = SetLookup.from_tables(documents, units)
    version = corpus_version(lake)
    versions: dict[str, str] = {}
    reports: list[str] = []
    for code in context.partition_keys:
        stored = store.current(lake, code)
        if stored is None:
            versions[code] = "absent"
            continue
        row, etalon = stored
        loaded = LoadedEtalon(benchmark=row["benchmark"], etalon=etalon, file=row["file"],
                              methodology=row["methodology"], file_hash=row["file_hash"])
        checks = verify_sources(loaded, lookup)
        versions[code] = store.write_sources(lake, code, checks, version)
        if len(reports) < 50:
            reports.append(report(loaded, checks))
    yield from emit(context, versions, {"corpus_version": version, "report": "\n".join(reports) or "none"})


@asset_check(asset=etalon_sources, partitions_def=ETALONS, blocking=True,
             description="Every source the etalon cites exists in the corpus: an etalon citing a missing "
                         "source cannot be signed, and is not evaluated until fixed.")
def sources_in_corpus(context: AssetCheckExecutionContext, warehouse: EtalonWarehouse) -> AssetCheckResult:
    lake = warehouse.lake()
    bad = []
    for code in context.partition_keys:
        current = store.current(lake, code)
        version = current[0]["version"] if current else None
        bad += [r for r in store.read_sources(lake, code)
                if r["version"] == version and r["status"] not in ("found", "unverifiable")]
    listing = "\n".join(f"- {r['code']} `{r['citation']}`: {r['status']} ({r['reason']})" for r in bad)
    return AssetCheckResult(passed=not bad, metadata={"unresolved": len(bad), "sources": listing or "none"})



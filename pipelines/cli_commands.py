"""The bodies of the `etalon` commands: thin calls into the runner and the actions.

Dagster is imported by the commands that run it, not by this module: `etalon cite` and `etalon corpus show`
answer in about half a second instead of paying a second of Dagster's imports on every call.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipelines import actions
from pipelines.actions import Refused
from pipelines.cli import print_json_lines
from warehouse.home import Home
from warehouse.lake import Lake

if TYPE_CHECKING:
    from pipelines.runner import RunLog


def run_update(home: Home, echo: Any) -> RunLog:
    from pipelines.runner import update

    return update(home, echo)


def _echo(message: str) -> None:
    print(message, file=sys.stderr)


def demo(home: Home) -> int:
    from pipelines.demo import leaderboard_text, run_demo

    log = run_demo(home.root, _echo)
    for line in log.lines():
        _echo(line)
    print(leaderboard_text(home))
    print(f"\nwarehouse: {home.catalog}\nreport: {home.report_dir / 'index.html'}")
    return 0 if not log.failures else 1


def update(home: Home) -> int:
    log = run_update(home, _echo)
    for line in log.lines():
        print(line)
    return 0 if not log.failures else 1


def corpus_ingest(home: Home, paths: list[Path]) -> int:
    from dagster import AssetKey

    from corpus.sources import save_source_list, source_for_path, sources_for
    from pipelines.observe import observe
    from pipelines.runner import instance_for, run_partition
    from warehouse.catalog import build_catalog

    missing = [p for p in paths if not p.exists()]
    if missing:
        raise Refused(f"{missing[0]}: no such file or folder")
    wanted = [source_for_path(p) for p in paths]
    existing = sources_for(home.sources_file, home.inbox)
    save_source_list(home.sources_file, existing, wanted)
    lake = Lake(home.lake)
    lake.ensure_schemas()
    instance = instance_for(home)
    observe(instance, home, lake)
    totals = {"added": 0, "changed": 0, "unchanged": 0, "failed": 0, "units_added": 0}
    failed_runs = 0
    for source in wanted:
        result: Any = run_partition(instance, [AssetKey("corpus")], source.name)
        if not result.success:
            failed_runs += 1
        for event in result.get_asset_materialization_events():
            meta = event.materialization.metadata
            counts = {k: int(meta[k].value) for k in totals if k in meta}
            for key, value in counts.items():
                totals[key] += value
            print(f"{source.path}: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in counts.items()))
            if counts.get("failed"):
                print(str(meta["errors"].value), file=sys.stderr)
    build_catalog(home.catalog, lake)
    print(f"documents added {totals['added']}, changed {totals['changed']}, unchanged {totals['unchanged']}, "
          f"failed {totals['failed']}; units added {totals['units_added']}")
    return 1 if failed_runs else 0


def corpus_show(home: Home, citation: str, jurisdiction: str) -> int:
    import pyarrow.compute as pc

    from citations import extract, resolve

    found = extract(citation, jurisdiction)  # type: ignore[arg-type]
    if not found:
        raise Refused(f"{citation!r} is not a citation Etalon recognises (expected e.g. 'ст. 1152 ГК РФ' or "
                      "'art. 1.272 C.civ.')")
    lake = Lake(home.lake)
    documents, units_table, lookup = actions.corpus_index(lake)
    if not documents.num_rows:
        raise Refused(f"{citation}: the warehouse at {home.root} holds no corpus yet: run `etalon corpus ingest PATH` "
                      "or `etalon update` first (or point --home / ETALON_HOME at your warehouse)")
    resolution = resolve(found[:1], lookup)[0]
    if resolution.status != "found" or not resolution.doc_id:
        raise Refused(f"{citation}: {resolution.status}: {resolution.reason}")
    doc_id, path = resolution.doc_id, resolution.unit_path or ""
    units = units_table.filter(pc.equal(units_table["doc_id"], doc_id)).to_pylist()
    if not path:  # a whole act or decision: its title, then its text, top-level unit by top-level unit
        title = next((d["title"] for d in documents.filter(pc.equal(documents["doc_id"], doc_id)).to_pylist()), "")
        top = sorted((u for u in units if "/" not in u["path"]), key=lambda u: u["ord"])
        print(f"{resolution.citation.act or resolution.citation.court or ''} [{doc_id}] {title}".strip())
        for unit in top[:_WHOLE_SHOWN]:
            print(unit["text"])
        if len(top) > _WHOLE_SHOWN:
            print(f"… and {len(top) - _WHOLE_SHOWN} more of its {len(top)} top-level units "
                  f"(cite one to see it, e.g. its first: {top[0]['path']})")
        return 0
    hits = [u for u in units if u["path"] == path]
    if not hits:
        raise Refused(f"{citation}: found in {doc_id} but its text is not stored")
    unit = hits[0]
    heading = f" — {unit['heading']}" if unit.get("heading") else ""
    print(f"{resolution.citation.act or resolution.citation.court} {path}{heading}  [{doc_id}]")
    print(unit["text"])
    return 0


_WHOLE_SHOWN = 20  # a whole decision prints in full; a whole code would print thousands of articles


def evaluate(home: Home, codes: list[str], systems: list[str], stages: list[str]) -> int:
    """Re-evaluate chosen cells from the given stage on, whatever automation thinks is current."""
    from dagster import AssetKey

    from pipelines.observe import observe
    from pipelines.partitions import CELLS
    from pipelines.runner import RunLog, execute, instance_for, settle
    from warehouse.catalog import build_catalog

    lake = Lake(home.lake)
    instance = instance_for(home)
    observe(instance, home, lake)
    cells = [k for k in CELLS.get_partition_keys(dynamic_partitions_store=instance)
             if (not codes or k.split("|")[0] in codes) and (not systems or k.split("|")[1] in systems)]
    if not cells:
        raise Refused("no cell matches: check the etalon codes and system ids (run `etalon update` first)")
    order = ["answers", "citations", "judgments", "scores"]
    chosen = order[order.index(stages[0]):] if stages else ["scores"]
    log = RunLog()
    execute(instance, {AssetKey(a): set(cells) for a in chosen}, log, _echo)
    settle(instance, log, _echo)  # what depends on the re-evaluated cells (analytics, report)
    build_catalog(home.catalog, lake)
    for line in log.lines():
        print(line)
    return 0 if not log.failures else 1


def cite(home: Home, file: Path | None, jurisdiction: str, with_status: bool) -> int:
    from citations import extract, resolve

    text = _read_text(file) if file else sys.stdin.buffer.read().decode("utf-8")  # CRLF kept: offsets as sent
    found = extract(text, jurisdiction)  # type: ignore[arg-type]
    if not with_status:
        print_json_lines([c.to_record() for c in found])
        return 0
    documents, _, lookup = actions.corpus_index(Lake(home.lake))
    if not documents.num_rows:
        _echo(f"warning: the warehouse at {home.root} holds no corpus yet, so no citation can be found "
              "(run `etalon corpus ingest PATH`, or point --home / ETALON_HOME at your warehouse)")
    print_json_lines([r.citation.to_record(status=r.status) for r in resolve(found, lookup)])
    return 0


def _read_text(file: Path) -> str:
    """An answer file as text, or a refusal naming the file and what was expected of it.

    Newlines are kept as written (CRLF stays two characters): citation offsets index the file's own text."""
    try:
        return file.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise Refused(f"{file}: no such file") from None
    except UnicodeDecodeError as exc:
        raise Refused(f"{file}: not UTF-8 text ({exc.reason} at byte {exc.start}); save the answer as UTF-8") from None
    except OSError as exc:
        raise Refused(f"{file}: cannot be read ({exc.strerror})") from None


def sign(home: Home, code: str, by: str) -> int:
    version = actions.sign(home, code, by)
    print(f"signed {code} version {version} by {by}")
    return 0


def answers_import(home: Home, file: Path, system: str, update: bool) -> int:
    summary = actions.import_answers(home, file, system)
    for error in summary.errors:
        print(error, file=sys.stderr)
    print(f"imported {summary.imported} answer(s) for {system}; {len(summary.errors)} line(s) rejected")
    if summary.imported and update:
        log = run_update(home, _echo)
        for line in log.lines():
            _echo(line)
    return 0 if summary.imported or not summary.errors else 1


def review_list(home: Home, as_json: bool) -> int:
    items = actions.review_items(Lake(home.lake))
    if as_json:
        print_json_lines([{**i, "options": json.loads(i["options"])} for i in items])
        return 0
    for i in items:
        print(f"{i['id']}\t{i['system']}\t{i['code']}\t{i['version']}\t{i['attempt']}\t{i['target']}\t"
              f"{i['why']}\t[{'|'.join(json.loads(i['options']))}]")
    if not items:
        print("nothing needs a decision", file=sys.stderr)
    return 0


def _rescore(home: Home) -> RunLog:
    return run_update(home, _echo)


def review_decide(home: Home, item_id: str, value: str, by: str, note: str | None) -> int:
    decision_id = actions.decide(home, item_id, value, by, note)
    _rescore(home)
    print(decision_id)
    return 0


def review_undo(home: Home, decision_id: str, by: str) -> int:
    actions.undo(home, decision_id, by)
    _rescore(home)
    print(f"undone {decision_id}")
    return 0


def review_approve(home: Home, system: str, code: str, by: str) -> int:
    n = actions.approve(home, system, code, by)
    _rescore(home)
    print(f"approved {n} answer(s) of {system} on {code}")
    return 0

"""`etalon corpus ingest` and `etalon corpus sources list|remove`: the corpus sources a person registers.

A path given to `ingest` becomes a source in the sources file, read again by every update. A source that gave
nothing would sit there for ever, failing on every update, so one is not kept: an empty folder is not
registered at all (a warning says so), and a newly given path that yielded no document is taken out of the list
again after the attempt, with the reason of every file that failed (from corpus.ingest_errors, where the rows
stay as the record of the attempt). A source registered before that yields nothing now stays registered —
someone put it there — and the command says so loudly. Any of these exits 1, after the other paths are done.

Removing a source edits the list only: its documents leave the current corpus at the next `etalon update` or
`etalon corpus ingest` (the update records the configured sources, and the corpus views and the engine read
only those); their versions stay in the lake (corpus.document_versions).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from app.actions import Refused
from warehouse.home import Home
from warehouse.lake import Lake

COUNTS = ("added", "changed", "unchanged", "failed", "units_added")


def _err(message: str) -> None:
    print(message, file=sys.stderr)


def _files(path: Path) -> int:
    """Files an ingest of the path would read (the count shown while it runs; an empty folder has none)."""
    from corpus.ingest import SKIP_NAMES, source_files

    if not path.is_dir():
        return 1
    files, outside = source_files(path)
    return sum(1 for f in files if not SKIP_NAMES.match(f.name)) + len(outside)


def _errors(lake: Lake, source: str) -> list[str]:
    """Each failed file of a source with its reason and the detail, as corpus.ingest_errors holds them."""
    rows = lake.read("ingest_errors", source).to_pylist()
    out = []
    for r in rows:
        where = f" at {r['position']}" if r.get("position") else ""
        detail = f": {r['detail']}" if r.get("detail") else ""
        out.append(f"{r['file']}: {r['reason']}{detail}{where}")
    return out


def ingest(home: Home, paths: Sequence[Path], sample: bool = False, follow: bool = True) -> int:
    """Register and read the paths (and the embedded sample when asked); then, with `follow`, bring the rest of the
    warehouse up to date with the new corpus, as `etalon update` would: citations re-resolved where a cited unit
    changed, and signed etalons whose cited text changed flagged for re-confirmation, before the command returns."""
    from app.cli_commands import finish
    from app.progress import progress
    from app.runner import update
    from corpus.sources import (
        SAMPLE,
        adopt_legacy_sample,
        free_name,
        sample_source,
        save_source_list,
        source_for_path,
        sources_for,
    )
    from evaluation.engine.world import World

    missing = [p for p in paths if not p.exists()]
    present = [p for p in paths if p.exists()]
    if not present and not sample:
        raise Refused(f"{missing[0]}: no such file or folder")
    shortfalls: list[str] = []
    details = [f"{p}: no such file or folder" for p in missing]
    empty = [p for p in present if p.is_dir() and _files(p) == 0]
    for p in empty:
        _err(f"warning: {p}: an empty folder (no file to read in it): not registered as a source")
    details += [f"{p}: empty folder, not registered" for p in empty]
    chosen = [p for p in present if p not in empty]
    wanted = [source_for_path(p) for p in chosen]
    lake = Lake(home.lake)
    adopted = adopt_legacy_sample(home.sources_file, lake.stat("corpus_documents", SAMPLE) is not None)
    if adopted:
        _err(f"note: {adopted}")
    existing = sources_for(home.sources_file, home.inbox)
    known = {s.name for s in existing}
    if sample:   # asked for by name: the one registered already, or the embedded sample under a free name
        listed = next((s for s in existing if s.kind == "sample"), None)
        wanted.append(listed or sample_source(free_name(SAMPLE, known)))
    log = None
    if wanted:
        save_source_list(home.sources_file, existing, wanted)
        files = sum(_files(s.path) for s in wanted if s.path is not None)
        with progress(1, "corpus") as bar:
            bar.step(f"reading {files} file(s) from {len(wanted)} source(s)")
            log = update(home, _corpus_only(bar.echo, str(home.sources_file)), groups=("corpus",), progress=bar)
    index = World.open(home).index
    totals = dict.fromkeys(COUNTS, 0)
    dropped = []
    for source in wanted:
        entry = index.get("corpus", source.name)
        meta: dict[str, Any] = dict(entry.meta) if entry is not None else {}
        counts = {k: int(meta.get(k, 0)) for k in COUNTS}
        for key, value in counts.items():
            totals[key] += value
        print(f"{source.path}: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in counts.items()))
        errors = _errors(lake, source.name)
        for error in errors:
            _err(f"  {error}")
        details += errors
        if counts["added"] + counts["changed"] + counts["unchanged"] == 0:
            if source.name in known:
                _err(f"warning: {source.path}: the registered source {source.name} yields no document now; it "
                     f"stays registered (`etalon corpus sources remove {source.name}` removes it)")
                details.append(f"{source.path}: registered source {source.name} yields no document")
            else:
                dropped.append(source)
                _err(f"{source.path}: yielded no document, so it is not registered as a source; fix the "
                     "file(s) above and ingest again")
    if dropped:
        names = {s.name for s in dropped}
        remaining = [s for s in sources_for(home.sources_file, home.inbox) if s.name not in names]
        save_source_list(home.sources_file, remaining, [])
        details += [f"{s.path}: yielded no document, not registered" for s in dropped]
    print(f"documents added {totals['added']}, changed {totals['changed']}, unchanged {totals['unchanged']}, "
          f"failed {totals['failed']}; units added {totals['units_added']}")
    if wanted:
        for line in precedence_lines(home, lake, {s.name for s in wanted}):
            print(line)
    shortfalls += [f"{n} {what}" for n, what in (
        (len(missing), "path(s) not found"), (len(empty), "empty folder(s) not registered"),
        (totals["failed"], "file(s) failed"), (len(dropped), "path(s) that yielded no document, not registered"))
        if n]
    if log is not None:
        # Only the corpus was asked for: etalon or systems files that do not load (a folder with no etalons at
        # all, where a corpus is ingested first) are for `etalon update` to report, not a failed ingest.
        log.problems = [p for p in log.problems if str(home.sources_file) in p]
        log.corpus_errors = []   # the given paths' failures are counted above, with their detail
        shortfalls += log.shortfalls()
        details += log.problems + log.failures
        if follow and _has_etalons(home):
            rest = _follow_up(home)
            shortfalls += rest.shortfalls()
            details += rest.failures
    return finish("corpus ingest", shortfalls, details)


def _corpus_only(echo: Callable[[str], None], sources_file: str) -> Callable[[str], None]:
    """The corpus pass's lines, without input problems of the etalons or systems (the follow-up update, or the
    next `etalon update`, reports those; a folder with no etalons yet is no problem of an ingest)."""
    def said(line: str) -> None:
        if not line.startswith("input problem:") or sources_file in line:
            echo(line)

    return said


_FETCH = ("fetch.fetched", "fetch.new", "fetch.changed", "fetch.unchanged", "fetch.failed", "fetch.requests")


def refresh(home: Home, names: Sequence[str], follow: bool = True) -> int:
    """Fetch the remote sources (all, or those named) now, through Dagster as the nightly schedule does: each
    asks only for what changed (conditional requests, a SOAP search by date), its mirror is read, and then, with
    `follow`, the rest of the warehouse is brought up to date (signatures whose cited text changed flagged)."""
    from app.cli_commands import finish
    from app.runner import RunLog, instance_for, run_group
    from corpus.sources import sources_for
    from evaluation.engine.run import InputsMissing, prelude
    from evaluation.engine.world import World
    from pipelines.journal import flush
    from pipelines.observe import observe

    every = sources_for(home.sources_file, home.inbox)
    remote = [s for s in every if s.remote]
    unknown = [n for n in names if n not in {s.name for s in remote}]
    if unknown:
        raise Refused(f"{unknown[0]}: no remote source of that name; remote sources: "
                      f"{', '.join(s.name for s in remote) or 'none'}")
    chosen = [s for s in remote if not names or s.name in names]
    if not chosen:
        print("no remote source is registered: nothing to fetch")
        return 0
    instance = instance_for(home)
    flush(instance, home)
    world = World.open(home)
    with contextlib.suppress(InputsMissing):   # etalons or systems missing: the corpus is fetched all the same
        prelude(world)
    observe(instance, world)
    log = RunLog()
    run_group(instance, home, "corpus", [s.name for s in chosen], {}, log, _err, force={"corpus": True})
    index = World.open(home).index
    lake = Lake(home.lake)
    details: list[str] = list(log.failures)
    failed = 0
    for source in chosen:
        entry = index.get("corpus", source.name)
        meta: dict[str, Any] = dict(entry.meta) if entry is not None else {}
        got = {k: int(meta.get(k, 0)) for k in _FETCH}
        failed += got["fetch.failed"]
        print(f"{source.name}: fetched {got['fetch.fetched']} (new {got['fetch.new']}, changed "
              f"{got['fetch.changed']}), unchanged {got['fetch.unchanged']}, failed {got['fetch.failed']}; "
              f"{got['fetch.requests']} request(s); documents " + ", ".join(
                  f"{k} {int(meta.get(k, 0))}" for k in ("added", "changed", "unchanged", "failed")))
        errors = _errors(lake, source.name)
        for error in errors:
            _err(f"  {error}")
        details += errors
    shortfalls = [f"{n} {what}" for n, what in ((failed, "document(s) not fetched (the mirror keeps the last "
                                                 "copy; corpus.ingest_errors)"),) if n] + log.shortfalls()
    if follow and _has_etalons(home) and not log.failures:
        rest = _follow_up(home)
        shortfalls += rest.shortfalls()
        details += rest.failures
    return finish("corpus refresh", shortfalls, details)


def _has_etalons(home: Home) -> bool:
    """Whether there is anything beyond the corpus to bring up to date (a corpus-first folder has no etalons)."""
    return home.etalons_dir.is_dir() or bool(Lake(home.lake).files("etalon_versions"))


def _follow_up(home: Home) -> Any:
    """The rest of an update after the corpus changed, with what it changed for people. Its input problems (etalon
    files that do not load) are `etalon update`'s to report and fail on, not the ingest's."""
    from app.cli_commands import _echo, _groups, _people
    from app.consequences import snapshot
    from app.progress import progress
    from app.runner import update

    before = snapshot(Lake(home.lake))
    with progress(_groups(), "update") as bar:
        def quiet(line: str) -> None:
            if not line.startswith("input problem:"):
                bar.echo(line)

        rest = update(home, quiet, groups=("etalons", "cells", "analytics", "report"), progress=bar)
    for line in rest.lines():
        _echo(line)
    _people(home, before, _echo)
    if rest.problems:
        _err(f"note: {len(rest.problems)} input problem(s) outside the corpus; `etalon update` lists them")
    rest.problems = []
    return rest


_SHOWN = 20  # lines per kind of outcome; corpus.copies lists every copy


def precedence_lines(home: Home, lake: Lake, names: set[str]) -> list[str]:
    """What the given sources' documents superseded, or why they are shadowed (corpus.precedence decides): a
    document another source also holds is never just "added" with nothing visible."""
    from corpus.precedence import why
    from corpus.sources import sources_for
    from corpus.store import outcomes

    configured = {s.name: s.rank for s in sources_for(home.sources_file, home.inbox)}
    supersedes: list[str] = []
    shadowed: list[str] = []
    for doc_id, outcome in sorted(outcomes(lake, configured).items()):
        winner = outcome.current
        if winner.source in names:
            others = [c for c in outcome.shadowed if c.source != winner.source]
            if others:
                supersedes.append(f"  {doc_id}: current from {winner.source}; it supersedes the copy in "
                                  + "; ".join(f"{c.source} ({why(winner, c)})" for c in others))
        for loser in outcome.shadowed:
            if loser.source in names and loser.source != winner.source:
                shadowed.append(f"  {doc_id}: the copy in {loser.source} is shadowed by the copy in {winner.source} "
                                f"({why(winner, loser)}); it stays in corpus.document_versions")
    out: list[str] = []
    for title, lines in (("supersede another source's copy", supersedes),
                         ("are shadowed by another source's copy", shadowed)):
        if lines:
            out.append(f"{len(lines)} document(s) {title}:")
            out += lines[:_SHOWN]
            if len(lines) > _SHOWN:
                out.append(f"  … and {len(lines) - _SHOWN} more (corpus.copies lists every copy and its rank)")
    return out


def sources_list(home: Home) -> int:
    """One line per source: name, kind, location, current documents, files that failed at the last reading."""
    from corpus.sources import sources_for
    from corpus.store import outcomes
    from evaluation.engine.world import World

    sources = sources_for(home.sources_file, home.inbox)
    index = World.open(home).index
    lake = Lake(home.lake)
    if not home.sources_file.exists():
        _err(f"no sources file at {home.sources_file}: no corpus source is registered but the inbox "
             "(`etalon corpus ingest PATH` registers one; `etalon demo` registers the embedded sample)")
    shadowed: dict[str, int] = {}
    for outcome in outcomes(lake, {s.name: s.rank for s in sources}).values():
        for loser in outcome.shadowed:
            if loser.source != outcome.current.source:
                shadowed[loser.source] = shadowed.get(loser.source, 0) + 1
    for s in sources:
        docs = lake.read("corpus_documents", s.name)
        current = sum(1 for v in docs.column("is_current").to_pylist() if v) if docs.num_rows else 0
        failed = lake.read("ingest_errors", s.name).num_rows
        entry = index.get("corpus", s.name)
        when = f"read {entry.computed_at}" if entry is not None else "not read yet"
        hidden = f" ({shadowed[s.name]} shadowed by another source)" if shadowed.get(s.name) else ""
        print(f"{s.name}\t{s.kind}\t{s.location}\t{current} document(s){hidden}\t{failed} failed\t{when}"
              f"\tpriority {s.rank}")
    return 0


def sources_remove(home: Home, name: str) -> int:
    from corpus.sources import INBOX, save_source_list, sources_for

    sources = sources_for(home.sources_file, home.inbox)
    if name == INBOX:
        raise Refused(f"the inbox is always a source: remove the files from {home.inbox} instead")
    if name not in {s.name for s in sources}:
        names = ", ".join(s.name for s in sources if s.name != INBOX) or "none"
        raise Refused(f"no corpus source {name!r} (registered: {names}; `etalon corpus sources list`)")
    save_source_list(home.sources_file, [s for s in sources if s.name != name], [])
    docs = Lake(home.lake).read("corpus_documents", name)
    current = sum(1 for v in docs.column("is_current").to_pylist() if v) if docs.num_rows else 0
    print(f"removed source {name} from {home.sources_file}: its {current} document(s) leave the corpus at the next "
          "`etalon update` (their versions stay in corpus.document_versions)")
    return 0

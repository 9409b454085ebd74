"""The bodies of the `etalon` commands: thin calls into the runner and the actions.

Dagster is imported by the commands that run it, not by this module: `etalon cite` and `etalon corpus show`
answer in about half a second instead of paying a second of Dagster's imports on every call.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app import actions
from app.actions import Refused
from app.cli import print_json_lines
from warehouse.home import Home
from warehouse.lake import Lake

if TYPE_CHECKING:
    from app.runner import RunLog


def run_update(home: Home, echo: Any, progress: Any = None) -> RunLog:
    from app.runner import update

    return update(home, echo, progress=progress)


def _echo(message: str) -> None:
    print(message, file=sys.stderr)


def _groups() -> int:
    from evaluation.engine.stages import GROUPS

    return len(GROUPS)


def finish(command: str, shortfalls: Sequence[str], details: Sequence[str] = ()) -> int:
    """The exit status of a command that went on after a problem: 1, with a summary as its last stderr lines."""
    if not shortfalls:
        return 0
    _echo(f"etalon {command}: done, but not all of it: {'; '.join(shortfalls)}")
    for line in list(details)[:_DETAILS]:
        _echo(f"  {line}")
    if len(details) > _DETAILS:
        _echo(f"  … and {len(details) - _DETAILS} more")
    return 1


_DETAILS = 20


def _people(home: Home, before: Any, out: Any = print, ran: bool = True) -> None:
    """What the update changed for people (signatures, decisions, verdicts) and what waits for them; an update
    that ran nothing changed nothing, so the warehouse is not read a second time. The state it ends in is kept
    for the next update that finds nothing to do (app.consequences.kept)."""
    from app.consequences import keep, report, taken

    after = taken(home) if ran else before
    if ran:   # (an update that ran nothing may still have stored inputs since `before` was read)
        keep(home, after)
    for line in report(before, after):
        out(line)


def _before(home: Home) -> Any:
    from app.consequences import taken

    return taken(home)


def demo(home: Home) -> int:
    from app.demo import leaderboard_text, run_demo
    from app.progress import progress

    before = _before(home)
    with progress(_groups() + 2, "demo") as bar:
        log = run_demo(home.root, bar.echo, progress=bar)
    for line in log.lines():
        _echo(line)
    _people(home, before, _echo)
    print(leaderboard_text(home))
    print(f"\nwarehouse: {home.catalog}\nreport: {home.report_dir / 'index.html'}")
    return finish("demo", log.shortfalls(), log.problems + log.corpus_errors + log.failures)


def update(home: Home) -> int:
    from app.progress import progress
    from app.settled import settled

    problems = settled(home)
    if problems is not None:
        return _nothing_to_do(home, problems)
    before = _before(home)
    with progress(_groups(), "update") as bar:
        log = run_update(home, bar.echo, progress=bar)
    for line in log.lines():
        print(line)
    _people(home, before, ran=log.runs > 0)
    return finish("update", log.shortfalls(), log.problems + log.corpus_errors + log.failures)


def _nothing_to_do(home: Home, problems: list[str]) -> int:
    """What `update` prints when it would change nothing: the same lines, without Dagster or a new snapshot."""
    from app.consequences import keep, kept, report
    from app.runlog import RunLog

    log = RunLog(problems=problems)
    for problem in problems:
        _echo(f"input problem: {problem}")
    for line in log.lines():
        print(line)
    before = kept(home)
    if before is None:   # nothing will be written: the state read now is the state to keep
        before = _before(home)
        keep(home, before)
    for line in report(before, before):
        print(line)
    return finish("update", log.shortfalls(), log.problems)


def corpus_ingest(home: Home, paths: list[Path], sample: bool = False, update: bool = True) -> int:
    from app.corpus_commands import ingest

    return ingest(home, paths, sample=sample, follow=update)


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
    document: dict[str, Any] = next(iter(documents.filter(pc.equal(documents["doc_id"], doc_id)).to_pylist()), {})
    where = _read_from(lake, document)
    if not path:  # a whole act or decision: its title, then its text, top-level unit by top-level unit
        title = document.get("title") or ""
        top = sorted((u for u in units if "/" not in u["path"]), key=lambda u: u["ord"])
        print(f"{resolution.citation.act or resolution.citation.court or ''} {where} {title}".strip())
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
    print(f"{resolution.citation.act or resolution.citation.court} {path}{heading}  {where}")
    print(unit["text"])
    for line in _other_copies(lake, doc_id):
        print(line, file=sys.stderr)
    return 0


def _read_from(lake: Lake, document: dict[str, Any]) -> str:
    """Which copy `corpus show` read: the document, its source and the edition it states."""
    edition = f", edition {document['edition']}" if document.get("edition") else ""
    return f"[{document.get('doc_id')}] (source {document.get('source')}{edition})"


def _other_copies(lake: Lake, doc_id: str) -> list[str]:
    """The copies of the document other sources hold, shadowed by the one shown, and why."""
    from corpus.precedence import why
    from corpus.store import outcomes

    outcome = outcomes(lake).get(doc_id)
    if outcome is None:
        return []
    return [f"also held by source {c.source} ({c.version}), shadowed: {why(outcome.current, c)}"
            for c in outcome.shadowed if c.source != outcome.current.source]


_WHOLE_SHOWN = 20  # a whole decision prints in full; a whole code would print thousands of articles


def evaluate(home: Home, codes: list[str], systems: list[str], stages: list[str]) -> int:
    """Re-evaluate chosen cells from the given stage on, whatever is current."""
    from app.runner import evaluate as run_evaluate

    before = _before(home)
    log = run_evaluate(home, codes, systems, stages, _echo)
    for line in log.lines():
        print(line)
    _people(home, before)
    return finish("evaluate", log.shortfalls(), log.problems + log.corpus_errors + log.failures)


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
    before = _before(home) if update else None
    summary = actions.import_answers(home, file, system)
    for error in summary.errors:
        print(error, file=sys.stderr)
    print(f"imported {summary.imported} answer(s) for {system}; {len(summary.errors)} line(s) rejected")
    shortfalls = [f"{len(summary.errors)} line(s) of {file} rejected"] if summary.errors else []
    details = list(summary.errors)
    if summary.imported and update:
        from app.progress import progress

        with progress(_groups(), "update") as bar:
            log = run_update(home, bar.echo, progress=bar)
        for line in log.lines():
            _echo(line)
        _people(home, before, _echo)
        shortfalls += log.shortfalls()
        details += log.problems + log.corpus_errors + log.failures
    return finish("answers import", shortfalls, details)


def status(home: Home) -> int:
    from app.overview import status as lines

    for line in lines(home):
        print(line)
    return 0


def show(home: Home, code: str) -> int:
    from app.overview import show as lines

    for line in lines(home, code):
        print(line)
    return 0


def review_list(home: Home, as_json: bool) -> int:
    lake = Lake(home.lake)
    items = actions.review_items(lake) + actions.signatures_to_reconfirm(lake)
    if as_json:
        print_json_lines([{**i, "options": json.loads(i["options"])} for i in items])
        return 0
    for i in items:
        print(f"{i['id']}\t{i['system']}\t{i['code']}\t{i['version']}\t{i['attempt']}\t{i['target']}\t"
              f"{i['why']}\t[{'|'.join(json.loads(i['options']))}]")
    if not items:
        print("nothing needs a decision", file=sys.stderr)
    return 0


def review_decide(home: Home, item_id: str, value: str, by: str, note: str | None) -> int:
    messages: list[str] = []
    decision_id = actions.decide(home, item_id, value, by, note, messages=messages)
    for message in messages:
        print(message)
    print(decision_id)
    return 0


def review_disagree(home: Home, item_id: str, by: str, note: str) -> int:
    decision_id = actions.disagree(home, item_id, by, note)
    print("disagreement recorded: the element is open again until someone decides it")
    print(decision_id)
    return 0


def review_undo(home: Home, decision_id: str, by: str) -> int:
    actions.undo(home, decision_id, by)
    print(f"undone {decision_id}")
    return 0


def review_approve(home: Home, system: str, code: str, by: str) -> int:
    n = actions.approve(home, system, code, by)
    print(f"approved {n} answer(s) of {system} on {code}")
    return 0

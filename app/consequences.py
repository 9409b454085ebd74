"""What an update changed for people: signatures revoked, decisions set aside, verdicts changed, cells waiting.

The engine records what it recomputed (partitions, rows, digests), not what that means for the lawyer who
signed an etalon or the reviewer whose decisions named its old version. So the command takes a snapshot of the
few catalog views people act on (bench.etalons, eval.decisions, eval.scores, eval.answers, eval.review) before
and after, and says the difference in sentences. The snapshot reads the same views analysts read, in an
in-memory catalog, so it agrees with what a query would show.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from warehouse.lake import Lake

SHOWN = 5   # items named per kind of change; the rest are counted

EtalonKey = tuple[str, str]              # benchmark, code
CellKey = tuple[str, str, str, int]      # system, benchmark, code, attempt


@dataclass(frozen=True)
class EtalonState:
    version: str
    status: str
    signed_by: str | None
    question_version: str | None
    rubric_version: str | None
    corpus_changed: bool


@dataclass(frozen=True)
class Decision:
    system: str
    benchmark: str
    code: str
    version: str
    attempt: int
    target: str
    decided_by: str


@dataclass
class Snapshot:
    """The state people act on, as the catalog shows it at one moment."""

    etalons: dict[EtalonKey, EtalonState] = field(default_factory=dict)
    scores: dict[CellKey, tuple[str, str | None, str]] = field(default_factory=dict)  # version, verdict, status
    decisions: dict[str, Decision] = field(default_factory=dict)   # decision_id -> in force on a current cell
    systems: set[str] = field(default_factory=set)
    waiting_answers: list[tuple[str, str, str]] = field(default_factory=list)   # system, benchmark, code
    review: int = 0
    read_from: dict[str, str] = field(default_factory=dict)   # doc_id -> the source whose copy is current
    key: str | None = field(default=None, compare=False)   # kept_key as it was when the views were read


def snapshot(lake: Lake) -> Snapshot:
    """Read the views; a warehouse with nothing in it yet is an empty snapshot, never an error."""
    if not lake.files("etalon_versions"):
        # No etalon stored (a new warehouse: `etalon demo` on a fresh home): every view read below is empty
        # but the systems, which a DuckDB catalog is not needed to read.
        return Snapshot(systems={r["id"] for r in lake.read("systems").to_pylist()})
    import duckdb

    from warehouse.catalog import memory_catalog

    try:
        con = memory_catalog(lake)
    except (duckdb.Error, OSError):
        return Snapshot()
    try:
        return _read(con)
    except duckdb.Error:
        return Snapshot()
    finally:
        con.close()


def taken(home: Any) -> Snapshot:
    """The snapshot of a warehouse, with the key it may be kept under (read first: see kept_key)."""
    key = kept_key(home)
    snap = snapshot(Lake(home.lake))
    snap.key = key
    return snap


def _rows(con: Any, sql: str) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = con.execute(sql).fetchall()
    return rows


def _read(con: Any) -> Snapshot:
    snap = Snapshot()
    for b, code, version, status, signed_by, qv, rv, changed in _rows(con, """
            SELECT benchmark, code, version, status, signed_by, question_version, rubric_version, corpus_changed
            FROM bench.etalons"""):
        snap.etalons[(b, code)] = EtalonState(version, status, signed_by, qv, rv, bool(changed))
    snap.systems = {r[0] for r in _rows(con, "SELECT id FROM raw.systems")}
    for system, b, code, attempt, version, verdict, status in _rows(con, """
            SELECT system, benchmark, code, attempt, version, verdict, status FROM eval.scores WHERE is_current"""):
        snap.scores[(system, b, code, int(attempt))] = (version, verdict, status)
    for did, system, b, code, version, attempt, target, by in _rows(con, """
            SELECT d.decision_id, d.system, d.benchmark, d.code, d.version, d.attempt, d.target, d.decided_by
            FROM eval.decisions d
            JOIN bench.etalons e ON e.benchmark = d.benchmark AND e.code = d.code AND e.version = d.version
            WHERE d.revoked_at IS NULL AND e.status <> 'archived'
              AND d.system IN (SELECT id FROM raw.systems)"""):
        snap.decisions[did] = Decision(system, b, code, version, int(attempt), target, by)
    snap.waiting_answers = [(s, b, c) for s, b, c in _rows(con, """
            SELECT y.id, e.benchmark, e.code FROM bench.etalons e CROSS JOIN raw.systems y
            WHERE e.status <> 'archived' AND NOT EXISTS (
                SELECT 1 FROM eval.answers a WHERE a.system = y.id AND a.benchmark = e.benchmark
                AND a.code = e.code AND a.version = e.version)
            ORDER BY y.id, e.benchmark, e.code""")]
    snap.review = int(_rows(con, "SELECT count(*) FROM eval.review")[0][0])
    snap.read_from = {str(d): str(s) for d, s in _rows(con, "SELECT doc_id, source FROM corpus.documents")}
    return snap


def _what_changed(old: EtalonState, new: EtalonState | None) -> str:
    """Why an etalon's old version no longer applies, in the words a lawyer uses."""
    if new is None or new.status == "archived":
        return "its file was removed (archived)"
    parts = [name for name, a, b in (("question", old.question_version, new.question_version),
                                     ("rubric", old.rubric_version, new.rubric_version)) if a != b]
    what = " and ".join(parts) if parts else "text"
    return f"its {what} changed (now version {new.version})"


def _listed(items: list[str]) -> list[str]:
    shown = [f"  - {i}" for i in items[:SHOWN]]
    if len(items) > SHOWN:
        shown.append(f"  … and {len(items) - SHOWN} more")
    return shown


def _cell(key: CellKey) -> str:
    system, _, code, attempt = key
    return f"{system} on {code}" + (f" (attempt {attempt})" if attempt != 1 else "")


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """The differences, in sentences, most consequential first; empty when nothing changed for anyone."""
    out: list[str] = []
    revoked, flagged = [], []
    for key, old in sorted(before.etalons.items()):
        new = after.etalons.get(key)
        if old.status == "signed" and (new is None or new.version != old.version or new.status != "signed"):
            again = "" if new is None or new.status == "archived" else f"; `etalon sign {key[1]}` signs it again"
            revoked.append(f"{key[1]}: signed by {old.signed_by} on version {old.version}, no longer applies: "
                           f"{_what_changed(old, new)}{again}")
        if new is not None and new.corpus_changed and not old.corpus_changed:
            flagged.append(f"{key[1]}: a text it cites changed in the corpus; its signature waits for "
                           f"re-confirmation (`etalon sign {key[1]}`)")
    if revoked:
        out += [f"signatures revoked: {len(revoked)}", *_listed(revoked)]
    if flagged:
        out += [f"signatures to re-confirm: {len(flagged)}", *_listed(flagged)]
    out += _decisions(before, after)
    out += _verdicts(before, after)
    out += _sources(before, after)
    return out


def _sources(before: Snapshot, after: Snapshot) -> list[str]:
    """Documents whose current copy now comes from another source (corpus.precedence chose again): what the
    citations of every etalon and answer resolve against changed side."""
    moved = [f"{doc_id}: now read from {after.read_from[doc_id]} (was {source})"
             for doc_id, source in sorted(before.read_from.items())
             if doc_id in after.read_from and after.read_from[doc_id] != source]
    return [f"documents now read from another source: {len(moved)}", *_listed(moved)] if moved else []


def _decisions(before: Snapshot, after: Snapshot) -> list[str]:
    groups: dict[tuple[str, str, str], list[Decision]] = defaultdict(list)
    for did, d in before.decisions.items():
        if did in after.decisions:
            continue
        if d.system not in after.systems:
            why = f"system {d.system} was removed from the systems file"
        else:
            old = before.etalons.get((d.benchmark, d.code))
            why = _what_changed(old, after.etalons.get((d.benchmark, d.code))) if old else "its etalon changed"
            why = f"they name version {d.version} of the etalon, and {why}"
        groups[(d.code, d.system, why)].append(d)
    if not groups:
        return []
    items = [f"{n} decision(s) by {', '.join(sorted({d.decided_by for d in ds}))} on {system}'s answer to {code} "
             f"({', '.join(sorted({d.target for d in ds}))}): {why}"
             for (code, system, why), ds in sorted(groups.items()) for n in [len(ds)]]
    return [f"decisions set aside: {sum(len(v) for v in groups.values())}", *_listed(items)]


def _verdicts(before: Snapshot, after: Snapshot) -> list[str]:
    out: list[str] = []
    flipped = []
    for key in sorted(set(before.scores) & set(after.scores)):
        (_, v0, s0), (_, v1, s1) = before.scores[key], after.scores[key]
        if (v0, s0) != (v1, s1):
            flipped.append(f"{_cell(key)}: {v0 or '—'} ({s0}) → {v1 or '—'} ({s1})")
    if flipped:
        out += [f"verdicts changed: {len(flipped)}", *_listed(flipped)]
    dropped = []
    for key in sorted(set(before.scores) - set(after.scores)):
        system, benchmark, code, _ = key
        old, new = before.etalons.get((benchmark, code)), after.etalons.get((benchmark, code))
        if system not in after.systems:
            why = "the system was removed from the systems file"
        elif new is None or new.status == "archived":
            why = "the etalon was archived"
        elif old is not None and old.question_version != new.question_version:
            why = "its answer belongs to an older question; the new one waits for an answer"
        else:
            why = f"the etalon is now version {new.version}"
        dropped.append(f"{_cell(key)}: {why}")
    if dropped:
        out += [f"scores dropped from the leaderboard: {len(dropped)}", *_listed(dropped)]
    new_scores = len(set(after.scores) - set(before.scores))
    if new_scores:
        out.append(f"answers scored for the first time: {new_scores}")
    return out


def waiting(after: Snapshot, before: Snapshot | None = None) -> list[str]:
    """What waits for people now (answers to import or ask for, decisions to take)."""
    out: list[str] = []
    if after.waiting_answers:
        new = set(after.waiting_answers) - set(before.waiting_answers if before else ())
        note = f" ({len(new)} new)" if before is not None and new else ""
        out += [f"cells waiting for answers: {len(after.waiting_answers)}{note}",
                *_listed([f"{s} on {c}" for s, _, c in after.waiting_answers])]
    if after.review:
        out.append(f"items waiting for a human decision: {after.review} (`etalon review list`)")
    return out


def report(before: Snapshot, after: Snapshot) -> list[str]:
    """The block printed after an update: what changed, then what waits."""
    changed = changes(before, after)
    head = "what changed for people:" if changed else "nothing changed for people"
    return [head, *(f"  {line}" for line in changed + waiting(after, before))]


# -- the last snapshot, kept for an update that finds nothing to do ---------------------------------------------
# An update that ran nothing changed nothing for anyone, but it still says what waits for people, which is
# a snapshot (half a second of DuckDB). The snapshot an update ends with is kept beside the warehouse under the
# digest of the engine's index: every recomputation, act and settle rewrites the index, so while it is the
# same file the views show the same state (app.settled takes the kept one only when nothing is to be done).

_KEPT = "people.json"
_KEPT_FORMAT = 1


def kept_key(home: Any) -> str | None:
    """Taken before the snapshot it keys: an act that lands in between then only makes the kept one unused."""
    import hashlib

    try:
        index = (home.root / "state" / "index.json").read_bytes()
    except OSError:
        return None
    return hashlib.sha256(b"%d\0" % _KEPT_FORMAT + index).hexdigest()


def keep(home: Any, snap: Snapshot) -> None:
    """Store the snapshot an update ended with, under the `kept_key` read before it was taken."""
    import json
    import os

    key = snap.key
    if key is None:
        return
    body = {"key": key,
            "etalons": [[list(k), list(v.__dict__.values())] for k, v in snap.etalons.items()],
            "scores": [[list(k), list(v)] for k, v in snap.scores.items()],
            "decisions": [[k, list(v.__dict__.values())] for k, v in snap.decisions.items()],
            "systems": sorted(snap.systems), "waiting_answers": [list(w) for w in snap.waiting_answers],
            "review": snap.review, "read_from": snap.read_from}
    path = home.root / "state" / _KEPT
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(body, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


def kept(home: Any) -> Snapshot | None:
    """The snapshot an update last ended with, while the engine's index is still the one it was taken with."""
    import json

    key = kept_key(home)
    try:
        body = json.loads((home.root / "state" / _KEPT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if key is None or not isinstance(body, dict) or body.get("key") != key:
        return None
    try:
        return Snapshot(
            etalons={(k[0], k[1]): EtalonState(*v) for k, v in body["etalons"]},
            scores={(k[0], k[1], k[2], int(k[3])): (v[0], v[1], v[2]) for k, v in body["scores"]},
            decisions={k: Decision(*v) for k, v in body["decisions"]},
            systems=set(body["systems"]),
            waiting_answers=[(w[0], w[1], w[2]) for w in body["waiting_answers"]],
            review=int(body["review"]), read_from=dict(body.get("read_from") or {}), key=key)
    except (KeyError, TypeError, ValueError, IndexError):
        return None

"""A source's local mirror and its cursor: what a run stored, where it stopped, what to send next time.

The mirror is ``$ETALON_HOME/sources/<name>``: the documents as the readers read them (HTML, JSON Lines, XML)
and one hidden file, ``.cursor.json``, rewritten atomically after every document or page a run stores. It holds
the validators of every URL (ETag / Last-Modified), each connector's high-water marks (the newest date seen), the
digest of the settings the mirror was fetched with, and the run under way: when it started and what it has
done. A run killed at any point (kill -9 included) leaves the documents it stored and a cursor that says so;
the next run resumes after them instead of asking for them again. Nothing here ever deletes a document: a
failed fetch leaves the mirror as it was.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from corpus.model import IngestError
from corpus.remote.http import FetchError, now_iso, write_atomic

CURSOR = ".cursor.json"


@dataclass(frozen=True)
class FetchResult:
    """What one fetch did: files written (`fetched`, of which `new` were not in the mirror before), files asked
    for and found unchanged, per-document errors, and the requests it sent (retries included)."""

    fetched: tuple[Path, ...]
    unchanged: tuple[Path, ...]
    errors: tuple[IngestError, ...] = field(default=())
    new: tuple[Path, ...] = field(default=())
    requests: int = 0
    finished: bool = True

    def counts(self) -> dict[str, int]:
        return {"fetch.fetched": len(self.fetched), "fetch.new": len(self.new),
                "fetch.changed": len(self.fetched) - len(self.new), "fetch.unchanged": len(self.unchanged),
                "fetch.failed": len(self.errors), "fetch.requests": self.requests}


def settings_digest(options: Mapping[str, Any]) -> str:
    """Changes when what the mirror should hold changes (not with how politely it is fetched)."""
    polite = {"rate", "retries", "timeout", "deadline", "max_wait", "every", "retry_failed_after", "priority"}
    wanted = {k: v for k, v in options.items() if k not in polite}
    return hashlib.sha256(json.dumps(wanted, sort_keys=True, default=str).encode()).hexdigest()[:16]


class Mirror:
    """The mirror folder of one source during one run: stores documents and keeps the cursor."""

    def __init__(self, folder: Path, source: str, options: Mapping[str, Any]) -> None:
        self.folder, self.source = folder, source
        folder.mkdir(parents=True, exist_ok=True)
        self.cursor: dict[str, Any] = load_cursor(folder)
        self.fetched: list[Path] = []
        self.new: list[Path] = []
        self.unchanged: list[Path] = []
        self.errors: list[IngestError] = []
        digest = settings_digest(options)
        run = self.cursor.get("run") or {}
        self.resuming = bool(run) and not run.get("finished") and self.cursor.get("settings") == digest
        if not self.resuming:
            run = {"started": now_iso(), "finished": None, "done": []}
        self.cursor["run"] = run
        self.cursor["settings"] = digest
        self._done = set(run.get("done") or [])

    # -- the run --------------------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        """The connector's own progress in this run (pages done, ...), kept in the cursor."""
        run: dict[str, Any] = self.cursor["run"]
        state: dict[str, Any] = run.setdefault("state", {})
        return state

    def done(self, key: str) -> bool:
        """Whether this run (or the killed run it resumes) already stored or checked `key`."""
        return key in self._done

    def mark(self, key: str) -> None:
        self._done.add(key)
        self.cursor["run"]["done"] = sorted(self._done)
        self.save()

    def validators(self, url: str) -> dict[str, str]:
        known: dict[str, str] = (self.cursor.get("validators") or {}).get(url) or {}
        return known

    def remember(self, url: str, validators: Mapping[str, str]) -> None:
        self.cursor.setdefault("validators", {})[url] = dict(validators)

    def high_water(self, key: str) -> str | None:
        value = (self.cursor.get("high_water") or {}).get(key)
        return str(value) if value else None

    def raise_high_water(self, key: str, value: str | None) -> None:
        if value and value > (self.high_water(key) or ""):
            self.cursor.setdefault("high_water", {})[key] = value

    def save(self) -> None:
        write_atomic(self.folder / CURSOR, json.dumps(self.cursor, indent=1, sort_keys=True,
                                                      ensure_ascii=False).encode())

    # -- documents ------------------------------------------------------------------------------------
    def store(self, name: str, data: bytes) -> str:
        """Write a document unless the mirror holds these bytes already: 'new', 'changed' or 'unchanged'."""
        target = self.folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            before = target.read_bytes()
        except OSError:
            before = None
        if before == data:
            self.unchanged.append(target)
            return "unchanged"
        write_atomic(target, data)
        self.fetched.append(target)
        if before is None:
            self.new.append(target)
            return "new"
        return "changed"

    def conditional_get(self, client: Any, url: str, name: str) -> tuple[bool, Any]:
        """GET `url` with the validators remembered for it when the mirror holds `name`: (True, the response) when
        the server sent a body, (True, None) when it answered 304 (counted unchanged), (False, None) when it
        failed (recorded as an error; the stored copy stays and the document is asked for again next time)."""
        try:
            resp = client.get(url, self.validators(url) if self.has(name) else None)
        except FetchError as exc:
            self.error(url, exc)
            return False, None
        if resp.not_modified:
            self.unchanged_file(name)
            return True, None
        return True, resp

    def unchanged_file(self, name: str) -> None:
        self.unchanged.append(self.folder / name)

    def has(self, name: str) -> bool:
        return (self.folder / name).is_file()

    def error(self, where: str, exc: FetchError | str, reason: str = "fetch_failed") -> None:
        if isinstance(exc, FetchError):
            self.errors.append(IngestError(self.source, exc.url or where, exc.reason, exc.detail, None))
        else:
            self.errors.append(IngestError(self.source, where, reason, exc, None))

    def finish(self, requests: int) -> FetchResult:
        """Close the run: its counts go into the cursor's `last`, the next run starts afresh."""
        run = self.cursor["run"]
        run["finished"] = now_iso()
        self.cursor["last"] = {"started": run.get("started"), "finished": run["finished"], "requests": requests,
                               "fetched": len(self.fetched), "new": len(self.new), "failed": len(self.errors)}
        self.save()
        return FetchResult(tuple(self.fetched), tuple(self.unchanged), tuple(self.errors), tuple(self.new),
                           requests)


def load_cursor(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((folder / CURSOR).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _parse(when: object) -> datetime | None:
    try:
        moment = datetime.fromisoformat(str(when))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def incomplete(folder: Path, options: Mapping[str, Any]) -> str | None:
    """Why the mirror is not a finished fetch of these settings (never fetched, settings changed, a killed run),
    or None: an update then fetches even though no schedule asked."""
    cursor = load_cursor(folder)
    if not cursor.get("run"):
        return "never fetched"
    if cursor.get("settings") != settings_digest(options):
        return "its settings changed since the last fetch"
    run = cursor["run"]
    if not run.get("finished"):
        return f"the fetch started {run.get('started')} did not finish"
    return None


def due(folder: Path, options: Mapping[str, Any], now: datetime | None = None) -> str | None:
    """Why the source should be fetched now, or None: its mirror is incomplete (above), its last fetch had
    failures and is older than `retry_failed_after` hours (default 1), or it is older than `every` hours when
    the source sets it. The sensors ask this on every tick; it reads one file."""
    reason = incomplete(folder, options)
    if reason is not None:
        return reason
    now = now or datetime.now(UTC)
    last = load_cursor(folder).get("last") or {}
    finished = _parse(last.get("finished"))
    if finished is None:
        return "never fetched"
    if last.get("failed") and now - finished >= timedelta(hours=float(options.get("retry_failed_after", 1))):
        return f"{last['failed']} document(s) failed at the fetch of {last.get('finished')}"
    every = options.get("every")
    if every is not None and now - finished >= timedelta(hours=float(every)):
        return f"last fetched {last.get('finished')}, every {every} hour(s)"
    return None

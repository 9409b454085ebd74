"""What the Dagster instance was last told, kept beside the warehouse so that it can be checked without Dagster.

`etalon update` with nothing to do should not pay for importing Dagster (two seconds of a two-and-a-half
second command). It may skip Dagster only when Dagster already knows everything: no run of this warehouse is
under way or was killed mid-way, and the inputs' versions Dagster was last given (pipelines.observe) are the
versions now. This module records both facts in `$ETALON_HOME/state/` and imports nothing from Dagster; a
missing or unreadable record only means "not known": the command then takes the full path.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path

from warehouse.home import Home

RECORD = "dagster_inputs.json"


def dagster_home(home: Home) -> str:
    """The instance `pipelines.instance.instance_for` opens: $DAGSTER_HOME, else $ETALON_HOME/dagster."""
    return os.environ.get("DAGSTER_HOME") or str(home.dagster_home)


def identity(folder: str) -> list[int] | None:
    """The instance's configuration file and run database as files (inode, time, size): a Dagster home removed
    and made anew at the same path is another instance. None when it has no configuration yet."""
    try:
        config = os.stat(os.path.join(folder, "dagster.yaml"))
    except (FileNotFoundError, NotADirectoryError):
        return None
    try:
        runs = os.stat(os.path.join(folder, "history", "runs.db")).st_ino
    except (FileNotFoundError, NotADirectoryError):
        runs = 0
    return [config.st_ino, config.st_mtime_ns, config.st_size, runs]


def inputs_digest(versions: Mapping[str, Mapping[str | None, str]]) -> str:
    """One digest of every input version (evaluation.engine.inputs.versions), as the cursor holds them."""
    from evaluation.engine.keys import digest

    return digest(sorted((a, sorted((p or "", v) for p, v in parts.items())) for a, parts in versions.items()))


def remember_inputs(home: Home, versions_digest: str) -> None:
    """Called right after the input versions were reported to (and stored in) the instance."""
    folder = dagster_home(home)
    body = {"dagster_home": folder, "identity": identity(folder), "versions": versions_digest}
    path = home.root / "state" / RECORD
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(body), encoding="utf-8")
    os.replace(tmp, path)


def knows_inputs(home: Home, versions_digest: str) -> bool:
    """Whether the instance was last given exactly these input versions (so an observation would add nothing)."""
    try:
        body = json.loads((home.root / "state" / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    folder = dagster_home(home)
    now = identity(folder)
    return (isinstance(body, dict) and now is not None and body.get("dagster_home") == folder
            and body.get("identity") == now and body.get("versions") == versions_digest)


def _runs_folder(home: Home) -> Path:
    return home.root / "state" / "running"


@contextlib.contextmanager
def run_under_way(home: Home) -> Iterator[None]:
    """Marks a Dagster run this process started, for as long as it runs: a killed process leaves its mark, and
    the next update then takes the full path, which marks the run failed in Dagster (reap_dead_runs)."""
    folder = _runs_folder(home)
    folder.mkdir(parents=True, exist_ok=True)
    mark = folder / f"{socket.gethostname()}@{os.getpid()}@{uuid.uuid4().hex[:8]}"
    mark.write_text("", encoding="utf-8")
    try:
        yield
    finally:
        mark.unlink(missing_ok=True)


def clear_dead(home: Home) -> None:
    """Remove the marks of this machine's etalon processes that are gone (after their runs were reaped)."""
    try:
        entries = list(os.scandir(_runs_folder(home)))
    except (FileNotFoundError, NotADirectoryError):
        return
    host = socket.gethostname()
    for entry in entries:
        parts = entry.name.split("@")
        if len(parts) == 3 and parts[0] == host and parts[1].isdigit() and not _alive(int(parts[1])):
            Path(entry.path).unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def runs_under_way(home: Home) -> bool:
    """Whether a run started by an etalon process is going on, or was left by a killed one."""
    try:
        return any(not e.name.startswith(".") for e in os.scandir(_runs_folder(home)))
    except (FileNotFoundError, NotADirectoryError):
        return False

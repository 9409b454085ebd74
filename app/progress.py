"""Progress of long commands (ingest, update, demo) on a terminal, and nothing extra anywhere else.

On a terminal a rich progress bar counts the stage groups done and names the one running with its partitions;
the lines the command prints anyway (what it materialised, problems) appear above the bar. When standard output
or standard error is not a terminal — a script, a test, a log file — the bar is off and the command prints
exactly the lines it always printed, so captured output stays the same. `ETALON_PROGRESS=0` turns it off.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def wanted() -> bool:
    if os.environ.get("ETALON_PROGRESS", "1") == "0":
        return False
    return sys.stdout.isatty() and sys.stderr.isatty()


class Progress:
    """`echo` for the command's own lines; `step` to say what runs now; `advance` when a step is done."""

    def __init__(self, total: int, label: str) -> None:
        self.total = total
        self.label = label
        self._bar: Any = None
        self._task: Any = None

    def echo(self, message: str) -> None:
        if self._bar is not None:
            self._bar.console.print(message, markup=False, highlight=False)
        else:
            print(message, file=sys.stderr)

    def step(self, description: str) -> None:
        if self._bar is not None:
            self._bar.update(self._task, description=f"{self.label}: {description}")

    def advance(self, n: int = 1) -> None:
        if self._bar is not None:
            self._bar.advance(self._task, n)

    def add(self, n: int) -> None:
        """More steps than first counted (a second update inside one command)."""
        if self._bar is not None:
            self.total += n
            self._bar.update(self._task, total=self.total)


@contextmanager
def progress(total: int, label: str, enabled: bool | None = None) -> Iterator[Progress]:
    tracker = Progress(total, label)
    if not (wanted() if enabled is None else enabled):
        yield tracker
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, SpinnerColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as Bar

    bar = Bar(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
              TimeElapsedColumn(), console=Console(stderr=True), transient=True)
    with bar:
        tracker._bar = bar
        tracker._task = bar.add_task(label, total=total)
        try:
            yield tracker
        finally:
            tracker._bar = None

"""Bringing the warehouse up to date after an etalon is saved in the workbench, off the request.

Decisions, undos, approvals and signatures need none of this: the engine re-scores their cells before the
action returns. A saved etalon file is different (a new version, its answers and scores to come), so the save
asks for one refresh (`app.actions.refresh`, a whole `etalon update`). Requests that arrive while one runs are
folded into a single next run, so ten quick saves cost at most two refreshes. The response waits up to
`WAIT_S` for it, then the page shows that re-scoring is under way and updates itself.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from warehouse.home import Home

log = logging.getLogger("etalon.web")
WAIT_S = 1.5
# Where `app.actions.refresh` runs: "subprocess" (default while it is a whole `etalon update`: the Dagster run
# then never competes with the pages for the interpreter) or "inprocess" (right for the engine's fast path,
# whose work is far below a process start).
MODE_ENV = "ETALON_WEB_REFRESH"


class Refresher:
    def __init__(self, home: Home, after: Callable[[], None], run: Callable[[Home], object] | None = None) -> None:
        self.home = home
        self._after = after
        self._run = run
        self._wanted = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.requested = 0
        self.completed = 0
        self.last_error: str | None = None
        self.last_seconds: float | None = None
        self._thread = threading.Thread(target=self._loop, name="etalon-refresh", daemon=True)
        self._thread.start()

    @property
    def pending(self) -> bool:
        return self._wanted.is_set() or not self._idle.is_set()

    def request(self) -> int:
        """Ask for a refresh; returns a ticket that `wait` can wait for."""
        with self._lock:
            self.requested += 1
            ticket = self.requested
            self._idle.clear()
            self._wanted.set()
        return ticket

    def wait(self, ticket: int, timeout: float = WAIT_S) -> bool:
        """Whether a refresh that started after `ticket` was requested has finished within `timeout`.

        Returns at once when the last refresh took longer than the timeout: waiting would only delay the page.
        """
        if self.last_seconds is not None and self.last_seconds > timeout and self.completed < ticket:
            return False
        deadline = time.monotonic() + timeout
        while self.completed < ticket:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self._idle.wait(min(left, 0.05))
            if self._idle.is_set() and self.completed < ticket and not self._wanted.is_set():
                return False
        return True

    def stop(self, timeout: float = 120.0) -> None:
        """Let a running refresh finish (it writes the warehouse), then end the thread."""
        self._stop.set()
        self._wanted.set()
        self._thread.join(timeout)

    def _loop(self) -> None:
        while True:
            self._wanted.wait()
            if self._stop.is_set():
                return
            with self._lock:
                self._wanted.clear()
                ticket = self.requested
            started = time.perf_counter()
            try:
                self._refresh()
                self.last_error = None
            except Exception as exc:  # the next action retries; the page says what went wrong
                log.exception("refresh failed")
                self.last_error = f"{type(exc).__name__}: {exc}".splitlines()[0]
            self.last_seconds = time.perf_counter() - started
            try:
                self._after()
            except Exception:
                log.exception("snapshot reload after refresh failed")
            self.completed = ticket
            with self._lock:
                if not self._wanted.is_set():
                    self._idle.set()
            if self._stop.is_set():
                return

    def _refresh(self) -> None:
        if self._run is not None:
            self._run(self.home)
            return
        if os.environ.get(MODE_ENV, "subprocess") == "inprocess":
            from app import actions

            actions.refresh(self.home)
            return
        code = ("import sys; from app.actions import refresh; from warehouse.home import resolve_home; "
                "refresh(resolve_home(sys.argv[1]))")
        done = subprocess.run([sys.executable, "-c", code, str(self.home.root)], capture_output=True, text=True,
                              env={**os.environ, "ETALON_HOME": str(self.home.root)}, check=False)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise RuntimeError(f"refresh exited with status {done.returncode}: {last}")

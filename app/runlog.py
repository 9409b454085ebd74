"""What an update did, as the commands print it; without Dagster, so a command that finds nothing to do (see
app.settled) reports the same way as one that ran."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field


@dataclass
class RunLog:
    """What an update did: partitions and rows per stage, failures, model-call errors, input problems."""

    partitions: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    rows: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    failures: list[str] = field(default_factory=list)
    call_errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    problems: list[str] = field(default_factory=list)
    corpus_errors: list[str] = field(default_factory=list)   # files of the sources read that did not ingest
    runs: int = 0
    verified: int = 0
    left: list[str] = field(default_factory=list)     # still to do after the update (should be nothing)

    @property
    def did_anything(self) -> bool:
        return self.runs > 0

    def shortfalls(self) -> list[str]:
        """What the update could not do, counted: an exit status of 1 and a summary on stderr."""
        errors = sum(self.call_errors.values())
        counts = [(len(self.problems), "input problem(s) (files that did not load; the rest went on)"),
                  (errors, "failed model call(s) (retried by the next update)"),
                  (len(self.corpus_errors), "corpus file(s) not ingested (corpus.ingest_errors)"),
                  (len(self.failures), "failed run(s)"), (len(self.left), "partition(s) still not current")]
        return [f"{n} {what}" for n, what in counts if n]

    def lines(self) -> list[str]:
        if not self.runs and not self.failures:
            return ["nothing to materialise: everything is up to date"]
        out = [f"{stage}: {n} partition(s), {self.rows.get(stage, 0)} row(s) recomputed"
               for stage, n in self.partitions.items() if n]
        out.append(f"({self.runs} run(s))")
        out += [f"{stage}: {n} model call(s) failed; stored as errors (status 'error'), never scored, "
                "retried by the next update" for stage, n in sorted(self.call_errors.items()) if n]
        out += [f"failed: {f}" for f in self.failures]
        out += [f"not yet current: {item}" for item in self.left]
        return out

"""Errors a lawyer can act on: the file, the line and the field, then what was expected.

Bad input never stops a load: each problem becomes one of these and every other etalon still loads, so a
typo in one file cannot hide the rest of the benchmark from the pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EtalonError:
    """One problem in one file; `line` is 1-based, `field` a dotted path such as `sources[2].priority`."""

    file: str
    line: int | None
    field: str | None
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"

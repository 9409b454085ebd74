"""Where Etalon keeps things: one place that turns the environment into paths.

Every command and every Dagster run resolves the same locations from the same variables, so a CLI call and a
run launched from `dagster dev` always read and write the same warehouse.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
SAMPLE_ETALONS = PACKAGE_ROOT / "etalons"
SAMPLE_CORPUS = PACKAGE_ROOT / "corpus" / "sample"
SAMPLE_ANSWERS = PACKAGE_ROOT / "evaluation" / "sample" / "answers"
SAMPLE_DECISIONS = PACKAGE_ROOT / "evaluation" / "sample" / "decisions.yaml"


@dataclass(frozen=True)
class Home:
    """The warehouse root and the user's inputs (etalons, systems, corpus sources)."""

    root: Path
    etalons_dir: Path
    systems_file: Path
    sources_file: Path
    lake_url: str | None = None   # ETALON_LAKE: the lake elsewhere (s3://bucket/prefix); the rest stays local

    @property
    def lake(self) -> Path | str:
        return self.lake_url or self.root / "lake"

    @property
    def catalog(self) -> Path:
        return self.root / "etalon.duckdb"

    @property
    def report_dir(self) -> Path:
        return self.root / "report"

    @property
    def dagster_home(self) -> Path:
        return self.root / "dagster"

    @property
    def calls_cache(self) -> Path:
        return self.root / "lake" / "_calls"   # model-call cache: local to the machine that made the calls

    @property
    def inbox(self) -> Path:
        return self.root / "inbox"


def resolve_home(home: str | os.PathLike[str] | None = None) -> Home:
    """Resolve the warehouse and input locations: explicit argument, then environment, then the defaults."""
    root = Path(home or os.environ.get("ETALON_HOME") or "warehouse").expanduser().resolve()
    etalons_dir = Path(os.environ.get("ETALON_ETALONS") or "etalons").expanduser().resolve()
    systems = os.environ.get("ETALON_SYSTEMS")
    systems_file = Path(systems).expanduser().resolve() if systems else etalons_dir / "systems.yaml"
    sources = os.environ.get("ETALON_SOURCES")
    sources_file = Path(sources).expanduser().resolve() if sources else root / "sources.yaml"
    return Home(root=root, etalons_dir=etalons_dir, systems_file=systems_file, sources_file=sources_file,
                lake_url=os.environ.get("ETALON_LAKE") or None)

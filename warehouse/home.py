"""Where Etalon keeps things: one place that turns the environment into paths.

Every command and every Dagster run resolves the same locations from the same variables, so a CLI call and a
run launched from `dagster dev` always read and write the same warehouse.

The default data folder is `./etalon-data`, outside every Python package: earlier versions wrote into
`./warehouse`, which in a clone of the repository is the `warehouse` package itself, so a reset with
`rm -rf warehouse` deleted code. Data left there by an earlier version is never moved automatically;
`legacy_home_hint` tells the user how to keep using it (docs/commands.md, "Where the data lives").
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_HOME = "etalon-data"
LEGACY_HOME = "warehouse"   # the earlier default; in a clone it is the package folder itself
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
    root = Path(home or os.environ.get("ETALON_HOME") or DEFAULT_HOME).expanduser().resolve()
    etalons_dir = Path(os.environ.get("ETALON_ETALONS") or "etalons").expanduser().resolve()
    systems = os.environ.get("ETALON_SYSTEMS")
    systems_file = Path(systems).expanduser().resolve() if systems else etalons_dir / "systems.yaml"
    sources = os.environ.get("ETALON_SOURCES")
    sources_file = Path(sources).expanduser().resolve() if sources else root / "sources.yaml"
    return Home(root=root, etalons_dir=etalons_dir, systems_file=systems_file, sources_file=sources_file,
                lake_url=os.environ.get("ETALON_LAKE") or None)


def legacy_home_hint(home: str | os.PathLike[str] | None = None, cwd: Path | None = None) -> str | None:
    """One line for an existing user whose data sits in the old default `./warehouse`, or None.

    Said only when the default is in use (no --home, no ETALON_HOME), `./etalon-data` does not exist yet and
    `./warehouse` holds a lake or a catalog written by an earlier version. Nothing is moved: data is the user's.
    """
    if home or os.environ.get("ETALON_HOME"):
        return None
    cwd = cwd or Path.cwd()
    old = cwd / LEGACY_HOME
    if (cwd / DEFAULT_HOME).exists() or not ((old / "lake").is_dir() or (old / "etalon.duckdb").is_file()):
        return None
    return (f"etalon: note: the default data folder is now ./{DEFAULT_HOME}; data from an earlier version is in "
            f"./{LEGACY_HOME} (not moved): move everything in it but the package's code (*.py, sql/) to "
            f"./{DEFAULT_HOME} (docs/commands.md, \"Where the data lives\"), or set ETALON_HOME={old}")

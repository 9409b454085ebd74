"""The version of Etalon's code, as stored beside what it computed (answers' passports, caches)."""

from __future__ import annotations

import subprocess
from functools import lru_cache
from importlib import metadata
from pathlib import Path


@lru_cache(maxsize=1)
def code_version() -> str:
    """Package version plus the git commit when run from a checkout, so a score names the code behind it."""
    try:
        version = metadata.version("etalon")
    except metadata.PackageNotFoundError:
        version = "0+unknown"
    try:
        sha = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=Path(__file__).resolve().parent,
                             capture_output=True, text=True, timeout=5, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        sha = ""
    return f"{version}+g{sha}" if sha else version

"""Running the real command line as a user would (the shared demo warehouse is in tests/conftest.py)."""

import os
import subprocess
import sys
from pathlib import Path

# The installed console script, beside this interpreter: what a user runs (and, unlike `python -m`, it does not
# put the working directory on sys.path, where a `warehouse/` data folder would shadow the package).
ETALON = str(Path(sys.executable).with_name("etalon"))


def etalon(*args: str, home: Path, env: dict[str, str] | None = None,
           timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run the real command line, as a user would, in a clean working directory."""
    full_env = {**os.environ, **(env or {}), "ETALON_HOME": str(home)}
    full_env.pop("DAGSTER_HOME", None)
    return subprocess.run([ETALON, *args], cwd=home.parent, env=full_env,
                          capture_output=True, text=True, timeout=timeout)

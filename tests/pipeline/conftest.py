"""One real demo run into a temporary warehouse, shared by the tests that read its results."""

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

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


@pytest.fixture(scope="session")
def demo_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("demo") / "warehouse"
    result = etalon("demo", home=home)
    assert result.returncode == 0, result.stderr[-3000:]
    yield home

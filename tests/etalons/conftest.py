"""A fresh `etalons/` folder per test, where each test writes its own small benchmark."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def etalons_root(tmp_path: Path) -> Path:
    root = tmp_path / "etalons"
    root.mkdir()
    return root

"""After a clean demo, Dagster's UI shows every asset that ran with its latest materialisation and no partition
out of date; an edit it has not caught up with yet shows as out of date until the next update."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.engine.dagster_view import materialised_partitions, not_current
from tests.pipeline.conftest import etalon

ASSETS = ("corpus", "etalons", "etalon_sources", "answers", "citations", "judgments", "scores", "signatures",
          "leaderboard", "slices", "paired", "judge_agreement", "pass_at_k", "calibration", "report")


@pytest.mark.parametrize("asset", ASSETS)
def test_every_asset_that_ran_in_the_demo_has_a_materialisation(demo_home: Path, asset: str) -> None:
    assert materialised_partitions(demo_home, asset)


def test_no_partition_is_out_of_date_after_the_demo(demo_home: Path) -> None:
    assert not_current(demo_home) == {}


def test_an_edited_etalon_shows_out_of_date_until_the_update_and_current_after(tmp_path: Path, demo_home: Path) -> None:
    home = tmp_path / "warehouse"
    shutil.copytree(demo_home, home)
    etalons = tmp_path / "etalons"
    shutil.copytree(Path(__file__).resolve().parents[2] / "etalons" / "sample", etalons / "sample")
    shutil.copy(Path(__file__).resolve().parents[2] / "etalons" / "systems.yaml", etalons / "systems.yaml")
    env = {"ETALON_ETALONS": str(etalons), "ETALON_SYSTEMS": str(etalons / "systems.yaml")}
    path = etalons / "sample" / "NAS-01.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("reference_answer: |", "reference_answer: |\n  Да.", 1),
                    encoding="utf-8")
    done = etalon("update", home=home, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert not_current(home) == {}

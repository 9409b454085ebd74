"""A warehouse whose lake is a URL (`ETALON_LAKE`, as on object storage): the same commands, the same catalog.

The lake here is a `file://` URL, which goes through the same URL code path as `s3://` (warehouse/lake_fs.py);
the catalog, the report and Dagster's instance stay under ETALON_HOME.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.acceptance.project import Project, inheritance_etalon

ANSWER = {"code": "ACC-01", "attempt": 1,
          "text": "Наследство принято фактически (ст. 1152, п. 2 ст. 1153 ГК РФ); срок ст. 1154 ГК РФ не пропущен."}


@dataclass
class UrlLakeProject(Project):
    def env(self) -> dict[str, str]:
        return {**super().env(), "ETALON_LAKE": (self.root / "objects").as_uri()}


@dataclass
class Story:
    project: UrlLakeProject
    results: dict[str, Any]


def build_story(make: Callable[..., Project]) -> Story:
    made = make("lake-url")
    project = UrlLakeProject(made.root, systems=made.systems)
    project.write_etalon(inheritance_etalon("ACC-01"))
    results = {"update": project.etalon("update"),
               "import": project.import_answers("sys-a", [ANSWER]),
               "show": project.etalon("corpus", "show", "ст. 1152 ГК РФ")}
    return Story(project, results)


@pytest.fixture(scope="module")
def lake_story(story: Story) -> Story:
    return story


@pytest.mark.parametrize("step", ["update", "import", "show"])
def test_every_command_succeeds_on_a_url_lake(lake_story: Story, step: str) -> None:
    result = lake_story.results[step]
    assert result.returncode == 0, result.stderr[-2000:]


def test_the_partitions_are_written_under_the_url_and_not_under_the_home(lake_story: Story) -> None:
    objects = lake_story.project.root / "objects"
    assert list((objects / "scores").rglob("*.parquet"))
    assert not (lake_story.project.home / "lake" / "scores").exists()


def test_the_catalog_reads_the_scores_from_the_url_lake(lake_story: Story) -> None:
    rows = lake_story.project.query("SELECT system, verdict FROM eval.scores WHERE code = 'ACC-01'")
    assert [r[0] for r in rows] == ["sys-a"]


def test_corpus_show_reads_the_article_from_the_url_lake(lake_story: Story) -> None:
    assert "1152" in lake_story.results["show"].stdout

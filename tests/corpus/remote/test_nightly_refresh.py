"""End to end: a signed etalon citing an article of a pravo.gov.ru document is flagged `corpus_changed` after
the nightly refresh fetched the document's new consolidated version (and only then)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from dagster import DagsterInstance, build_schedule_context, build_sensor_context

from tests.corpus.remote.loopback import Site, serve
from tests.engine.harness import Project, model_server

ND = "102073578"
PAGE = f"/proxy/ips/?doc_itself=&nd={ND}"
MARKERS = ("наследство в течение шести месяцев", "Наследство может быть принято в течение")


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    with model_server() as server:
        yield server.base_url


@pytest.fixture
def site() -> Iterator[Site]:
    with serve() as s:
        yield s


def _project(root: Path, base_url: str, site: Site) -> Project:
    from app.actions import sign

    project = Project.create(root, base_url, seed=0, judge=False)
    page = project.root / "corpus" / "ru" / "html" / "gk-part3.html"
    site.set(PAGE, page.read_bytes(), "text/html; charset=utf-8")
    page.unlink()    # the Civil Code's part three now comes from the portal only
    path = project.home_dir / "sources.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["sources"].append({"name": "ru-codes", "kind": "pravo-gov-ru", "base_url": site.base_url,
                            "documents": [int(ND)], "rate": 0})
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    project.update()     # the mirror was never fetched: the first update fetches it
    with project.environment():
        sign(project.home(), "NAS-01", "Анна")
    project.update()
    assert project.signed_flags() == [("NAS-01", False)]
    return project



def _amend(site: Site) -> None:
    text = site.files[PAGE].body.decode("utf-8")
    marker = next(m for m in MARKERS if m in text)
    site.set(PAGE, text.replace(marker, marker + " (в новой редакции)", 1).encode("utf-8"),
             "text/html; charset=utf-8")


def _refresh(project: Project) -> int:
    from app.corpus_commands import refresh

    with project.environment():
        return refresh(project.home(), [])


def test_the_nightly_refresh_flags_the_signed_etalon_whose_cited_article_was_amended(
        tmp_path: Path, server_url: str, site: Site) -> None:
    project = _project(tmp_path / "p", server_url, site)
    _amend(site)
    before = site.count()
    assert _refresh(project) == 0
    assert site.statuses()[before:] == [200]      # one request: the amended page
    assert project.signed_flags() == [("NAS-01", True)]
    con = project.catalog()
    try:
        (new,) = con.execute("SELECT new_text FROM bench.corpus_changes WHERE code = 'NAS-01'").fetchone()
    finally:
        con.close()
    assert "(в новой редакции)" in new


def test_a_night_with_nothing_amended_costs_one_304_and_flags_nothing(tmp_path: Path, server_url: str,
                                                                     site: Site) -> None:
    project = _project(tmp_path / "p", server_url, site)
    before = site.count()
    assert _refresh(project) == 0
    assert (site.statuses()[before:], project.signed_flags()) == ([304], [("NAS-01", False)])


def test_an_ordinary_update_asks_the_portal_nothing(tmp_path: Path, server_url: str, site: Site) -> None:
    project = _project(tmp_path / "p", server_url, site)
    _amend(site)
    before = site.count()
    project.update()
    assert (site.count() - before, project.signed_flags()) == (0, [("NAS-01", False)])


def test_the_schedule_and_the_sensor_request_a_fetching_run_of_the_source(tmp_path: Path, server_url: str,
                                                                         site: Site) -> None:
    import json

    from pipelines.definitions import defs
    from pipelines.plans import PLAN_TAG
    from pipelines.refresh import FETCH_TAG, sensor_name
    from pipelines.schedules import corpus_refresh_schedule

    project = _project(tmp_path / "p", server_url, site)
    with project.environment(), DagsterInstance.ephemeral() as instance:
        from datetime import UTC, datetime

        context = build_schedule_context(instance=instance, scheduled_execution_time=datetime(2026, 12, 1, 3, tzinfo=UTC))
        requests = list(corpus_refresh_schedule(context))  # type: ignore[arg-type]
        fetching = [r for r in requests if r.tags.get(FETCH_TAG)]
        assert [(r.partition_key, json.loads(Path(r.tags[PLAN_TAG]).read_text())["force"]) for r in fetching] == [
            ("ru-codes", {"corpus": True})]
        from pipelines.refresh import FETCH_SENSORS

        check = next(d for d in FETCH_SENSORS if d.name == sensor_name("pravo-gov-ru"))
        assert [type(r).__name__ for r in check(build_sensor_context(instance=instance, definitions=defs))] == [
            "SkipReason"]    # fetched: not due
        mirror = project.home_dir / "sources" / "ru-codes" / ".cursor.json"
        cursor = json.loads(mirror.read_text())
        cursor["run"]["finished"] = None                                       # as a killed fetch leaves it
        mirror.write_text(json.dumps(cursor))
        (request,) = check(build_sensor_context(instance=instance, definitions=defs))
        assert (request.partition_key, request.tags[FETCH_TAG]) == ("ru-codes", "ru-codes")

"""A change of the law reaches the signatures, on every road a new text can come by (issue #22, §2).

A signed etalon (NAS-01: articles of the Civil Code's part three and a point of the inheritance Plenum) and then
one way or another the current text of a cited unit changes — the file amended in place, a newer copy in another
source, a copy that outranks it by priority — or does not (a copy that the rule shadows). After an update the
etalon is flagged `corpus_changed` with the old and the new text exactly when the text it cites changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml

from tests.engine.harness import Project, model_server

PLENUM = "text/plenum-2012-05-29-n9-nasledovanie.txt"
CODE = "html/gk-part3.html"


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    with model_server() as server:
        yield server.base_url


def _reword(path: Path, target: Path) -> bool:
    """Write `path`'s text to `target` with one cited unit reworded; False when the phrase is not there."""
    text = path.read_text(encoding="utf-8")
    marker = next((m for m in ("наследство в течение шести месяцев", "Наследство может быть принято в течение")
                   if m in text), None)
    if marker is None:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text.replace(marker, marker + " (в новой редакции)", 1), encoding="utf-8")
    return True


def _add_source(project: Project, name: str, folder: Path, priority: int | None = None) -> None:
    path = project.home_dir / "sources.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["sources"].append({"name": name, "path": str(folder), **({"priority": priority} if priority is not None
                                                                  else {})})
    path.write_text(yaml.safe_dump(data), encoding="utf-8")


def _drop_source(project: Project, name: str) -> None:
    path = project.home_dir / "sources.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["sources"] = [s for s in data["sources"] if s["name"] != name]
    path.write_text(yaml.safe_dump(data), encoding="utf-8")


def amend_in_place(project: Project) -> None:
    source = project.root / "corpus" / "ru" / CODE
    assert _reword(source, source)


def newer_copy_elsewhere(project: Project) -> None:
    assert _reword(project.root / "corpus" / "ru" / CODE, project.root / "corpus" / "newer" / "gk-part3.html")
    _add_source(project, "newer", project.root / "corpus" / "newer")


def copy_at_a_higher_priority(project: Project) -> None:
    assert _reword(project.root / "corpus" / "ru" / CODE, project.root / "corpus" / "pinned" / "gk-part3.html")
    _add_source(project, "pinned", project.root / "corpus" / "pinned", priority=3)


def copy_at_a_lower_priority(project: Project) -> None:
    assert _reword(project.root / "corpus" / "ru" / CODE, project.root / "corpus" / "low" / "gk-part3.html")
    _add_source(project, "low", project.root / "corpus" / "low", priority=-1)


def unchanged_copy_elsewhere(project: Project) -> None:
    target = project.root / "corpus" / "same" / "gk-part3.html"
    target.parent.mkdir(parents=True)
    target.write_bytes((project.root / "corpus" / "ru" / CODE).read_bytes())
    _add_source(project, "same", target.parent)


def dropped_into_the_inbox(project: Project) -> None:
    """The inbox is always a source: a reworded copy dropped there is the newer file of the same edition."""
    assert _reword(project.root / "corpus" / "ru" / CODE, project.home_dir / "inbox" / "gk-part3.html")


ROADS: list[tuple[str, Callable[[Project], None], bool]] = [
    ("the cited file amended in place", amend_in_place, True),
    ("a newer copy in another source", newer_copy_elsewhere, True),
    ("a copy in a source of higher priority", copy_at_a_higher_priority, True),
    ("an amended copy the priority rule shadows", copy_at_a_lower_priority, False),
    ("an identical copy in another source", unchanged_copy_elsewhere, False),
    ("a reworded copy dropped into the inbox", dropped_into_the_inbox, True),
]


def _signed_project(root: Path, base_url: str) -> Project:
    from app.actions import sign

    project = Project.create(root, base_url, seed=0, judge=False)
    project.update()
    with project.environment():
        sign(project.home(), "NAS-01", "Анна")
    project.update()
    assert project.signed_flags() == [("NAS-01", False)]
    return project



def _changes(project: Project) -> list[tuple[str, str, str, str]]:
    con = project.catalog()
    try:
        return [tuple(r) for r in con.execute(
            "SELECT code, change, old_text, new_text FROM bench.corpus_changes ORDER BY citation").fetchall()]
    finally:
        con.close()


@pytest.mark.parametrize(("road", "flagged"), [(r, f) for _, r, f in ROADS], ids=[n for n, _, _ in ROADS])
def test_a_signed_etalon_is_flagged_exactly_when_the_text_it_cites_changed(
        tmp_path: Path, server_url: str, road: Callable[[Project], None], flagged: bool) -> None:
    project = _signed_project(tmp_path / "p", server_url)
    road(project)
    project.update()
    assert project.signed_flags() == [("NAS-01", flagged)]
    changes = _changes(project)
    assert bool(changes) == flagged
    for code, change, old, new in changes:
        assert (code, change) == ("NAS-01", "changed") and "(в новой редакции)" in new and \
            "(в новой редакции)" not in old


def test_taking_the_amending_source_out_again_clears_the_flag(tmp_path: Path, server_url: str) -> None:
    project = _signed_project(tmp_path / "p", server_url)
    newer_copy_elsewhere(project)
    project.update()
    assert project.signed_flags() == [("NAS-01", True)]
    _drop_source(project, "newer")
    project.update()
    assert project.signed_flags() == [("NAS-01", False)]


@pytest.mark.parametrize("how", ["source taken out of sources.yaml", "file deleted"])
def test_a_cited_document_that_leaves_the_corpus_flags_the_etalon_with_its_text_gone(
        tmp_path: Path, server_url: str, how: str) -> None:
    project = _signed_project(tmp_path / "p", server_url)
    if how == "file deleted":
        (project.root / "corpus" / "ru" / CODE).unlink()
    else:
        _drop_source(project, "ru")
    project.update()
    assert project.signed_flags() == [("NAS-01", True)]
    changes = _changes(project)
    assert changes and all(change == "gone" and old and new is None for _, change, old, new in changes), changes

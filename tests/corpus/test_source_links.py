"""Symbolic links out of a source folder are not followed unless the source says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from samples import LAW_TEXT

from corpus.ingest import parse_path
from corpus.model import Document, IngestError
from corpus.sources import Source, fingerprint, sources_for
from corpus.store import refresh_source
from warehouse.lake import Lake

HOSTNAME = Path("/etc/hostname")


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    """A source folder holding one law, and a sibling folder holding another the source links to."""
    source, sibling = tmp_path / "source", tmp_path / "sibling"
    source.mkdir()
    sibling.mkdir()
    (source / "own.txt").write_text(LAW_TEXT, encoding="utf-8")
    (sibling / "other.txt").write_text(LAW_TEXT.replace("О ПРОВЕРКЕ ОБРАЗЦОВ", "О ДРУГИХ ОБРАЗЦАХ"), "utf-8")
    (source / "law.txt").symlink_to(sibling / "other.txt")
    return source, sibling


def _read(folder: Path, follow_links: bool = False) -> tuple[list[Document], list[IngestError]]:
    found = list(parse_path(folder, "src", follow_links=follow_links))
    return [d for d in found if isinstance(d, Document)], [e for e in found if isinstance(e, IngestError)]


def test_a_link_to_a_file_in_a_sibling_folder_is_reported_not_read(folders: tuple[Path, Path]) -> None:
    source, sibling = folders
    documents, errors = _read(source)
    assert [Path(d.file).name for d in documents] == ["own.txt"]
    assert [(Path(e.file).name, e.reason) for e in errors] == [("law.txt", "link_outside_source")]
    assert str(sibling / "other.txt") in errors[0].detail and "follow_links: true" in errors[0].detail


@pytest.mark.skipif(not HOSTNAME.is_file(), reason="this system has no /etc/hostname")
def test_a_link_to_a_system_file_in_the_inbox_is_reported_not_read(tmp_path: Path) -> None:
    (tmp_path / "inbox").mkdir()
    (tmp_path / "inbox" / "hostname.txt").symlink_to(HOSTNAME)
    documents, errors = _read(tmp_path / "inbox")
    assert (documents, [e.reason for e in errors]) == ([], ["link_outside_source"])
    assert errors[0].detail.startswith(f"a symbolic link to {HOSTNAME.resolve()}, outside the source folder")


def test_a_source_with_follow_links_reads_the_file_a_link_leads_to(tmp_path: Path,
                                                                    folders: tuple[Path, Path]) -> None:
    source, _ = folders
    (tmp_path / "sources.yaml").write_text(f"sources:\n  - name: linked\n    path: {source}\n"
                                           "    follow_links: true\n", encoding="utf-8")
    [configured, _inbox] = sources_for(tmp_path / "sources.yaml", tmp_path / "inbox")
    lake = Lake(tmp_path / "lake")
    summary = refresh_source(lake, configured, tmp_path / "staging")
    files = sorted(lake.read("corpus_documents", "linked").column("file").to_pylist())
    reasons = {e.reason for e in summary.errors}  # the sample laws are unknown to the act registry
    assert (configured.follow_links, reasons) == (True, {"unknown_act"})
    assert [Path(f).name for f in files] == ["law.txt", "own.txt"]


def test_a_link_within_the_folder_is_read_as_before(tmp_path: Path) -> None:
    (tmp_path / "src" / "texts").mkdir(parents=True)
    (tmp_path / "src" / "texts" / "law.txt").write_text(LAW_TEXT, encoding="utf-8")
    (tmp_path / "src" / "current.txt").symlink_to(tmp_path / "src" / "texts" / "law.txt")
    documents, errors = _read(tmp_path / "src")
    assert (sorted(Path(d.file).name for d in documents), errors) == (["current.txt", "law.txt"], [])


def test_a_refresh_records_the_refused_link_in_ingest_errors(tmp_path: Path, folders: tuple[Path, Path]) -> None:
    source, _ = folders
    lake = Lake(tmp_path / "lake")
    refresh_source(lake, Source("docs", path=source), tmp_path / "staging")
    rows = lake.read("ingest_errors", "docs").to_pylist()
    assert [(Path(r["file"]).name, r["reason"]) for r in rows if r["reason"] != "unknown_act"] == [
        ("law.txt", "link_outside_source")]


def test_the_fingerprint_ignores_what_a_refused_link_points_to(tmp_path: Path, folders: tuple[Path, Path]) -> None:
    source, sibling = folders
    before = fingerprint(Source("docs", path=source), tmp_path / "staging")
    (sibling / "other.txt").write_text(LAW_TEXT + "\nСтатья 9. Дописана позже\n", encoding="utf-8")
    assert fingerprint(Source("docs", path=source), tmp_path / "staging") == before
    assert fingerprint(Source("docs", path=source, follow_links=True), tmp_path / "staging") != before

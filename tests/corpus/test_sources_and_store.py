"""Sources configuration and the per-source refresh into the lake that the corpus asset runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from samples import META_UTF8, PORTAL_PAGE

from corpus.sources import INBOX, Source, fingerprint, save_source_list, source_for_path, sources_for
from corpus.store import corpus_version, current_tables, refresh_source
from warehouse.lake import Lake


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    src = tmp_path / "docs"
    src.mkdir()
    (src / "code.html").write_text(PORTAL_PAGE.format(meta=META_UTF8), encoding="utf-8")
    (src / "broken.xml").write_bytes(b"<akomaNtoso><act>")
    return src


def test_a_first_refresh_adds_the_documents_and_records_the_errors(tmp_path: Path, folder: Path) -> None:
    lake = Lake(tmp_path / "lake")
    summary = refresh_source(lake, Source("docs", path=folder), tmp_path / "staging")
    assert (summary.added, summary.unchanged, summary.failed) == (1, 0, 2)
    # the broken file, and the sample code the act registry does not know (stored, and reported)
    assert lake.read("ingest_errors", "docs").column("reason").to_pylist() == ["malformed_xml", "unknown_act"]


def test_a_second_refresh_of_unchanged_files_changes_nothing(tmp_path: Path, folder: Path) -> None:
    lake = Lake(tmp_path / "lake")
    first = refresh_source(lake, Source("docs", path=folder), tmp_path / "staging")
    again = refresh_source(lake, Source("docs", path=folder), tmp_path / "staging")
    assert (again.added, again.changed, again.unchanged, again.units_added) == (0, 0, 1, 0)
    assert again.data_version == first.data_version


def test_an_edited_file_becomes_the_current_version_and_the_old_one_stays(tmp_path: Path, folder: Path) -> None:
    lake = Lake(tmp_path / "lake")
    refresh_source(lake, Source("docs", path=folder), tmp_path / "staging")
    before = corpus_version(lake)
    (folder / "code.html").write_text(PORTAL_PAGE.format(meta=META_UTF8).replace("кодировок", "версий"), "utf-8")
    summary = refresh_source(lake, Source("docs", path=folder), tmp_path / "staging")
    documents, units = current_tables(lake)
    texts = [t for p, t in zip(units.column("path").to_pylist(), units.column("text").to_pylist(), strict=True)
             if p == "1/1"]
    assert (summary.changed, documents.num_rows, lake.read("corpus_documents", "docs").num_rows) == (1, 1, 2)
    assert (texts, corpus_version(lake) != before) == (["1. Настоящий образец описывает проверку версий."], True)


def _current_ids(lake: Lake) -> list[str]:
    return current_tables(lake)[0].column("doc_id").to_pylist()


def test_a_deleted_file_takes_its_document_out_of_the_corpus_and_keeps_its_versions(tmp_path: Path,
                                                                                     folder: Path) -> None:
    lake = Lake(tmp_path / "lake")
    refresh_source(lake, Source("docs", path=folder), tmp_path / "staging")
    (folder / "code.html").unlink()
    summary = refresh_source(lake, Source("docs", path=folder), tmp_path / "staging")
    assert (summary.removed, _current_ids(lake), lake.read("corpus_documents", "docs").num_rows) == (1, [], 1)


def test_a_file_that_fails_to_read_keeps_its_last_good_reading(tmp_path: Path, folder: Path) -> None:
    lake = Lake(tmp_path / "lake")
    refresh_source(lake, Source("docs", path=folder), tmp_path / "staging")
    before = _current_ids(lake)
    (folder / "code.html").write_bytes(b"\x00" * 64)   # a file caught half-written
    summary = refresh_source(lake, Source("docs", path=folder), tmp_path / "staging")
    assert (summary.removed, _current_ids(lake) == before, summary.failed > 0) == (0, True, True)


def test_a_source_whose_path_is_gone_keeps_its_documents_and_says_not_found(tmp_path: Path, folder: Path) -> None:
    lake = Lake(tmp_path / "lake")
    refresh_source(lake, Source("docs", path=folder), tmp_path / "staging")
    before = _current_ids(lake)
    summary = refresh_source(lake, Source("docs", path=tmp_path / "unmounted"), tmp_path / "staging")
    assert (_current_ids(lake) == before, [e.reason for e in summary.errors]) == (True, ["not_found"])


def test_an_emptied_inbox_takes_its_documents_out_even_when_its_folder_is_gone(tmp_path: Path, folder: Path) -> None:
    lake = Lake(tmp_path / "lake")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (folder / "code.html").rename(inbox / "code.html")
    refresh_source(lake, Source(INBOX, path=inbox), tmp_path / "staging")
    (inbox / "code.html").unlink()
    inbox.rmdir()
    summary = refresh_source(lake, Source(INBOX, path=inbox), tmp_path / "staging")
    assert (summary.removed, summary.failed, _current_ids(lake)) == (1, 0, [])


def test_the_inbox_is_always_a_source_after_the_configured_ones(tmp_path: Path) -> None:
    (tmp_path / "sources.yaml").write_text("sources:\n  - name: codes\n    path: codes\n  - name: web\n"
                                           "    url: https://example.org/index.json\n", encoding="utf-8")
    found = sources_for(tmp_path / "sources.yaml", tmp_path / "inbox")
    assert [(s.name, s.kind) for s in found] == [("codes", "folder"), ("web", "http"), (INBOX, "folder")]
    assert found[0].path == tmp_path / "codes"


@pytest.mark.parametrize(("text", "message"), [
    ("sources:\n  - path: x\n", "non-empty 'name'"),
    ("sources:\n  - name: a\n    path: x\n    url: http://h/i\n", "exactly one of"),
    ("sources:\n  - name: a\n    url: ftp://h/i\n", "http(s) URL"),
    ("sources:\n  - name: a\n    path: x\n    follow_links: yes please\n", "'follow_links' must be true or false"),
    ("sources:\n  - name: a\n    path: x\n    follow_link: true\n", "unknown key 'follow_link'"),
])
def test_a_bad_source_entry_names_the_file_its_line_and_the_entry(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "sources.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"sources\.yaml:2: sources\[0\]") as exc:
        sources_for(tmp_path / "sources.yaml", tmp_path / "inbox")
    assert message in str(exc.value)


def test_paths_given_on_the_command_line_are_saved_once_under_a_stable_name(tmp_path: Path, folder: Path) -> None:
    wanted = source_for_path(folder)
    save_source_list(tmp_path / "sources.yaml", [], [wanted])
    save_source_list(tmp_path / "sources.yaml", sources_for(tmp_path / "sources.yaml", tmp_path / "in"),
                     [source_for_path(folder)])
    assert [s.name for s in sources_for(tmp_path / "sources.yaml", tmp_path / "in")] == [wanted.name, INBOX]


def test_a_fingerprint_changes_when_a_file_is_added(tmp_path: Path, folder: Path) -> None:
    source = Source("docs", path=folder)
    before = fingerprint(source, tmp_path / "staging")
    (folder / "new.txt").write_text("Статья 1. Новая", encoding="utf-8")
    assert fingerprint(source, tmp_path / "staging") != before

from __future__ import annotations

from pathlib import Path

from etalons.loader import load_benchmarks
from etalons.versions import Stored, plan_changes, record_versions
from tests.etalons.etalon_files import ETALON_YAML, write_benchmark

FILE = "etalons/ru-test/NAS-01.yaml"


def _load(root: Path, text: str = ETALON_YAML):  # type: ignore[no-untyped-def]
    write_benchmark(root, {"NAS-01.yaml": text})
    return load_benchmarks(root)


def test_a_new_file_is_added(etalons_root: Path) -> None:
    assert plan_changes({}, _load(etalons_root)).added == ["NAS-01"]


def test_an_unchanged_file_changes_nothing(etalons_root: Path) -> None:
    result = _load(etalons_root)
    loaded = result.etalons[0]
    changes = plan_changes({"NAS-01": Stored(loaded.version, loaded.etalon.title, FILE)}, result)
    assert (changes.unchanged, changes.to_materialise) == (["NAS-01"], [])


def test_an_edited_text_is_a_changed_version(etalons_root: Path) -> None:
    before = _load(etalons_root).etalons[0]
    after = _load(etalons_root, ETALON_YAML.replace("пять месяцев", "семь месяцев"))
    assert plan_changes({"NAS-01": Stored(before.version, before.etalon.title, FILE)}, after).changed == [
        "NAS-01"
    ]


def test_an_edited_title_alone_is_retitled_not_a_new_version(etalons_root: Path) -> None:
    before = _load(etalons_root).etalons[0]
    after = _load(etalons_root, ETALON_YAML.replace("title: Принятие наследства", "title: Наследство"))
    changes = plan_changes({"NAS-01": Stored(before.version, before.etalon.title, FILE)}, after)
    assert (changes.retitled, changes.changed) == (["NAS-01"], [])


def test_a_removed_file_archives_its_etalon(etalons_root: Path) -> None:
    before = _load(etalons_root).etalons[0]
    (etalons_root / "ru-test" / "NAS-01.yaml").unlink()
    changes = plan_changes({"NAS-01": Stored(before.version, "t", FILE)}, load_benchmarks(etalons_root))
    assert changes.archived == ["NAS-01"]


def test_a_broken_file_holds_its_etalon_instead_of_archiving_it(etalons_root: Path) -> None:
    before = _load(etalons_root).etalons[0]
    broken = _load(etalons_root, ETALON_YAML.replace("difficulty: 2", "difficulty: [2"))
    changes = plan_changes({"NAS-01": Stored(before.version, "t", FILE)}, broken)
    assert (changes.held, changes.archived) == (["NAS-01"], [])


def test_a_file_put_back_restores_an_archived_etalon(etalons_root: Path) -> None:
    result = _load(etalons_root)
    stored = {"NAS-01": Stored(result.etalons[0].version, "t", FILE, archived=True)}
    assert plan_changes(stored, result).restored == ["NAS-01"]


def test_history_keeps_every_version_and_when_it_was_first_seen(etalons_root: Path) -> None:
    first = _load(etalons_root).etalons
    history = record_versions([], first, "2026-11-01T00:00:00")
    history = record_versions(history, first, "2026-11-02T00:00:00")
    edited = _load(etalons_root, ETALON_YAML.replace("пять месяцев", "семь месяцев")).etalons
    history = record_versions(history, edited, "2026-11-03T00:00:00")
    assert [(r.first_seen, r.last_seen) for r in history] == [
        ("2026-11-01T00:00:00", "2026-11-02T00:00:00"),
        ("2026-11-03T00:00:00", "2026-11-03T00:00:00"),
    ]
    assert [r.version for r in history] == [first[0].version, edited[0].version]
    assert "семь месяцев" in history[1].content and "семь месяцев" not in history[0].content


def test_a_broken_file_under_a_new_name_still_holds_its_etalon(etalons_root: Path) -> None:
    before = _load(etalons_root).etalons[0]
    (etalons_root / "ru-test" / "NAS-01.yaml").rename(etalons_root / "ru-test" / "inheritance-1.yaml")
    (etalons_root / "ru-test" / "inheritance-1.yaml").write_text(
        ETALON_YAML.replace("difficulty: 2", "difficulty: [2"), encoding="utf-8"
    )
    result = load_benchmarks(etalons_root)
    changes = plan_changes({"NAS-01": Stored(before.version, "t", FILE)}, result)
    assert (result.failed_codes, changes.held, changes.archived) == ({"NAS-01"}, ["NAS-01"], [])

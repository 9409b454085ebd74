"""The issue's acceptance walk, on a temporary benchmark: refuse, sign, edit, retitle, remove."""

from __future__ import annotations

from pathlib import Path

import pytest

from citations import SetLookup
from etalons.loader import load_benchmarks
from etalons.signing import SigningRefused, sign, status_of
from etalons.verify import verify_sources
from etalons.versions import Stored, plan_changes, record_versions
from tests.etalons.etalon_files import ETALON_YAML, write_benchmark

CORPUS = SetLookup([("gk-3", "ru/gk", a, a) for a in ("1152", "1153", "1154")])
AT = "2026-11-29T10:00:00+00:00"


def test_an_etalon_citing_a_missing_article_is_refused_with_that_article_named(etalons_root: Path) -> None:
    write_benchmark(etalons_root, {"NAS-01.yaml": ETALON_YAML.replace("ст. 1153 ГК РФ", "ст. 1999 ГК РФ")})
    loaded = load_benchmarks(etalons_root).etalons[0]
    with pytest.raises(SigningRefused) as refused:
        sign(loaded, verify_sources(loaded, CORPUS), by="А. Юрист", at=AT)
    assert "ст. 1999 ГК РФ" in str(refused.value) and "no article 1999" in str(refused.value)


def test_sign_then_edit_text_then_title_then_remove(etalons_root: Path) -> None:
    folder = write_benchmark(etalons_root, {"NAS-01.yaml": ETALON_YAML})
    v1 = load_benchmarks(etalons_root).etalons[0]
    signatures = [sign(v1, verify_sources(v1, CORPUS), by="А. Юрист", at=AT)]
    history = record_versions([], [v1], "t1")
    assert status_of(v1.version, signatures, archived=False) == "signed"

    (folder / "NAS-01.yaml").write_text(ETALON_YAML.replace("пять месяцев", "семь месяцев"), encoding="utf-8")
    v2 = load_benchmarks(etalons_root).etalons[0]
    history = record_versions(history, [v2], "t2")
    assert (status_of(v2.version, signatures, archived=False), len(history)) == ("pool", 2)

    signatures.append(sign(v2, verify_sources(v2, CORPUS), by="А. Юрист", at=AT))
    retitled = ETALON_YAML.replace("пять месяцев", "семь месяцев").replace(
        "Принятие наследства", "Наследство"
    )
    (folder / "NAS-01.yaml").write_text(retitled, encoding="utf-8")
    v3 = load_benchmarks(etalons_root).etalons[0]
    history = record_versions(history, [v3], "t3")
    assert (v3.version, status_of(v3.version, signatures, archived=False), len(history)) == (
        v2.version,
        "signed",
        2,
    )

    (folder / "NAS-01.yaml").unlink()
    stored = {"NAS-01": Stored(v3.version, v3.etalon.title, v3.file)}
    archived = "NAS-01" in plan_changes(stored, load_benchmarks(etalons_root)).archived
    assert (archived, status_of(v3.version, signatures, archived=archived)) == (True, "archived")

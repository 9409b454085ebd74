from __future__ import annotations

from pathlib import Path

import pytest

from citations import SetLookup
from etalons.loader import LoadedEtalon, load_benchmarks
from etalons.verify import lost_sources, report, verify_sources
from tests.etalons.etalon_files import ETALON_YAML, write_benchmark

# A corpus of our own: the Civil Code with three inheritance articles and one Plenum resolution.
CORPUS = SetLookup(
    [("gk-3", "ru/gk", a, a) for a in ("1152", "1153", "1154")],
    decisions=[("plenum-9", "ВС РФ Пленум", "9")],
)


def _loaded(root: Path, citation: str) -> LoadedEtalon:
    text = ETALON_YAML.replace("citation: ст. 1154 ГК РФ", f"citation: {citation}")
    write_benchmark(root, {"NAS-01.yaml": text})
    result = load_benchmarks(root)
    assert result.errors == []
    return result.etalons[0]


@pytest.mark.parametrize(
    ("citation", "status", "reason"),
    [
        ("ст. 1154 ГК РФ", "found", "1154"),
        ("ст. 1999 ГК РФ", "not_found", "no article 1999"),
        ("ст. 81 ТК РФ", "unknown_act", "ru/tk"),
        (
            "п. 36 постановления Пленума Верховного Суда РФ от 29.05.2012 № 9",
            "found",
            "№ 9".replace("№", "No"),
        ),
        (
            "решение Мещанского районного суда г. Москвы от 01.02.2020 по делу № 2-123/2020",
            "unverifiable",
            "outside",
        ),
        ("ст. 1152, 1153 и 1154 ГК РФ", "found", "1153"),
        ("ст. 1152, 1153 и 1155 ГК РФ", "not_found", "1155"),
    ],
)
def test_each_source_gets_the_status_of_its_lookup_in_the_corpus(
    etalons_root: Path, citation: str, status: str, reason: str
) -> None:
    checks = verify_sources(_loaded(etalons_root, citation), CORPUS)
    third = checks[2]
    assert (third.index, third.citation, third.status) == (3, citation, status)
    assert reason in third.reason


def test_a_source_row_carries_the_parsed_citation_and_the_etalon_version(etalons_root: Path) -> None:
    loaded = _loaded(etalons_root, "ст. 1154 ГК РФ")
    first = verify_sources(loaded, CORPUS)[0]
    assert (
        first.benchmark,
        first.code,
        first.version,
        first.kind,
        first.act,
        first.article,
        first.priority,
    ) == ("ru-test", "NAS-01", loaded.version, "article", "ru/gk", "1152", "mandatory")


def test_a_corpus_refresh_that_drops_an_article_flags_the_source(etalons_root: Path) -> None:
    loaded = _loaded(etalons_root, "ст. 1154 ГК РФ")
    before = verify_sources(loaded, CORPUS)
    smaller = SetLookup([("gk-3", "ru/gk", a, a) for a in ("1152", "1153")])
    lost = lost_sources(before, verify_sources(loaded, smaller))
    assert [(c.citation, c.status) for c in lost] == [("ст. 1154 ГК РФ", "not_found")]


def test_the_report_says_whether_the_etalon_can_be_signed_and_lists_each_source(etalons_root: Path) -> None:
    loaded = _loaded(etalons_root, "ст. 1999 ГК РФ")
    text = report(loaded, verify_sources(loaded, CORPUS))
    assert "cannot be signed: 1 source(s) unresolved" in text
    assert "| 3 | ст. 1999 ГК РФ | conditional | not_found |" in text

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from etalons.loader import LoadedEtalon, load_benchmarks
from etalons.signing import Signature, SigningRefused, sign, status_of
from etalons.verify import SourceCheck
from tests.etalons.etalon_files import ETALON_YAML, write_benchmark

AT = "2026-11-29T10:00:00+00:00"


@pytest.fixture
def loaded(etalons_root: Path) -> LoadedEtalon:
    write_benchmark(etalons_root, {"NAS-01.yaml": ETALON_YAML})
    return load_benchmarks(etalons_root).etalons[0]


def _checks(loaded: LoadedEtalon, status: str = "found") -> list[SourceCheck]:
    """Rows as the verifier gives them after a corpus lookup."""
    return [
        SourceCheck(
            loaded.benchmark,
            loaded.code,
            loaded.version,
            i,
            s.citation,
            s.priority,
            s.condition,
            "article",
            "ru/gk",
            s.citation.split()[1],
            None,
            None,
            None,
            None,
            None,
            status,
            "unit present in the corpus" if status == "found" else "the act has no such article",
        )
        for i, s in enumerate(loaded.etalon.sources, start=1)
    ]


def test_an_etalon_whose_sources_all_resolve_is_signed_for_its_current_version(loaded: LoadedEtalon) -> None:
    signature = sign(loaded, _checks(loaded), by="А. Юрист", at=AT)
    assert signature == Signature("ru-test", "NAS-01", loaded.version, "А. Юрист", AT)


@pytest.mark.parametrize("status", ["not_found", "unknown_act", "ambiguous"])
def test_signing_is_refused_naming_each_unresolved_source_and_why(loaded: LoadedEtalon, status: str) -> None:
    checks = _checks(loaded)
    checks[1] = replace(checks[1], status=status, reason="ГК РФ has no article 1153 in the corpus")
    with pytest.raises(SigningRefused) as refused:
        sign(loaded, checks, by="А. Юрист", at=AT)
    assert [c.citation for c in refused.value.unresolved] == ["ст. 1153 ГК РФ"]
    assert "ст. 1153 ГК РФ" in str(refused.value) and "no article 1153" in str(refused.value)


def test_an_unverifiable_court_decision_does_not_block_signing(loaded: LoadedEtalon) -> None:
    checks = _checks(loaded)
    checks[2] = replace(checks[2], status="unverifiable", reason="lower courts are not in the corpus")
    assert sign(loaded, checks, by="А. Юрист", at=AT).version == loaded.version


@pytest.mark.parametrize(
    ("name", "mutate"),
    [
        ("checks of an older version", lambda cs: [replace(c, version="0" * 16) for c in cs]),
        ("one source left unchecked", lambda cs: cs[:-1]),
        ("no checks at all", lambda cs: []),
    ],
)
def test_signing_without_a_verification_of_every_current_source_is_refused(
    loaded: LoadedEtalon, name: str, mutate: object
) -> None:
    with pytest.raises(SigningRefused, match="not verified"):
        sign(loaded, mutate(_checks(loaded)), by="А. Юрист", at=AT)  # type: ignore[operator]


@pytest.mark.parametrize(("by", "at"), [("  ", AT), ("А. Юрист", "yesterday")])
def test_signing_needs_a_name_and_an_iso_time(loaded: LoadedEtalon, by: str, at: str) -> None:
    with pytest.raises(SigningRefused):
        sign(loaded, _checks(loaded), by=by, at=at)


@pytest.mark.parametrize(
    ("signed_version", "archived", "expected"),
    [
        ("current", False, "signed"),
        ("older", False, "pool"),
        (None, False, "pool"),
        ("current", True, "archived"),
    ],
)
def test_the_status_counts_only_a_signature_of_the_exact_version(
    signed_version: str | None, archived: bool, expected: str
) -> None:
    versions = {"current": "a" * 16, "older": "b" * 16}
    signatures = (
        []
        if signed_version is None
        else [Signature("ru-test", "NAS-01", versions[signed_version], "А. Юрист", AT)]
    )
    assert status_of(versions["current"], signatures, archived) == expected

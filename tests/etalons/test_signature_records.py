"""Signature events: an HMAC over what was signed and the cited units as they read; only genuine rows count."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from citations import SetLookup
from etalons.loader import LoadedEtalon, load_benchmarks
from etalons.signatures import CLI_VIA, changed_sources, cited_units, signature_record, verify_signatures
from etalons.signing import sign
from etalons.verify import verify_sources
from tests.etalons.etalon_files import ETALON_YAML, write_benchmark

KEY = bytes(range(32))
AT = "2026-11-29T10:00:00+00:00"
TEXTS = {"1152": "1. Для приобретения наследства наследник должен его принять.",
         "1153": "1. Принятие наследства осуществляется подачей заявления нотариусу.",
         "1154": "1. Наследство может быть принято в течение шести месяцев."}


def _corpus(texts: dict[str, str]) -> tuple[pa.Table, pa.Table]:
    documents = pa.table({"doc_id": ["ru/gk/part-3"], "act": ["ru/gk"], "kind": ["code"], "jurisdiction": ["ru"],
                          "court": [None], "number": [None]})
    units = pa.table({"doc_id": ["ru/gk/part-3"] * len(texts), "act": ["ru/gk"] * len(texts),
                      "article": list(texts), "path": list(texts), "kind": ["article"] * len(texts),
                      "text": list(texts.values())})
    return documents, units


@pytest.fixture
def loaded(etalons_root: Path) -> LoadedEtalon:
    write_benchmark(etalons_root, {"NAS-01.yaml": ETALON_YAML})
    return load_benchmarks(etalons_root).etalons[0]


def _record(loaded: LoadedEtalon, texts: dict[str, str] = TEXTS, key: bytes = KEY) -> dict[str, Any]:
    documents, units = _corpus(texts)
    lookup = SetLookup.from_tables(documents, units)
    signature = sign(loaded, verify_sources(loaded, lookup), by="А. Юрист", at=AT)
    return signature_record(signature, cited_units(loaded, lookup, units), CLI_VIA, key).to_row()


def test_a_signature_records_each_cited_unit_with_its_text_and_hash(loaded: LoadedEtalon) -> None:
    snapshot = json.loads(_record(loaded)["sources"])
    assert [(c["index"], c["cited"], c["doc_id"], c["unit_path"], c["text"]) for c in snapshot] == [
        (1, "ст. 1152 ГК РФ", "ru/gk/part-3", "1152", TEXTS["1152"]),
        (2, "ст. 1153 ГК РФ", "ru/gk/part-3", "1153", TEXTS["1153"]),
        (3, "ст. 1154 ГК РФ", "ru/gk/part-3", "1154", TEXTS["1154"])]
    assert all(len(c["text_sha256"]) == 64 and c["act"] == "ru/gk" for c in snapshot)


def test_a_signature_says_how_the_signer_was_identified(loaded: LoadedEtalon) -> None:
    row = _record(loaded)
    assert (row["via"], row["signed_by"], row["algorithm"]) == ("cli --by", "А. Юрист", "hmac-sha256/1")


def test_a_genuine_signature_verifies(loaded: LoadedEtalon) -> None:
    row = _record(loaded)
    assert verify_signatures([row], KEY) == ([row], [])


@pytest.mark.parametrize(("field", "value"), [
    ("benchmark", "other"), ("code", "NAS-02"), ("version", "0" * 16), ("signed_by", "Forger"),
    ("signed_at", "2030-01-01T00:00:00+00:00"), ("via", "sso"),
])
def test_a_signature_with_any_signed_field_altered_is_rejected(loaded: LoadedEtalon, field: str, value: str) -> None:
    row = {**_record(loaded), field: value}
    assert verify_signatures([row], KEY) == (
        [], [(row, "HMAC does not match: a signed field was altered after signing, or the row was forged")])


def test_a_signature_whose_snapshot_was_edited_is_rejected(loaded: LoadedEtalon) -> None:
    row = _record(loaded)
    row["sources"] = row["sources"].replace("шести месяцев", "трёх лет")
    [(_, reason)] = verify_signatures([row], KEY)[1]
    assert reason == "the snapshot of the cited sources was altered after signing"


def test_a_row_without_an_hmac_never_counts(loaded: LoadedEtalon) -> None:
    legacy = {k: _record(loaded)[k] for k in ("benchmark", "code", "version", "signed_by", "signed_at")}
    [(_, reason)] = verify_signatures([legacy], KEY)[1]
    assert reason.startswith("no HMAC: not written by `etalon sign`")


def test_a_signature_made_with_another_key_is_rejected_as_such(loaded: LoadedEtalon) -> None:
    row = _record(loaded, key=b"k" * 32)
    [(_, reason)] = verify_signatures([row], KEY)[1]
    assert reason.startswith("signed with another key")


def test_without_a_key_no_row_verifies(loaded: LoadedEtalon) -> None:
    assert verify_signatures([_record(loaded)], None)[0] == []


def test_an_amended_cited_unit_is_named_for_confirmation(loaded: LoadedEtalon) -> None:
    row = _record(loaded)
    _, units = _corpus({**TEXTS, "1154": "1. Наследство может быть принято в течение трёх месяцев."})
    [changed] = changed_sources(row, units)
    assert (changed.index, changed.unit_path, changed.current_sha256 is not None) == (3, "1154", True)
    assert changed.describe() == "sources[3] 'ст. 1154 ГК РФ': ru/gk/part-3 1154 reads differently now"


def test_a_cited_unit_gone_from_the_corpus_is_named_too(loaded: LoadedEtalon) -> None:
    row = _record(loaded)
    _, units = _corpus({k: v for k, v in TEXTS.items() if k != "1152"})
    assert [(c.unit_path, c.current_sha256) for c in changed_sources(row, units)] == [("1152", None)]


def test_an_unchanged_corpus_asks_for_no_confirmation(loaded: LoadedEtalon) -> None:
    assert changed_sources(_record(loaded), _corpus(TEXTS)[1]) == []

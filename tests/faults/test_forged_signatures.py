"""A signature written into the lake by hand never counts: only rows `etalon sign` made verify.

The attacks are the probe's: a signature event file (or a Parquet file) dropped into `lake/signatures/` signed
"Forger", a real signature file rewritten with another signer or time, a forger who copies a genuine row's HMAC, or who
signs with a key of their own. The etalon is signed through the `sign` action against a corpus ingested
into the lake, with the key file the warehouse makes on first use.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from app.actions import sign
from corpus.sources import Source
from corpus.store import refresh_source
from etalons.keys import KEY_ENV, key_path, signing_key
from etalons.signatures import CLI_VIA, CitedUnit, signature_record, verify_signatures
from etalons.signing import Signature
from tests.etalons.etalon_files import ETALON_YAML, write_benchmark
from warehouse.home import Home
from warehouse.lake import Lake

REPO = Path(__file__).resolve().parents[2]
CODE_WITH_THE_CITED_ARTICLES = REPO / "corpus" / "sample" / "ru" / "html" / "gk-part3.html"
FORGED = "Forger"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    """A warehouse whose corpus holds the articles the etalon cites, and NAS-01 signed once by `etalon sign`."""
    monkeypatch.delenv(KEY_ENV, raising=False)
    home = Home(root=tmp_path / "home", etalons_dir=tmp_path / "etalons", systems_file=tmp_path / "systems.yaml",
                sources_file=tmp_path / "home" / "sources.yaml")
    write_benchmark(home.etalons_dir, {"NAS-01.yaml": ETALON_YAML})
    refresh_source(Lake(home.lake), Source("gk", path=CODE_WITH_THE_CITED_ARTICLES), tmp_path / "staging")
    sign(home, "NAS-01", "Анна Сергеевна Воронцова")
    return home


def _rows(home: Home) -> list[dict[str, Any]]:
    return Lake(home.lake).read_all("signatures").to_pylist()


def _verify(home: Home) -> tuple[list[dict[str, Any]], list[tuple[dict[str, Any], str]]]:
    return verify_signatures(_rows(home), signing_key(home.root, home.lake, create=False))


def _drop(home: Home, name: str, rows: list[dict[str, Any]]) -> None:
    """Write each row as a signature event file beside the genuine one, as a forger with file access would."""
    folder = Lake(home.lake).table_dir("signatures") / "ru-test" / "NAS-01"
    for i, row in enumerate(rows):
        (folder / f"{name}{i}.json").write_text(json.dumps(row, ensure_ascii=False), encoding="utf-8")


def _genuine(home: Home) -> dict[str, Any]:
    [row] = _rows(home)
    return row


def test_a_signature_made_by_etalon_sign_verifies(home: Home) -> None:
    valid, rejected = _verify(home)
    assert ([(r["code"], r["signed_by"], r["via"]) for r in valid], rejected) == (
        [("NAS-01", "Анна Сергеевна Воронцова", CLI_VIA)], [])


def test_the_signature_holds_the_text_of_each_cited_article_as_signed(home: Home) -> None:
    snapshot = json.loads(_genuine(home)["sources"])
    assert [(c["cited"], c["unit_path"]) for c in snapshot] == [
        ("ст. 1152 ГК РФ", "1152"), ("ст. 1153 ГК РФ", "1153"), ("ст. 1154 ГК РФ", "1154")]
    assert snapshot[0]["text"].startswith("1. Для приобретения наследства наследник должен его принять.")


def test_a_forged_signature_file_in_the_signatures_folder_is_rejected(home: Home) -> None:
    genuine = _genuine(home)
    _drop(home, "f0rged", [{"benchmark": genuine["benchmark"], "code": "NAS-01", "version": genuine["version"],
                            "signed_by": FORGED, "signed_at": "2030-01-01T00:00:00+00:00"}])
    valid, rejected = _verify(home)
    assert [r["signed_by"] for r in valid] == ["Анна Сергеевна Воронцова"]
    assert [(r["signed_by"], why.split(":")[0]) for r, why in rejected] == [(FORGED, "no HMAC")]


def test_a_parquet_file_dropped_into_the_signatures_folder_is_not_read_as_a_signature(home: Home) -> None:
    genuine = _genuine(home)
    forged = {**genuine, "signed_by": FORGED}
    pq.write_table(pa.Table.from_pylist([forged]), Lake(home.lake).table_dir("signatures") / "f0rged.parquet")
    valid, rejected = _verify(home)
    assert ([r["signed_by"] for r in valid], rejected) == (["Анна Сергеевна Воронцова"], [])


def test_a_forgery_copying_a_genuine_rows_hmac_is_rejected(home: Home) -> None:
    _drop(home, "copied", [{**_genuine(home), "signed_by": FORGED}])
    [(row, why)] = _verify(home)[1]
    assert (row["signed_by"], why.startswith("HMAC does not match")) == (FORGED, True)


def test_a_genuine_signature_file_with_its_time_rewritten_is_rejected(home: Home) -> None:
    [file] = Lake(home.lake).files("signatures")
    row = json.loads(Path(file).read_text(encoding="utf-8"))
    Path(file).write_text(json.dumps({**row, "signed_at": "2020-01-01T00:00:00+00:00"}, ensure_ascii=False),
                          encoding="utf-8")
    valid, [(row, why)] = _verify(home)
    assert (valid, row["signed_at"], why.startswith("HMAC does not match")) == ([], "2020-01-01T00:00:00+00:00",
                                                                                True)


def test_a_forger_signing_with_a_key_of_their_own_is_rejected(home: Home) -> None:
    genuine = _genuine(home)
    signature = Signature(genuine["benchmark"], "NAS-01", genuine["version"], FORGED, genuine["signed_at"])
    unit = CitedUnit(1, "ст. 1152 ГК РФ", "ст. 1152 ГК РФ", "found", "ru/gk", "1152", "ru/gk/part-3", "1152",
                     "текст", None)
    forged = signature_record(signature, [unit], CLI_VIA, b"a key the forger made up....").to_row()
    _drop(home, "own-key", [forged, {**forged, "key_id": genuine["key_id"]}])
    assert [why.split(" (")[0].split(":")[0] for _, why in _verify(home)[1]] == [
        "signed with another key", "HMAC does not match"]


def test_the_key_is_in_no_file_of_the_lake(home: Home) -> None:
    key = signing_key(home.root, home.lake, create=False)
    assert key is not None and key_path(home.root).is_file()
    files = [p for p in Path(home.lake).rglob("*") if p.is_file()]
    cells = json.dumps([pq.read_table(p).to_pylist() for p in files if p.suffix == ".parquet"], ensure_ascii=False,
                       default=str)
    assert key.hex() not in cells and not any(key in p.read_bytes() for p in files)
    assert not key_path(home.root).resolve().is_relative_to(Path(home.lake).resolve())


def test_a_forged_signature_is_listed_by_etalon_status_as_ignored(home: Home) -> None:
    from app.overview import status

    _drop(home, "f0rged", [{**_genuine(home), "signed_by": FORGED}])
    lines = status(home)
    failing = next(line for line in lines if line.startswith("failing:"))
    assert "1 signature(s) rejected" in failing
    assert any(line.strip().startswith(f"- signature: NAS-01 by {FORGED} ignored: HMAC does not match")
               for line in lines), lines

"""Web-service records take their act key from the citations registry before any generic form."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
from samples import LEGISLATIE_RECORD
from shared_corpus import parsed

from corpus.ingest import parse_path
from corpus.model import Document
from corpus.ro.records import parse_record

SAMPLE = Path(__file__).resolve().parents[2] / "corpus" / "sample" / "ro" / "legislatie"


@cache
def _sample() -> dict[str, Document]:
    return {d.doc_id: d for d in parse_path(SAMPLE, "sample") if isinstance(d, Document)}


def _fixtures() -> dict[str, Document]:
    return {d.doc_id: d for d in parsed("ro/legislatie-just-ro-soap/fixtures.jsonl") if isinstance(d, Document)}


def _record(**fields: str) -> dict[str, Any]:
    return {**LEGISLATIE_RECORD, **fields}


@pytest.mark.parametrize(("doc_id", "act"), [
    ("ro/just/128647", "ro/cmuncii"),
    ("ro/just/171282", "ro/cfiscal"),
    ("ro/just/29749", "ro/og-2-2001"),
    ("ro/just/159159", "ro/oug-34-2014"),
    ("ro/just/56981", "ro/lege-31-1990"),
    ("ro/just/87811", None),
])
def test_a_sample_record_gets_the_registrys_canonical_act_key(doc_id: str, act: str | None) -> None:
    assert _sample()[doc_id].act == act


def test_every_unit_of_the_labour_code_record_carries_the_canonical_key() -> None:
    assert {u.act for u in _sample()["ro/just/128647"].units} == {"ro/cmuncii"}


@pytest.mark.parametrize(("doc_id", "kind"), [("ro/just/128647", "code"), ("ro/just/159286", "law")])
def test_a_law_that_enacts_a_code_is_filed_as_a_code(doc_id: str, kind: str) -> None:
    assert _sample()[doc_id].kind == kind


@pytest.mark.parametrize(("doc_id", "act"), [
    ("ro/just/311094", "ro/lege-87-2026"),  # its title amends an ordinance: the law is still law 87/2026
    ("ro/just/311056", None),  # a notice published under a law is not that law
    ("ro/just/156732", "ro/hotarare-14-2014"),  # a chamber's decision is no Government decision (HG)
    ("ro/just/63470", "ro/decret-651-2005"),
])
def test_a_fixture_record_is_keyed_by_its_own_name_not_by_acts_its_title_mentions(
    doc_id: str, act: str | None
) -> None:
    assert _fixtures()[doc_id].act == act


@pytest.mark.parametrize(("fields", "act"), [
    ({"Titlu": "LEGE nr. 287 din 17 iulie 2009 privind Codul civil", "Numar": "287"}, "ro/cciv"),
    ({"Titlu": "LEGE nr. 134 din 1 iulie 2010 privind Codul de procedură civilă", "Numar": "134"}, "ro/cpc"),
    ({"Titlu": "ORDONANȚĂ nr. 2 din 12 iulie 2001 privind contravențiile", "Numar": "2", "TipAct": "ORDONANȚĂ"},
     "ro/og-2-2001"),
    ({"Titlu": "LEGE nr. 999 din 3 martie 2021 privind probele", "Numar": "999"}, "ro/lege-999-2021"),
])
def test_an_authored_record_gets_the_registry_key_or_else_the_generic_one(fields: dict[str, str], act: str) -> None:
    assert parse_record(_record(**fields), "line 1").act == act


def test_a_record_without_plus_separators_is_split_at_its_heading_lines() -> None:
    # the shape of a record saved from the act's web page: one block per line, no '+' lines
    text = ("LEGE nr. 7 din 3 martie 2021\nprivind probele\nEMITENT\nPARLAMENTUL ROMÂNIEI\n"
            "CAPITOLUL I\nDispoziții generale\nArticolul 1\nObiectul legii\n(1) Prima regulă.\n(2) A doua regulă:\n"
            "a) litera a;\nArticolul 2\nText simplu.\nAceastă lege a fost adoptată de Parlamentul României.\n"
            "PREȘEDINTELE CAMEREI DEPUTAȚILOR")
    units = {u.path: u for u in parse_record(_record(Text=text), "line 1").units}
    assert list(units) == ["1", "1/1", "1/2", "1/2/a", "2"]
    assert units["1"].heading == "Obiectul legii"
    assert units["1/2/a"].context == "CAPITOLUL I Dispoziții generale"
    assert units["2"].text == "Text simplu."


def test_a_marker_parted_from_its_text_by_a_run_of_spaces_keeps_its_text() -> None:
    # the service's text sets a marker apart: "(1)    Text", or two spaces before it at the end of the line above
    text = ("LEGE nr. 7\n+\nArticolul 1       (1)    Prima regulă.    (2)    A doua regulă, pentru:  a)\n"
            "primul caz;    b)    al doilea caz.\n+\nArticolul 2       Definiții:  1.\nprimul termen.")
    units = {u.path: u.text for u in parse_record(_record(Text=text), "line 1").units}
    assert units["1/1"] == "(1) Prima regulă."
    assert units["1/2"] == "(2) A doua regulă, pentru:"
    assert units["1/2/a"] == "a) primul caz;"
    assert units["1/2/b"] == "b) al doilea caz."
    assert units["2/1"] == "1. primul termen."


@pytest.mark.parametrize(("vigoare", "date"), [
    ("2004-11-28", "2004-11-28"),
    ("2004-11-28T00:00:00", "2004-11-28"),  # a SOAP client's datetime, serialised
    ("28.11.2004", "2004-11-28"),  # day first, as Romanian dates are written
    ("/Date(1101600000000)/", "2004-11-28"),  # .NET JSON
    ("", None),
])
def test_the_date_in_force_is_iso_however_the_record_writes_it(vigoare: str, date: str | None) -> None:
    fields = {"Titlu": "LEGE nr. 7 din 2004 privind probele", "Numar": "7", "DataVigoare": vigoare}
    assert parse_record(_record(**fields), "line 1").date == date


@pytest.mark.parametrize("text", [
    "LEGE nr. 7\n + \nArticolul 1   Prima regulă.\n+\nArticolul 2\n(1) Alineat.\n(2) Alt alineat.",
    "LEGE nr. 7   +   Articolul 1   Prima regulă.    +    Articolul 2   (1) Alineat.   (2) Alt alineat.",
    "LEGE nr. 7\n\t+\t\nArticolul 1\nPrima regulă.\n  +  \nArticolul 2\t\t\t(1) Alineat.\n(2) Alt alineat.",
])
def test_blocks_and_paragraphs_split_on_plus_lines_newlines_and_runs_of_spaces(text: str) -> None:
    units = parse_record(_record(Text=text), "line 1").units
    assert [(u.path, u.text) for u in units] == [
        ("1", "Prima regulă."), ("2", "(1) Alineat.\n(2) Alt alineat."),
        ("2/1", "(1) Alineat."), ("2/2", "(2) Alt alineat."),
    ]

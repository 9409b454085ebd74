"""Act identification through the shared registry, web-service records and Akoma Ntoso documents."""

from __future__ import annotations

import pytest
from shared_corpus import document, parsed

from corpus.acts import act_for_name
from corpus.model import Document

GK_PARTS = [
    ("ru/pravo-gov-ru-html/102033239.html", "ru/gk/part-1"),
    ("ru/pravo-gov-ru-html/102073578.html", "ru/gk/part-3"),
]


def _records() -> dict[str, Document]:
    return {d.doc_id: d for d in parsed("ro/legislatie-just-ro-soap/fixtures.jsonl") if isinstance(d, Document)}


@pytest.mark.parametrize(("file", "doc_id"), GK_PARTS)
def test_every_civil_code_part_is_act_gk_with_its_own_doc_id(file: str, doc_id: str) -> None:
    doc = document(file)
    assert (doc.act, doc.doc_id) == ("ru/gk", doc_id)


@pytest.mark.parametrize(("article", "doc_id"), [("1152", "ru/gk/part-3"), ("196", "ru/gk/part-1")])
def test_a_civil_code_article_resolves_to_the_one_part_that_holds_it(article: str, doc_id: str) -> None:
    act = act_for_name("ГК РФ", "ru")
    holders = {d.doc_id for f, _ in GK_PARTS for d in [document(f)] if d.act == act
               and any(u.article == article and u.kind == "article" for u in d.units)}
    assert holders == {doc_id}


@pytest.mark.parametrize(("name", "jurisdiction", "act"), [
    ("ГК РФ", "ru", "ru/gk"),
    ("Гражданский кодекс Российской Федерации", "ru", "ru/gk"),
    ("C.civ.", "ro", "ro/cciv"),
    ("Codul civil", "ro", "ro/cciv"),
    ("Legea nr. 287/2009", "ro", "ro/cciv"),
    ("NCPC", "ro", "ro/cpc"),
])
def test_every_name_an_act_goes_by_gives_its_canonical_key(name: str, jurisdiction: str, act: str) -> None:
    assert act_for_name(name, jurisdiction) == act


@pytest.mark.parametrize(("doc_id", "issuer"), [
    ("ro/just/311102", "PREȘEDINTELE ROMÂNIEI"),
    ("ro/just/311054", "CURTEA CONSTITUȚIONALĂ"),
    ("ro/just/311107", "CURTEA DE APEL IAȘI"),
    ("ro/just/272797", "ÎNALTA CURTE DE CASAȚIE ȘI JUSTIȚIE"),
])
def test_question_marks_for_diacritics_are_restored_from_the_record_text(doc_id: str, issuer: str) -> None:
    assert _records()[doc_id].issuer == issuer


def test_cedilla_letters_are_unified_to_comma_below() -> None:
    title = _records()["ro/just/311094"].title
    assert ("Ordonanței de urgență" in title, "ţ" in title or "ş" in title) == (True, False)


@pytest.mark.parametrize(("doc_id", "kind", "act", "court"), [
    ("ro/just/311094", "law", "ro/lege-87-2026", None),
    ("ro/just/308123", "law", "ro/oug-11-2026", None),
    ("ro/just/311054", "decision", None, "CCR"),
    ("ro/just/272797", "decision", None, "ÎCCJ"),
])
def test_records_get_kind_act_key_and_court(doc_id: str, kind: str, act: str | None, court: str | None) -> None:
    d = _records()[doc_id]
    assert (d.kind, d.act, d.court) == (kind, act, court)


def test_a_record_without_a_number_has_no_number() -> None:
    assert _records()["ro/just/286561"].number is None


def test_a_record_split_into_articles_gives_one_unit_per_article() -> None:
    arts = [u.path for u in _records()["ro/just/311094"].units if u.kind == "article"]
    assert arts == ["unic", "I^13", "1", "2", "3", "4"]


def test_a_constitutional_court_decision_is_its_numbered_paragraphs() -> None:
    units = _records()["ro/just/311054"].units
    assert [(u.path, u.kind) for u in units] == [(str(n), "point") for n in range(1, 18)]
    assert units[3].text.startswith("4. Prin Sentința civilă nr. 6.689 din 23 octombrie 2020")


def test_a_narrative_record_is_kept_as_one_text_unit() -> None:
    units = _records()["ro/just/272797"].units
    assert [(u.path, u.kind) for u in units] == [("text", "text")]


AKN = [
    ("akn/oasis-examples/uk_pga-2014-27-enacted-data.xml", "1/2/a", "paragraph",
     "relate to a particular operator or any description of operators,"),
    ("akn/oasis-examples/us_Title9-Chap3-eng.xml", "303/a", "subsection", "A court having jurisdiction"),
    ("akn/oasis-examples/eu_COM(2013)0619_EN-8.xml", "1/1", "paragraph", "This Regulation establishes rules"),
    ("akn/oasis-examples/za_Judgement_2008-11-26.xml", "1", "point", "The appellant ('Fourway') is a long"),
]


@pytest.mark.parametrize(("file", "path", "kind", "begins"), AKN)
def test_akoma_ntoso_hierarchy_gives_units_by_num(file: str, path: str, kind: str, begins: str) -> None:
    u = next(u for u in document(file).units if u.path == path)
    assert (u.kind, u.text.startswith(begins)) == (kind, True)


def test_an_akoma_ntoso_judgment_is_a_decision() -> None:
    doc = document("akn/oasis-examples/za_Judgement_2008-11-26.xml")
    assert (doc.kind, len([u for u in doc.units if u.kind == "point"])) == ("decision", 16)


DEBATES = [
    ("akn/oasis-examples/ke_Debate_Bungeni_2011-06-10.xml", "4/1/2", "speech", "The Speaker:", "Hon. Members, yes"),
    ("akn/oasis-examples/cl_Sesion56_2.xml", "II/1", "speech", "El señor ASCENCIO (Presidente).-",
     "En el nombre de Dios"),
    ("akn/oasis-examples/cl_Sesion56_2.xml", "III", "section", "ACTAS", "El acta de la sesión"),
]


@pytest.mark.parametrize(("file", "path", "kind", "heading", "begins"), DEBATES)
def test_an_akoma_ntoso_debate_gives_its_sections_and_speeches_with_their_speakers(
        file: str, path: str, kind: str, heading: str, begins: str) -> None:
    u = next(u for u in document(file).units if u.path == path)
    assert (u.kind, u.heading, u.text.startswith(begins)) == (kind, heading, True)

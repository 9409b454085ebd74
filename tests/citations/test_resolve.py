"""Resolution against a small corpus built as the warehouse tables are: found, invented, wrong act, unknown."""

from __future__ import annotations

import pyarrow as pa
import pytest

from citations import SetLookup, extract, resolve

DOCUMENTS = pa.table({
    "doc_id": ["gk1", "gk3", "tk", "plenum9", "cciv", "ccr-766"],
    "act": ["ru/gk", "ru/gk", "ru/tk", None, "ro/cciv", None],
    "kind": ["act", "act", "act", "decision", "act", "decision"],
    "court": [None, None, None, "ВС РФ Пленум", None, "CCR"],
    "number": [None, None, None, "9", None, "766"],
})  # fmt: skip
UNITS = pa.table({
    "doc_id": ["gk1", "gk3", "gk3", "gk3", "tk", "tk", "cciv", "cciv", "plenum9"],
    "act": ["ru/gk", "ru/gk", "ru/gk", "ru/gk", "ru/tk", "ru/tk", "ro/cciv", "ro/cciv", None],
    "article": ["10", "1152", "1153", "1154", "81", "10", "1272", "1273", "36"],
    "path": ["ст. 10", "ст. 1152", "ст. 1153", "ст. 1154", "ст. 81", "ст. 10", "art. 1272", "art. 1273", "36"],
    "kind": ["article"] * 8 + ["point"],
    "text": ["..."] * 9,
    "status": ["in_force"] * 9,
})  # fmt: skip
LOOKUP = SetLookup.from_tables(DOCUMENTS, UNITS)


def status_of(text: str) -> str:
    [r] = resolve(extract(text), LOOKUP)
    return r.status


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("ст. 1152 ГК РФ", "found"),
        ("ст. 1152–1154 ГК РФ", "found"),
        ("art. 1.272 C.civ.", "found"),
        ("ст. 1999 ГК РФ", "not_found"),
        ("ст. 1152–1199 ГК РФ", "not_found"),
        ("ст. 5 ЖК РФ", "unknown_act"),
        ("п. 36 постановления Пленума ВС РФ от 29.05.2012 № 9", "found"),
        ("п. 37 постановления Пленума ВС РФ от 29.05.2012 № 9", "not_found"),
        ("постановление Пленума ВС РФ от 01.01.2015 № 77", "unknown_act"),  # other resolutions prove nothing
        ("Decizia CCR nr. 766/2011", "found"),
        ("Curtea de Apel Cluj, Decizia nr. 412/2019", "unverifiable"),
        ("hotărârea CJUE în cauza C-186/16", "unverifiable"),
        ("Трудовой кодекс", "found"),
        ("п. 61 постановления Пленума ВС РФ и Пленума ВАС РФ от 29.04.2010 № 10/22", "unknown_act"),
        ("Гражданский кодекс", "found"),  # held as two documents (parts one and three), still the one act
        ("ст. 808 ГК РФ", "unknown_act"),  # part two of the Civil Code is not in this corpus
        ("ст. 300 ГК РФ", "not_found"),  # part one is: an article missing from it is invented
        ("art. 6 din Regulamentul (UE) 2016/679", "unverifiable"),  # EU acts are outside the corpus by design
        ("Directiva 2011/83/UE", "unverifiable"),
        ("art. 6 din Convenția europeană a drepturilor omului", "unverifiable"),
        ("статья 1 Протокола № 1 к Конвенции о защите прав человека и основных свобод", "unverifiable"),
        ("ст. 5 Закона г. Москвы от 05.05.2010 № 17", "unverifiable"),  # a regional law
        ("art. 3 din Ordinul ministrului sănătății nr. 1.468/2018", "unknown_act"),  # national: could be held
    ],
)
def test_each_citation_gets_the_status_a_reviewer_expects(text: str, status: str) -> None:
    assert status_of(text) == status


def test_a_found_article_names_its_document_and_unit() -> None:
    [r] = resolve(extract("ст. 81 ТК РФ"), LOOKUP)
    assert (r.doc_id, r.unit_path) == ("tk", "ст. 81")


def test_an_article_cited_in_the_wrong_act_names_the_act_that_has_it() -> None:
    [r] = resolve(extract("ст. 81 ГК РФ"), LOOKUP)
    assert r.status == "not_found"
    assert r.other_acts == ("ru/tk",)
    assert "ru/tk" in r.reason


def test_an_article_in_two_documents_of_the_same_act_is_ambiguous() -> None:
    units = pa.concat_tables([UNITS, UNITS.slice(1, 1).set_column(0, "doc_id", pa.array(["gk3-old"]))])
    [r] = resolve(extract("ст. 1152 ГК РФ"), SetLookup.from_tables(DOCUMENTS, units))
    assert r.status == "ambiguous"


def test_an_article_of_a_part_the_corpus_lacks_says_which_part() -> None:
    [r] = resolve(extract("п. 1 ст. 808 ГК РФ"), LOOKUP)
    assert "часть вторая" in r.reason


def test_resolutions_keep_the_order_of_the_citations() -> None:
    cites = extract("ст. 1154 ГК РФ, ст. 1999 ГК РФ и ст. 5 ЖК РФ")
    assert [r.citation for r in resolve(cites, LOOKUP)] == cites


def test_a_units_table_without_the_article_column_is_refused() -> None:
    with pytest.raises(ValueError, match="article"):
        SetLookup.from_tables(DOCUMENTS, UNITS.drop_columns(["article"]))

"""A citation's subdivision resolves to the deepest unit the corpus holds, as `etalon corpus show` prints it.

The small corpus below is authored for the test and shaped as the corpus readers emit it: a Labour-Code-style
article of plain parts (части) with points "1)" and letters "а)", a Civil-Code-style article of numbered
пункты "1." with sub-points, a Romanian article of alineate with letters, and a Plenum resolution by point.
"""

from __future__ import annotations

import pyarrow as pa
import pytest

from citations import SetLookup, extract, resolve
from citations.units import part_levels

DOCUMENTS = pa.table({
    "doc_id": ["tk", "gk", "cciv", "plenum9", "uk", "konst"],
    "jurisdiction": ["ru", "ru", "ro", "ru", "ru", "ru"],
    "act": ["ru/tk", "ru/gk", "ro/cciv", None, "ru/uk", "ru/konst"],
    "kind": ["code", "code", "code", "resolution", "code", "constitution"],
    "court": [None, None, None, "ВС РФ Пленум", None, None],
    "number": [None, None, None, "9", None, None],
})  # fmt: skip
ROWS = [
    # doc, act, article, path, kind, text
    ("tk", "ru/tk", "81", "81", "article", "Работодатель может расторгнуть договор в случаях:"),
    ("tk", "ru/tk", "81", "81/1", "part", "Работодатель может расторгнуть договор в случаях:"),
    ("tk", "ru/tk", "81", "81/1/3", "point", "3) несоответствия занимаемой должности;"),
    ("tk", "ru/tk", "81", "81/1/6", "point", "6) грубого нарушения обязанностей:"),
    ("tk", "ru/tk", "81", "81/1/6/а", "letter", "а) прогула;"),
    ("tk", "ru/tk", "81", "81/2", "part", "Увольнение по пункту 2 допускается, если..."),
    ("tk", "ru/tk", "81", "81/3", "part", "Увольнение по пункту 3 допускается, если..."),
    ("gk", "ru/gk", "8", "8", "article", "1. Права возникают:"),
    ("gk", "ru/gk", "8", "8/1", "part", "1. Права возникают:"),
    ("gk", "ru/gk", "8", "8/1/1", "point", "1) из договоров;"),
    ("gk", "ru/gk", "8", "8/1/3", "point", "3) из судебного решения;"),
    ("gk", "ru/gk", "8", "8/2", "part", "2. Утратил силу."),
    ("gk", "ru/gk", "8", "8/3", "part", "3. Права возникают также из событий."),
    ("cciv", "ro/cciv", "1110", "1110", "article", "(1) Acte de acceptare:"),
    ("cciv", "ro/cciv", "1110", "1110/1", "paragraph", "(1) Acte de acceptare:"),
    ("cciv", "ro/cciv", "1110", "1110/1/a", "letter", "a) înstrăinarea;"),
    ("cciv", "ro/cciv", "1110", "1110/1/b", "letter", "b) renunțarea;"),
    ("cciv", "ro/cciv", "1110", "1110/2", "paragraph", "(2) Actele de conservare nu valorează acceptare."),
    ("plenum9", None, "34", "34", "point", "34. Наследник, принявший наследство, отвечает..."),
    ("uk", "ru/uk", "105", "105", "article", "Убийство наказывается..."),
    ("uk", "ru/uk", "105", "105/1", "part", "Убийство наказывается..."),
    ("uk", "ru/uk", "105", "105/2", "part", "Убийство:"),
    ("uk", "ru/uk", "105", "105/2/а", "letter", "а) двух или более лиц;"),
    ("uk", "ru/uk", "105", "105/2/в", "letter", "в) малолетнего или иного лица, заведомо беспомощного;"),
    ("konst", "ru/konst", "83", "83", "article", "Президент Российской Федерации:"),
    ("konst", "ru/konst", "83", "83/1", "part", "Президент Российской Федерации:"),
    ("konst", "ru/konst", "83", "83/1/а", "letter", "а) назначает выборы;"),
    ("konst", "ru/konst", "83", "83/1/б", "letter", "б) вносит предложения;"),
]
UNITS = pa.table({name: [row[i] for row in ROWS]
                  for i, name in enumerate(("doc_id", "act", "article", "path", "kind", "text"))})  # fmt: skip
LOOKUP = SetLookup.from_tables(DOCUMENTS, UNITS)


@pytest.mark.parametrize(
    ("citation", "unit_path"),
    [
        ("п. 3 ч. 1 ст. 81 ТК РФ", "81/1/3"),
        ("ч. 3 ст. 81 ТК РФ", "81/3"),
        ("п. 3 ст. 81 ТК РФ", "81/1/3"),  # the part left out: the one part that has point 3
        ('пп. "а" п. 6 ч. 1 ст. 81 ТК РФ', "81/1/6/а"),
        ("п. 9 ч. 1 ст. 81 ТК РФ", "81/1"),  # no point 9: the deepest unit that exists
        ("ч. 5 ст. 81 ТК РФ", "81"),
        ("ст. 81 ТК РФ", "81"),
        ("п. 3 ст. 8 ГК РФ", "8/3"),  # numbered пункты: п. is the first level, not point 3) of п. 1
        ("подп. 1 п. 1 ст. 8 ГК РФ", "8/1/1"),
        ("абз. 2 п. 3 ст. 8 ГК РФ", "8/3"),
        ("art. 1.110 alin. (1) lit. b) C.civ.", "1110/1/b"),
        ("art. 1.110 alin. (2) C.civ.", "1110/2"),
        ("art. 1.110 lit. a) C.civ.", "1110/1/a"),
        ("alin. (2) al art. 1.110 C.civ.", "1110/2"),
        ("п. «в» ч. 2 ст. 105 УК РФ", "105/2/в"),  # a letter of a plain часть is cited as its пункт
        ("п. «б» ст. 83 Конституции РФ", "83/1/б"),  # ... also when the writer leaves the one часть out
        ("п. «б» ч. 1 ст. 83 Конституции РФ", "83/1/б"),
        ("подп. «б» ст. 83 Конституции РФ", "83/1/б"),
    ],
)
def test_a_cited_subdivision_resolves_to_the_deepest_unit_that_holds_it(
    citation: str, unit_path: str
) -> None:
    [r] = resolve(extract(citation), LOOKUP)
    assert (r.status, r.unit_path) == ("found", unit_path)


def test_a_plenum_point_resolves_to_that_point_of_the_resolution() -> None:
    [r] = resolve(extract("п. 34 постановления Пленума ВС РФ от 29.05.2012 № 9"), LOOKUP)
    assert (r.status, r.doc_id, r.unit_path) == ("found", "plenum9", "34")


def test_a_plenum_point_the_resolution_lacks_is_not_found() -> None:
    [r] = resolve(extract("п. 35 постановления Пленума ВС РФ от 29.05.2012 № 9"), LOOKUP)
    assert (r.status, r.unit_path) == ("not_found", None)
    assert "point 35" in r.reason


def test_a_point_in_two_parts_without_the_part_named_stays_at_the_article() -> None:
    rows = [*ROWS, ("tk", "ru/tk", "81", "81/3/3", "point", "3) иное основание;")]
    units = pa.table({name: [row[i] for row in rows]
                      for i, name in enumerate(("doc_id", "act", "article", "path", "kind", "text"))})  # fmt: skip
    [r] = resolve(extract("п. 3 ст. 81 ТК РФ"), SetLookup.from_tables(DOCUMENTS, units))
    assert r.unit_path == "81"


@pytest.mark.parametrize(
    ("part", "levels"),
    [
        ("п. 3 ч. 1", [("ч", "1"), ("п", "3")]),
        ("пп. а п. 6 ч. 1", [("ч", "1"), ("п", "6"), ("пп", "а")]),
        ("абз. 2 п. 1", [("п", "1")]),
        ("alin. (2) lit. a)", [("alin", "2"), ("lit", "a")]),
        ("lit. c) alin. (3)", [("alin", "3"), ("lit", "c")]),
        ("pct. 12 lit. a)", [("pct", "12"), ("lit", "a")]),
        (None, []),
    ],
)
def test_a_part_reads_as_levels_outermost_first(part: str | None, levels: list[tuple[str, str]]) -> None:
    assert part_levels(part) == levels


def test_a_plenum_point_of_a_resolution_stored_without_its_points_resolves_to_the_resolution() -> None:
    lookup = SetLookup([], decisions=[("plenum9", "ВС РФ Пленум", "9")])
    [r] = resolve(extract("п. 35 постановления Пленума ВС РФ от 29.05.2012 № 9"), lookup)
    assert (r.status, r.doc_id, r.unit_path) == ("found", "plenum9", None)

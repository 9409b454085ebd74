"""A Romanian code in Markdown is known by the act it was adopted as, whatever the header calls it."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus.ingest import parse_path
from corpus.model import Document

BODY = "\n\n## TITLUL I Dispoziții generale\n\n###### Articolul 1\n\n(1) Primul alineat.\n(2) Al doilea alineat.\n"


@pytest.mark.parametrize(("header", "act", "number"), [
    ("# Codul de test\n\nLegea nr. 287/2009\nForma adoptată la 25 iunie 2009", "ro/cciv", "287/2009"),
    ("# Codul de test\n\nOUG nr. 195/2002\nActualizat la 5 februarie 2025", "ro/oug-195-2002", "195/2002"),
    ("# Codul de test\n\nLegea 53 din 2003\nActualizata in 2022 prin Legea 283 din 2022", "ro/cmuncii", "53/2003"),
    ("# Codul de test\n\nGuvernul României\nParte integrantă din Ordonanţă de urgenţă 57/2019\n"
     "Modificat prin Legea nr. 296/2023", "ro/oug-57-2019", "57/2019"),
    ("# Legea de test\n\nLegea nr. 31 din 16 noiembrie 1990 privind societățile", "ro/lege-31-1990", "31/1990"),
    ("# Codul de test\n\nForma consolidată: O.U.G. nr. 8/2026\nLegea nr. 227/2015 privind Codul fiscal", "ro/cfiscal",
     "227/2015"),
], ids=["law number", "emergency ordinance", "number without nr.", "part of an ordinance", "date in words",
        "consolidating act first"])
def test_a_code_in_markdown_is_known_by_the_act_it_was_adopted_as(tmp_path: Path, header: str, act: str,
                                                                  number: str) -> None:
    (tmp_path / "cod.md").write_text(header + BODY, encoding="utf-8")
    [doc] = parse_path(tmp_path / "cod.md", "test")
    assert isinstance(doc, Document)
    assert (doc.act, doc.number) == (act, number)


def test_a_markdown_code_without_an_act_line_has_no_number(tmp_path: Path) -> None:
    (tmp_path / "cod.md").write_text("# Constituția de test\n\nRepublicată în Monitorul Oficial nr. 767/2003" + BODY,
                                     encoding="utf-8")
    [doc] = parse_path(tmp_path / "cod.md", "test")
    assert isinstance(doc, Document)
    assert doc.number is None

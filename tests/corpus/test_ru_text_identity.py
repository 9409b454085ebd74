"""A Russian code exported as text is known by its own title, and is a part of an act only when the act was
enacted in parts. The headers below are authored in the shape of consultant text exports."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus.ingest import parse_path
from corpus.model import Document

BODY = "\n\nРаздел I. ОБЩИЕ ПОЛОЖЕНИЯ\n\nГлава 1. ОСНОВНЫЕ НАЧАЛА\n\nСтатья 1. Цели\nЦелями являются гарантии.\n"
CONSULTANT = ('"{quoted}" от 01.02.2003 N 10-ФЗ\n(ред. от 31.07.2025)\nДокумент предоставлен КонсультантПлюс\n\n'
              "www.consultant.ru\n\n1 февраля 2003 года N 10-ФЗ\n\n----------\n\n{caps}\n\n{part}\n\nПринят\n"
              "Государственной Думой\n20 января 2003 года")


@pytest.mark.parametrize(("quoted", "caps", "part", "doc_id", "title"), [
    ("Трудовой кодекс Российской Федерации", "ТРУДОВОЙ КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ", "ЧАСТЬ ПЕРВАЯ", "ru/tk",
     "ТРУДОВОЙ КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ"),
    ("Гражданский кодекс Российской Федерации (часть вторая)", "ГРАЖДАНСКИЙ КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ",
     "ЧАСТЬ ВТОРАЯ", "ru/gk/part-2", "ГРАЖДАНСКИЙ КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ. Часть 2"),
    ("Семейный кодекс Российской Федерации", "СЕМЕЙНЫЙ КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ", "", "ru/sk",
     "СЕМЕЙНЫЙ КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ"),
], ids=["a heading ЧАСТЬ ПЕРВАЯ of a code enacted whole", "a part of the Civil Code", "no part"])
def test_a_text_export_of_a_code_is_known_by_its_own_title_and_part(
        tmp_path: Path, quoted: str, caps: str, part: str, doc_id: str, title: str) -> None:
    (tmp_path / "code.txt").write_text(CONSULTANT.format(quoted=quoted, caps=caps, part=part) + BODY, encoding="utf-8")
    [doc] = parse_path(tmp_path / "code.txt", "test")
    assert isinstance(doc, Document)
    assert (doc.doc_id, doc.title) == (doc_id, title)


@pytest.mark.parametrize(("first_line", "status"), [
    ("Утратил силу - Федеральный закон от 27.11.2010 N 311-ФЗ", "repealed"),
    ("(Документ утратил силу с 01.01.2011)", "repealed"),
    ("(в ред. Федерального закона от 01.02.2003 N 10-ФЗ)", "in_force"),
])
def test_a_code_headed_as_repealed_is_a_repealed_document(tmp_path: Path, first_line: str, status: str) -> None:
    (tmp_path / "code.txt").write_text(f"{first_line}\nТАМОЖЕННЫЙ КОДЕКС РОССИЙСКОЙ ФЕДЕРАЦИИ" + BODY, encoding="utf-8")
    [doc] = parse_path(tmp_path / "code.txt", "test")
    assert isinstance(doc, Document)
    assert doc.status == status

"""Bytes that are not UTF-8: reported where they are, never re-decoded into another alphabet."""

from __future__ import annotations

from pathlib import Path

from samples import LAW_TEXT

from corpus.ingest import parse_path
from corpus.model import Document, IngestError

# Written for these tests: a Romanian code in the layout of the converted PDFs, with its diacritics.
RO_CODE = """# CODUL CIVIL

Legea nr. 287/2009 privind Codul civil, republicată

###### Art. 374

Condițiile divorțului prin acord

(1) Divorțul prin acordul soților poate fi pronunțat indiferent de durata căsătoriei.
(2) Soții își pot exprima acordul și în fața ofițerului de stare civilă.

###### Art. 375

Divorțul prin acordul soților

(1) Dacă soții sunt de acord cu divorțul și nu au copii minori, născuți din căsătorie, acesta se poate
constata de ofițerul de stare civilă sau de notarul public.
"""


def _read(tmp_path: Path, name: str, data: bytes) -> tuple[list[Document], list[IngestError]]:
    (tmp_path / name).write_bytes(data)
    found = list(parse_path(tmp_path / name, "src"))
    return [d for d in found if isinstance(d, Document)], [e for e in found if isinstance(e, IngestError)]


def _with_stray_byte(text: str, before: str) -> tuple[bytes, int]:
    data = text.encode("utf-8")
    at = data.index(before.encode("utf-8"))
    return data[:at] + b"\xff" + data[at:], at


def test_a_utf8_code_with_one_stray_byte_is_read_as_utf8_and_the_byte_reported(tmp_path: Path) -> None:
    data, at = _with_stray_byte(RO_CODE, "Condițiile")
    [document], [error] = _read(tmp_path, "codul_civil.md", data)
    [unit] = [u for u in document.units if u.path == "375/1"]
    assert unit.text.startswith("(1) Dacă soții sunt de acord cu divorțul și nu au copii minori")
    assert (error.reason, error.position, error.file) == ("invalid_utf8", f"byte {at}", str(tmp_path / "codul_civil.md"))


def test_a_stray_byte_becomes_one_replacement_character_in_the_stored_text(tmp_path: Path) -> None:
    data, at = _with_stray_byte(RO_CODE, "Divorțul prin acordul soților poate")
    [document], _ = _read(tmp_path, "codul_civil.md", data)
    [unit] = [u for u in document.units if u.path == "374/1"]
    assert unit.text == "(1) \ufffdDivorțul prin acordul soților poate fi pronunțat indiferent de durata căsătoriei."
    assert document.encoding == f"utf-8 (1 invalid byte sequence(s) at byte {at} shown as U+FFFD)"


def test_no_cyrillic_letter_appears_in_a_romanian_text_with_a_stray_byte(tmp_path: Path) -> None:
    data, _ = _with_stray_byte(RO_CODE, "Art. 375")
    [document], _ = _read(tmp_path, "codul_civil.md", data)
    assert not any("\u0400" <= c <= "\u04ff" for u in document.units for c in u.text)


def test_utf8_and_windows_1251_pasted_together_are_refused_as_mixed(tmp_path: Path) -> None:
    half = len(LAW_TEXT) // 2
    data = LAW_TEXT[:half].encode("utf-8") + LAW_TEXT[half:].encode("cp1251")
    documents, [error] = _read(tmp_path, "law.txt", data)
    assert (documents, error.reason) == ([], "mixed_encoding")
    first_single_byte = len(LAW_TEXT[:half].encode("utf-8")) + next(
        i for i, c in enumerate(LAW_TEXT[half:]) if ord(c) > 127)
    assert error.position == f"byte {first_single_byte}"
    assert "not one encoding" in error.detail and "windows-1251" in error.detail


def test_more_than_a_few_stray_bytes_in_utf8_text_are_refused_not_guessed(tmp_path: Path) -> None:
    data = RO_CODE.encode("utf-8").replace(b"\xc8\x9b", b"\xfe")  # every ț in a single byte of windows-1250
    documents, [error] = _read(tmp_path, "codul_civil.md", data)
    assert (documents, error.reason) == ([], "mixed_encoding")


def test_a_romanian_text_in_a_single_byte_code_page_is_not_read_as_cyrillic(tmp_path: Path) -> None:
    legacy = RO_CODE.replace("ț", "ţ").replace("ș", "ş").encode("cp1250")
    documents, [error] = _read(tmp_path, "codul_civil.md", legacy)
    assert (documents, error.reason) == ([], "encoding_undetermined")


def test_an_ascii_text_with_one_stray_byte_is_read_and_the_byte_reported(tmp_path: Path) -> None:
    text = RO_CODE.replace("ț", "t").replace("ș", "s").replace("ă", "a").replace("î", "i").replace("â", "a")
    data, at = _with_stray_byte(text, "Art. 375")
    [document], [error] = _read(tmp_path, "codul_civil.md", data)
    assert ([u.path for u in document.units][:2], error.reason, error.position) == (["374", "374/1"], "invalid_utf8",
                                                                                   f"byte {at}")


def test_a_windows_1251_law_still_reads_by_the_heuristic(tmp_path: Path) -> None:
    [document], errors = _read(tmp_path, "law.txt", LAW_TEXT.encode("cp1251"))
    assert (document.encoding, errors) == ("windows-1251 (heuristic)", [])

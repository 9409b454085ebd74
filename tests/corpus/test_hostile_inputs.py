"""Malformed, truncated, mis-encoded and hostile files each land as an IngestError; the batch goes on."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from samples import AKN_FINAL, LAW_TEXT, LEGISLATIE_RECORD, META_UTF8, PORTAL_PAGE

from corpus.ingest import parse_path
from corpus.limits import Limits
from corpus.model import Document, IngestError

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<akomaNtoso xmlns="http://docs.oasis-open.org/legaldocml/ns/akn/3.0"><act><body>
<article eId="art_1"><num>1</num><content><p>&lol4;</p></content></article></body></act></akomaNtoso>
"""

EXTERNAL_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE akomaNtoso [<!ENTITY secret SYSTEM "file:///etc/passwd"><!ENTITY remote SYSTEM "http://127.0.0.1:9/x">]>
<akomaNtoso xmlns="http://docs.oasis-open.org/legaldocml/ns/akn/3.0"><act><body>
<article eId="art_1"><num>1</num><content><p>&secret;&remote;</p></content></article></body></act></akomaNtoso>
"""


def _docx(path: Path, document_xml: bytes) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("word/document.xml", document_xml)
    return path


def _zip_bomb(tmp_path: Path) -> Path:
    return _docx(tmp_path / "bomb.docx", b"<w:document>" + b" " * 30_000_000 + b"</w:document>")


def _sparse_2gb(tmp_path: Path) -> Path:
    path = tmp_path / "huge.txt"
    with open(path, "wb") as fh:
        fh.truncate(2 * 1024**3)
    return path


WORD = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document '
        b'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
        + "<w:p><w:r><w:t>Статья 1. Текст</w:t></w:r></w:p>".encode() * 50 + b"</w:body></w:document>")
WORD_ENTITIES = (b'<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                 + WORD[WORD.index(b"<w:document"):].replace(b"Text", b"&x;"))

CASES: list[tuple[str, Callable[[Path], Path], str, str | None]] = [
    ("truncated portal page", lambda p: _put(p, "cut.html", PORTAL_PAGE.format(meta=META_UTF8).encode()[:600]),
     "truncated", "char "),
    ("truncated Akoma Ntoso", lambda p: _put(p, "cut.xml", AKN_FINAL.encode()[:700]), "malformed_xml", "line "),
    ("billion laughs", lambda p: _put(p, "lol.xml", BILLION_LAUGHS.encode()), "xml_entities", "byte "),
    ("external entities", lambda p: _put(p, "xxe.xml", EXTERNAL_ENTITY.encode()), "xml_entities", "byte "),
    ("zip bomb", _zip_bomb, "zip_bomb", "entry "),
    ("truncated DOCX document", lambda p: _docx(p / "cut.docx", WORD[:700]), "malformed_xml", "line "),
    ("mismatched DOCX tags", lambda p: _docx(p / "tags.docx", WORD.replace(b"</w:body>", b"</w:bod>")), "malformed_xml",
     "line "),
    ("entities in a DOCX", lambda p: _docx(p / "xxe.docx", WORD_ENTITIES), "xml_entities", "byte "),
    ("not a zip", lambda p: _put(p, "fake.docx", b"PK\x03\x04 this is not an archive"), "malformed_docx", None),
    ("2 GB file", _sparse_2gb, "too_large", "byte "),
    ("mis-encoded", lambda p: _put(p, "moji.txt", LAW_TEXT.encode().decode("cp1251").encode()), "mis_encoded",
     "char "),
    ("empty", lambda p: _put(p, "empty.txt", b""), "empty", "byte "),
    ("unknown format", lambda p: _put(p, "scan.pdf", b"%PDF-1.4"), "unsupported_format", None),
]


def _put(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(("label", "make", "reason", "position"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_file_becomes_an_error_naming_file_reason_and_position(tmp_path: Path, label: str,
                                                                     make: Callable[[Path], Path], reason: str,
                                                                     position: str | None) -> None:
    path = make(tmp_path)
    results = list(parse_path(path, "test"))
    assert len(results) == 1 and isinstance(results[0], IngestError), results
    err = results[0]
    assert (err.file, err.reason) == (str(path), reason)
    if position is not None:
        assert err.position is not None and err.position.startswith(position)


def test_the_rest_of_a_batch_goes_on_after_bad_files(tmp_path: Path) -> None:
    for _, make, _, _ in CASES:
        make(tmp_path)
    _put(tmp_path, "good.html", PORTAL_PAGE.format(meta=META_UTF8).encode())
    _put(tmp_path, "good.xml", AKN_FINAL.encode())
    results = list(parse_path(tmp_path, "test"))
    good = sorted(Path(r.file).name for r in results if isinstance(r, Document))
    bad = [r for r in results if isinstance(r, IngestError)]
    assert (good, len(bad)) == (["good.html", "good.xml"], len(CASES))


def test_entities_are_never_expanded_into_unit_text(tmp_path: Path) -> None:
    results = list(parse_path(_put(tmp_path, "xxe.xml", EXTERNAL_ENTITY.encode()), "test"))
    assert not any(isinstance(r, Document) for r in results)


def test_a_bad_line_of_a_jsonl_file_is_an_error_and_the_other_records_are_read(tmp_path: Path) -> None:
    good = json.dumps(LEGISLATIE_RECORD, ensure_ascii=False)
    path = _put(tmp_path, "records.jsonl", "\n".join([good, '{"Titlu": "cut', good.replace("900001", "900002")]).encode())
    results = list(parse_path(path, "test"))
    errors = [(r.reason, r.position) for r in results if isinstance(r, IngestError)]
    docs = [r.doc_id for r in results if isinstance(r, Document)]
    assert (errors, docs) == ([("malformed_json", "line 2")], ["ro/just/900001", "ro/just/900002"])


def test_a_record_missing_its_text_names_the_field(tmp_path: Path) -> None:
    rec = {k: v for k, v in LEGISLATIE_RECORD.items() if k != "Text"}
    (err,) = list(parse_path(_put(tmp_path, "r.jsonl", json.dumps(rec).encode()), "test"))
    assert isinstance(err, IngestError) and (err.reason, "Text" in err.detail, err.position) == (
        "missing_field", True, "line 1")


def test_the_size_limit_is_configurable(tmp_path: Path) -> None:
    path = _put(tmp_path, "law.txt", LAW_TEXT.encode())
    (err,) = list(parse_path(path, "test", limits=Limits(max_file_bytes=100)))
    assert isinstance(err, IngestError) and err.reason == "too_large"

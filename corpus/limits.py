"""Guards against hostile inputs, checked before a byte is parsed.

A 2 GB file or a zip bomb must fail fast with a clear reason instead of exhausting memory in the
middle of a batch; the sizes here are far above any real code (the largest, a DOCX of the
bankruptcy law, unpacks to under 10 MB).
"""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from corpus.model import IngestFailure


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 200 * 1024 * 1024
    max_zip_entries: int = 2_000
    max_zip_entry_bytes: int = 100 * 1024 * 1024
    max_zip_total_bytes: int = 300 * 1024 * 1024
    max_zip_ratio: float = 100.0


DEFAULT_LIMITS = Limits()


def read_file(path: Path, limits: Limits) -> bytes:
    size = os.stat(path).st_size
    if size > limits.max_file_bytes:
        raise IngestFailure(
            "too_large", f"file is {size} bytes, the limit is {limits.max_file_bytes}", f"byte {limits.max_file_bytes}"
        )
    with open(path, "rb") as fh:
        # read(n) allocates n bytes up front: ask for the size stat gave, then for whatever the file grew by
        data = fh.read(size + 1)
        if len(data) > size:
            data += fh.read(limits.max_file_bytes + 1 - len(data))
        return data


def safe_xml_parser(*, recover: bool = False) -> etree.XMLParser:
    """No entity expansion, no DTD or network fetches, no huge trees: billion laughs and XXE stay inert."""
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        huge_tree=False,
        load_dtd=False,
        dtd_validation=False,
        remove_comments=True,
        remove_pis=True,
        recover=recover,
    )


def _refuse_entities(data: bytes) -> None:
    if b"<!ENTITY" in data[:65536]:
        idx = data.find(b"<!ENTITY")
        raise IngestFailure("xml_entities", "the document declares entities (expansion / external entities refused)",
                            f"byte {idx}")


def _malformed(exc: etree.XMLSyntaxError) -> IngestFailure:
    line = exc.position[0] if exc.position else None
    return IngestFailure("malformed_xml", str(exc.msg), f"line {line}" if line else None)


def parse_xml(data: bytes) -> etree._Element:
    _refuse_entities(data)
    try:
        root = etree.fromstring(data, safe_xml_parser())
    except etree.XMLSyntaxError as exc:
        raise _malformed(exc) from None
    if root is None:
        raise IngestFailure("malformed_xml", "empty document", "byte 0")
    return root


class _NoTree:
    """A parser target with no element callbacks: libxml2 checks the document and builds nothing."""

    def close(self) -> None:
        return None


def check_xml(data: bytes) -> None:
    """What ``parse_xml`` refuses, refused the same way, without building the tree: for a reader that takes
    its text from the checked bytes (a third of the time of parsing into a tree and freeing it)."""
    _refuse_entities(data)
    parser = etree.XMLParser(target=_NoTree(), resolve_entities=False, no_network=True, huge_tree=False,
                             load_dtd=False, dtd_validation=False)
    try:
        etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise _malformed(exc) from None


def read_zip_member(path: Path, member: str, limits: Limits) -> bytes:
    """Check declared sizes, the ratio and the entry count first, then read with a hard cap."""
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise IngestFailure("malformed_docx", f"not a readable zip archive: {exc}", None) from None
    with zf:
        infos = zf.infolist()
        if len(infos) > limits.max_zip_entries:
            raise IngestFailure("zip_bomb", f"{len(infos)} entries, the limit is {limits.max_zip_entries}", None)
        total = sum(i.file_size for i in infos)
        if total > limits.max_zip_total_bytes:
            raise IngestFailure("zip_bomb", f"archive unpacks to {total} bytes, the limit is {limits.max_zip_total_bytes}",
                                None)
        for info in infos:
            ratio = info.file_size / max(info.compress_size, 1)
            if info.file_size > limits.max_zip_entry_bytes or (info.file_size > 1_000_000 and ratio > limits.max_zip_ratio):
                raise IngestFailure(
                    "zip_bomb",
                    f"entry {info.filename}: {info.compress_size} bytes compressed, {info.file_size} unpacked "
                    f"(ratio {ratio:.0f}, limit {limits.max_zip_ratio:.0f})",
                    f"entry {info.filename}",
                )
        try:
            info = zf.getinfo(member)
        except KeyError:
            raise IngestFailure("malformed_docx", f"no {member} in the archive", None) from None
        try:
            with zf.open(info) as fh:
                data = fh.read(info.file_size + 1)
        except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
            raise IngestFailure("malformed_docx", f"cannot unpack {member}: {exc}", f"entry {member}") from None
        if len(data) > info.file_size:
            raise IngestFailure("zip_bomb", f"entry {member} unpacks beyond its declared size", f"entry {member}")
        return data

"""Shared access to the real corpus, read in place and parsed once per test session.

A module of its own, not conftest.py: several test folders have a conftest, and "from conftest import"
then finds whichever was imported first.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from corpus.ingest import parse_path
from corpus.model import Document, IngestError

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CORPUS = SHARED / "corpus"


@cache
def parsed(relative: str) -> tuple[Document | IngestError, ...]:
    path = CORPUS / relative
    if not path.exists():
        pytest.skip(f"shared corpus file {relative} is not available")
    return tuple(parse_path(path, "shared"))


def document(relative: str) -> Document:
    results = parsed(relative)
    docs = [r for r in results if isinstance(r, Document)]
    assert len(docs) == 1, results
    return docs[0]


def unit(doc: Document, path: str):  # type: ignore[no-untyped-def]
    found = [u for u in doc.units if u.path == path]
    assert len(found) == 1, f"{doc.doc_id}: {len(found)} units at {path}"
    return found[0]

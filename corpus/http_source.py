"""Kept so that existing imports go on working: the HTTP index now lives in corpus.remote.index, with the
shared client of every connector (corpus.remote.http)."""

from corpus.remote.http import write_atomic
from corpus.remote.index import LEGACY_STATE as STATE_FILE
from corpus.remote.index import fetch_index, parse_index
from corpus.remote.mirror import FetchResult

__all__ = ["STATE_FILE", "FetchResult", "fetch_index", "parse_index", "write_atomic"]

"""The corpus library: official legal texts in their published formats -> documents and units.

Pure domain code (no Dagster); the only network access is ``corpus.http_source``.
Entry points: ``corpus.ingest.parse_path``, ``corpus.tables`` (Arrow tables, ``merge_versions``),
``corpus.http_source.fetch_index``; records in ``corpus.model``.
"""

from corpus.model import Document, IngestError, Unit

__all__ = ["Document", "IngestError", "Unit"]

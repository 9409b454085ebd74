"""The corpus library: official legal texts in their published formats -> documents and units.

Pure domain code (no Dagster); the only network access is the subpackage ``corpus.remote`` (one HTTP client,
the connectors to the official services, the HTTP index). Entry points: ``corpus.ingest.parse_path``,
``corpus.tables`` (Arrow tables, ``merge_versions``), ``corpus.store.refresh_source`` (a source into the lake,
its mirror fetched first for a remote kind); records in ``corpus.model``.
"""

from corpus.model import Document, IngestError, Unit

__all__ = ["Document", "IngestError", "Unit"]

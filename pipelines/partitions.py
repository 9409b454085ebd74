"""Partition keys: the names every asset, sensor and command agree on.

Corpus assets are keyed by source, etalon assets by etalon code, evaluation assets by cell (etalon x system).
All three are dynamic: sources, etalon files and systems come and go without a code change.
"""

from __future__ import annotations

from dagster import DynamicPartitionsDefinition, MultiPartitionKey, MultiPartitionsDefinition

SOURCES = DynamicPartitionsDefinition(name="corpus_sources")
ETALONS = DynamicPartitionsDefinition(name="etalons")
SYSTEMS = DynamicPartitionsDefinition(name="systems")
CELLS = MultiPartitionsDefinition({"etalon": ETALONS, "system": SYSTEMS})


def cell_key(code: str, system: str) -> MultiPartitionKey:
    return MultiPartitionKey({"etalon": code, "system": system})


def split_cell(key: str) -> tuple[str, str]:
    """(code, system) of a cell key; dimensions are ordered by name, so 'etalon' comes first."""
    code, system = key.split("|", 1)
    return code, system

"""Partition keys: the names every asset, sensor and command agree on.

Corpus assets are keyed by source, etalon assets by benchmark shard ('benchmark/NN', a stable hash bucket of
etalon codes), cell assets by shard x system (the cells of a shard and a system are rows of one partition),
analytics by benchmark. All are dynamic: sources, benchmarks and systems come and go without a code change. At
100,000 etalons x 100 systems with ~1,000 etalons a shard, a cell asset has 10,000 partitions.
"""

from __future__ import annotations

from dagster import DynamicPartitionsDefinition, MultiPartitionsDefinition

SOURCES = DynamicPartitionsDefinition(name="corpus_sources")
SHARDS = DynamicPartitionsDefinition(name="shards")
SYSTEMS = DynamicPartitionsDefinition(name="systems")
BENCHMARKS = DynamicPartitionsDefinition(name="benchmarks")
CELLS = MultiPartitionsDefinition({"shard": SHARDS, "system": SYSTEMS})

# Engine stage group -> the partitions definition of its assets.
GROUP_PARTITIONS = {"corpus": SOURCES, "etalons": SHARDS, "cells": CELLS, "analytics": BENCHMARKS}

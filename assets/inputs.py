"""What people change: corpus folders, etalon files, benchmark settings, systems, the judge, decisions, signatures.

These are external assets. `etalon update` (and the reconcile sensor under `dagster dev`) records a new data
version for each one whose version changed (evaluation.engine.inputs): the version the engine folds into every
partition downstream, so Dagster's view of what is current is the engine's.
"""

from __future__ import annotations

from dagster import AssetSpec

from pipelines.partitions import BENCHMARKS, CELLS, SHARDS, SOURCES, SYSTEMS

INPUTS = [
    AssetSpec("corpus_files", partitions_def=SOURCES, group_name="inputs",
              description="The files behind a corpus source (a folder or a fetched HTTP index)."),
    AssetSpec("etalon_files", partitions_def=SHARDS, group_name="inputs",
              description="The etalon YAML files of one benchmark shard, as lawyers edit them."),
    AssetSpec("benchmark_settings", partitions_def=SHARDS, group_name="inputs",
              description="benchmark.yaml: weights, thresholds, partial credit per methodology; shards; review."),
    AssetSpec("system_configs", partitions_def=SYSTEMS, group_name="inputs",
              description="A system under test: its systems.yaml entry and its imported answers."),
    AssetSpec("judge_config", group_name="inputs", description="The judge section of systems.yaml, and its prompts."),
    AssetSpec("reviews", partitions_def=CELLS, group_name="inputs",
              description="Human decisions, undos and approvals on the cells of one shard and system."),
    AssetSpec("signature_events", partitions_def=BENCHMARKS, group_name="inputs",
              description="Lawyers' signatures of etalon versions (sealed events), per benchmark."),
]

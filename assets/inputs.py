"""What people change: corpus folders, etalon files, benchmark settings, systems, the judge, decisions, signatures.

These are observable source assets: observing one (from the UI, or as `etalon update` and the reconcile sensor
do for all of them) records its data version — the version the engine folds into every partition downstream
(evaluation.engine.inputs), so Dagster's view of what is current is the engine's.
"""

from typing import Any

from dagster import DataVersion, DataVersionsByPartition, PartitionsDefinition, observable_source_asset

from pipelines.partitions import BENCHMARKS, CELLS, SHARDS, SOURCES, SYSTEMS


def _versions(context: Any, name: str) -> dict[str | None, str]:
    from evaluation.engine.inputs import versions
    from evaluation.engine.world import World

    home = context.resources.warehouse.paths()
    return versions(World.open(home)).get(name, {})


def _input(name: str, description: str, partitions_def: PartitionsDefinition | None = None) -> Any:
    @observable_source_asset(name=name, partitions_def=partitions_def, group_name="inputs",
                             description=description, required_resource_keys={"warehouse"})
    def observe(context: Any) -> DataVersion | DataVersionsByPartition:
        found = _versions(context, name)
        if partitions_def is None:
            return DataVersion(found.get(None, "absent"))
        return DataVersionsByPartition({p: v for p, v in found.items() if p is not None})

    return observe


INPUTS = [
    _input("corpus_files", "The files behind a corpus source (a folder or a fetched HTTP index).", SOURCES),
    _input("etalon_files", "The etalon YAML files of one benchmark shard, as lawyers edit them.", SHARDS),
    _input("benchmark_settings", "benchmark.yaml: weights, thresholds, partial credit per methodology; shards; "
           "review.", SHARDS),
    _input("system_configs", "A system under test: its systems.yaml entry and its imported answers.", SYSTEMS),
    _input("judge_config", "The judge section of systems.yaml, and its prompts."),
    _input("reviews", "Human decisions, undos and approvals on the cells of one shard and system.", CELLS),
    _input("signature_events", "Lawyers' signatures of etalon versions (sealed events), per benchmark.", BENCHMARKS),
]

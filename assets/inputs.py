"""What people change: corpus folders, etalon files, systems, the judge and review decisions.

These are external assets. The inputs sensor (and `etalon update`) records a new data version for each one
whose fingerprint changed; everything downstream follows through automation.
"""

from __future__ import annotations

from dagster import AssetSpec

from pipelines.partitions import CELLS, ETALONS, SOURCES, SYSTEMS

corpus_files = AssetSpec("corpus_files", partitions_def=SOURCES, group_name="inputs",
                         description="The files behind a corpus source (a folder or a fetched HTTP index).")
etalon_files = AssetSpec("etalon_files", partitions_def=ETALONS, group_name="inputs",
                         description="One etalon's YAML file, as lawyers edit it.")
system_configs = AssetSpec("system_configs", partitions_def=SYSTEMS, group_name="inputs",
                           description="A system under test: its systems.yaml entry and imported answers.")
judge_config = AssetSpec("judge_config", group_name="inputs", description="The judge section of systems.yaml.")
reviews = AssetSpec("reviews", partitions_def=CELLS, group_name="inputs",
                    description="Human decisions, undos and approvals on one cell.")

signatures = AssetSpec("signatures", group_name="inputs",
                        description="Lawyers' signatures of etalon versions: they decide what counts as indicative.")

INPUTS = [corpus_files, etalon_files, system_configs, judge_config, reviews, signatures]

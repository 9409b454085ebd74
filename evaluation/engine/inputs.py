"""The versions of what people change, per input and partition: what Dagster shows as the inputs' data versions.

Each version is the very value the engine folds into the partition digests downstream, so an input whose version
did not change never makes a partition look out of date, and one that did always does.
"""

from __future__ import annotations

from evaluation.engine.keys import Part, digest
from evaluation.engine.plan import benchmarks, partitions, shards
from evaluation.engine.stages import STAGES
from evaluation.engine.stages.judgments import judge_fingerprint
from evaluation.engine.stages.signatures import event_names
from evaluation.engine.world import World


def versions(world: World) -> dict[str, dict[str | None, str]]:
    """{input asset: {partition (None: unpartitioned): version}}."""
    out: dict[str, dict[str | None, str]] = {}
    corpus = STAGES["corpus"]
    out["corpus_files"] = {s: corpus.partition_digest(world, s) or "absent" for s in partitions(world, "corpus")}
    etalons = STAGES["etalons"]
    out["etalon_files"] = {s.key: etalons.partition_digest(world, s.key) for s in shards(world)}
    settings = world.settings
    out["benchmark_settings"] = {s.key: digest(settings[s.benchmark].raw if s.benchmark in settings else None)
                                 for s in shards(world)}
    out["system_configs"] = {s.id: digest(s.model_dump(mode="json", exclude={"api_key_env"}),
                                          world.lake.stat("imported_answers", s.id)) for s in world.systems.systems}
    out["judge_config"] = {None: judge_fingerprint(world.judge)}
    reviews: dict[str | None, str] = {}
    for part in world.parts(shards(world)):
        codes = [r.code for r, _ in world.current_etalons(part.shard)]
        names = world.human_names(part.benchmark, codes, part.system)
        if names:
            reviews[part.key] = digest(sorted((c, sorted(n)) for c, n in names.items()))
    out["reviews"] = reviews
    out["signature_events"] = {b: digest(sorted(event_names(world, b))) for b in benchmarks(world)}
    return out


def cell_partitions(world: World) -> list[Part]:
    return world.parts(shards(world))


__all__ = ["cell_partitions", "versions"]


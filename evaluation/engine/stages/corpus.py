"""The corpus, one partition per configured source: documents and units, every version kept.

Not a row-by-row stage: a source is re-read whole when its files change (their names, sizes and times) and
`corpus.store.refresh_source` merges what it finds into the stored versions, so an unchanged document keeps its
version and a changed one gets a new version beside the old.

A remote source (an HTTP index, an official service's connector) is read from its local mirror. The mirror is
fetched when a run is forced (the nightly schedule, the per-kind sensors, `etalon corpus refresh`) or when it is
not a finished fetch of the source's settings (never fetched, settings changed, a killed fetch): an ordinary
update reads what the mirror holds and asks no server.
"""

from __future__ import annotations

from typing import Any, ClassVar

from evaluation.engine import code as stage_code
from evaluation.engine.keys import digest
from evaluation.engine.stages.base import Result
from evaluation.engine.state import Entry
from evaluation.engine.world import World

VERSION = stage_code.version("corpus", "corpus-3")


def configured(world: World) -> dict[str, Any]:
    from corpus.sources import sources_for

    cache: dict[str, Any] | None = world.__dict__.get("_sources")
    if cache is None:
        try:
            cache = {s.name: s for s in sources_for(world.home.sources_file, world.home.inbox)}
        except ValueError as exc:
            world.problems.append(str(exc))
            cache = {}
        world.__dict__["_sources"] = cache
    return cache


class CorpusStage:
    name: ClassVar[str] = "corpus"
    version: ClassVar[str] = VERSION
    group: ClassVar[str] = "corpus"
    tables: ClassVar[tuple[str, ...]] = ("corpus_documents", "corpus_units", "ingest_errors")

    def lake_key(self, partition: str) -> tuple[str, ...]:
        return (partition,)

    def partitions(self, world: World) -> list[str]:
        return sorted(configured(world))

    def partition_digest(self, world: World, partition: str) -> str | None:
        from corpus.sources import fingerprint

        source = configured(world).get(partition)
        if source is None:
            return None
        return digest(VERSION, source.name, str(source.path), source.url, repr(sorted(source.options.items())),
                      fingerprint(source, world.home.root / "sources" / source.name))

    def fresh(self, world: World, partition: str, digest_now: str | None) -> bool:
        entry = world.index.get(self.name, partition)
        return (entry is not None and digest_now is not None and entry.input_digest == digest_now
                and world.lake.stat("corpus_documents", partition) is not None)

    def reconcile_partition(self, world: World, partition: str, force: bool = False) -> Result:
        from corpus.remote.mirror import incomplete
        from corpus.store import refresh_source

        source = configured(world)[partition]
        mirror = world.home.root / "sources" / source.name
        fetch = source.remote and (force or incomplete(mirror, source.options or {"url": source.url}) is not None)
        with world.locks.hold(f"{self.name}:{partition}"):
            summary = refresh_source(world.lake, source, mirror, fetch=fetch)
            after = self.partition_digest(world, partition) or ""
            old = world.index.get(self.name, partition)
            entry = Entry(self.name, partition, after, summary.data_version, computed_at=world.at,
                          errors=summary.failed, rows=summary.added + summary.changed + summary.unchanged,
                          meta={"added": summary.added, "changed": summary.changed, "unchanged": summary.unchanged,
                                "removed": summary.removed,
                                "failed": summary.failed, "units_added": summary.units_added,
                                **(summary.fetch or {}),
                                "errors": [f"{e.file}: {e.reason} ({e.detail or e.position or '-'})"
                                           for e in summary.errors][:50]})
            world.index.put([entry])
        world.__dict__.pop("corpus", None)   # the next reader builds the corpus view anew
        return Result(self.name, partition, entry, ran=True,
                      output_changed=old is None or old.output_digest != entry.output_digest)


STAGE = CorpusStage()

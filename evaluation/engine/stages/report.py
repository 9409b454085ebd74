"""The report, one for the warehouse: $ETALON_HOME/report/, rebuilt when any benchmark's analytics changed."""

from __future__ import annotations

from typing import ClassVar

from evaluation.engine import code as stage_code
from evaluation.engine.keys import digest
from evaluation.engine.stages.base import Result
from evaluation.engine.state import Entry
from evaluation.engine.world import World

VERSION = stage_code.version("report", "report-2")
PARTITION = "all"


class ReportStage:
    name: ClassVar[str] = "report"
    version: ClassVar[str] = VERSION
    group: ClassVar[str] = "report"
    tables: ClassVar[tuple[str, ...]] = ()

    def lake_key(self, partition: str) -> tuple[str, ...]:
        return ()

    def partition_digest(self, world: World, partition: str) -> str | None:
        from evaluation.observe_systems import systems_summary

        analytics = sorted((e.partition, e.output_digest) for (stage, _), e in world.index.entries.items()
                           if stage == "analytics")
        return digest(VERSION, analytics, systems_summary(world.home))

    def fresh(self, world: World, partition: str, digest_now: str | None) -> bool:
        entry = world.index.get(self.name, partition)
        return (entry is not None and digest_now is not None and entry.input_digest == digest_now
                and (world.home.report_dir / "index.html").exists())

    def reconcile_partition(self, world: World, partition: str, force: bool = False) -> Result:
        from evaluation.report import build_report

        with world.locks.hold(self.name):
            in_digest = self.partition_digest(world, partition) or ""
            path = build_report(world.home, world.lake)
            entry = Entry(self.name, partition, in_digest, in_digest, computed_at=world.at, meta={"path": str(path)})
            world.index.put([entry])
        return Result(self.name, partition, entry, ran=True, output_changed=True)


STAGE = ReportStage()

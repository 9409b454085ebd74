"""Signatures, one partition per benchmark: the verified ones, those refused, and amendments since signing.

A signature event counts only when its seal verifies with the warehouse's signing key (kept outside the lake):
a file written into the lake by hand is refused and reported, never counted. A signature also keeps the text of
every source as resolved when it was signed; when a later version of a document changes such a text (a law's
amendment), the etalon is flagged for re-confirmation with the old and new text — its signature stays until the
lawyer signs again.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from evaluation.engine import code as stage_code
from evaluation.engine.keys import digest
from evaluation.engine.stages.base import Result
from evaluation.engine.state import Entry
from evaluation.engine.world import World
from warehouse.tables import CorpusChangeRow, SignatureRejectionRow, SignatureRow

VERSION = stage_code.version("signatures", "signatures-1")


def event_names(world: World, benchmark: str) -> list[tuple[str, str]]:
    return [(code, name) for code in world.lake.folders("signatures", benchmark)
            for name in world.lake.event_names("signatures", benchmark, code)]


def verify(world: World, rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[tuple[dict[str, Any], str]]]:
    from etalons.seal import signing_key, verify_signatures

    return verify_signatures(rows, signing_key(world.home.root))


class SignaturesStage:
    name: ClassVar[str] = "signatures"
    version: ClassVar[str] = VERSION
    group: ClassVar[str] = "analytics"
    tables: ClassVar[tuple[str, ...]] = ("signature_ledger", "signature_rejections", "corpus_changes")

    def lake_key(self, partition: str) -> tuple[str, ...]:
        return (partition,)

    def partition_digest(self, world: World, partition: str) -> str | None:
        names = event_names(world, partition)
        entry = world.index.get(self.name, partition)
        touch = entry.meta.get("touch") if entry is not None else None
        corpus = world.corpus.touch_hash(touch) if touch else None
        return digest(VERSION, sorted(names), corpus)

    def fresh(self, world: World, partition: str, digest_now: str | None) -> bool:
        entry = world.index.get(self.name, partition)
        return entry is not None and digest_now is not None and entry.input_digest == digest_now

    def reconcile_partition(self, world: World, partition: str, force: bool = False) -> Result:
        with world.locks.hold(f"{self.name}:{partition}"):
            rows = []
            for code, name in event_names(world, partition):
                for r in world.lake.read_events("signatures", partition, code, names=[name]).to_pylist():
                    rows.append({**r, "event_id": name})
            valid, rejected = verify(world, rows)
            ledger = [SignatureRow(benchmark=r["benchmark"], code=r["code"], version=r["version"],
                                   signed_by=r["signed_by"], signed_at=r["signed_at"], via=r.get("via"),
                                   event_id=r["event_id"]) for r in valid]
            refused = [SignatureRejectionRow(benchmark=partition, code=str(r.get("code")), version=r.get("version"),
                                             signed_by=r.get("signed_by"), event_id=str(r.get("event_id")),
                                             reason=why) for r, why in rejected]
            changes, touch = amendments(world, partition, valid)
            world.lake.write("signature_ledger", (partition,), sorted(ledger, key=lambda r: (r.code, r.signed_at)))
            world.lake.write("signature_rejections", (partition,), refused)
            world.lake.write("corpus_changes", (partition,), changes)
            out = digest([r.__dict__ for r in ledger], [c.__dict__ for c in changes])
            keys = sorted(set(touch))
            in_digest = digest(VERSION, sorted(event_names(world, partition)),
                               world.corpus.touch_hash(keys) if keys else None)
            entry = Entry(self.name, partition, in_digest, out, computed_at=world.at, rows=len(ledger),
                          errors=len(refused), meta={"touch": keys, "rejected": len(refused), "changes": len(changes)})
            old = world.index.get(self.name, partition)
            world.index.put([entry])
        return Result(self.name, partition, entry, ran=True,
                      output_changed=old is None or old.output_digest != entry.output_digest)


def amendments(world: World, benchmark: str, signatures: list[dict[str, Any]]) -> tuple[list[CorpusChangeRow], list[str]]:
    """Units a signed version cites whose current text differs from the text it was signed on."""
    from evaluation.engine.corpus_view import citation_deps

    latest: dict[tuple[str, str], dict[str, Any]] = {}
    for s in sorted(signatures, key=lambda s: s["signed_at"]):
        latest[(s["code"], s["version"])] = s
    corpus = world.corpus
    changes: list[CorpusChangeRow] = []
    touch: list[str] = []
    for (code, version), s in sorted(latest.items()):
        for source in json.loads(s.get("sources") or "[]"):
            touch.extend(citation_deps([source]))
            old_text = source.get("text")
            if source.get("doc_id") is None or old_text is None:
                continue
            new_text = corpus.text(source["doc_id"], source.get("path"))
            status = _unit_status(corpus, source["doc_id"], source.get("path"))
            change = "gone" if new_text is None else "repealed" if status == "repealed" and source.get("status") != "repealed" \
                else "changed" if new_text != old_text else None
            if change:
                changes.append(CorpusChangeRow(benchmark=benchmark, code=code, version=version,
                                               citation=source.get("citation") or "", doc_id=source["doc_id"],
                                               unit_path=source.get("path"), old_text=old_text, new_text=new_text,
                                               change=change, signed_by=s["signed_by"], signed_at=s["signed_at"]))
    return changes, touch


def _unit_status(corpus: Any, doc_id: str, path: str | None) -> str | None:
    status: str | None = corpus.unit_status(doc_id, path)
    return status


STAGE = SignaturesStage()

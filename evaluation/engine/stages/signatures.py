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
    from etalons.keys import SigningKeyError, signing_key
    from etalons.signatures import verify_signatures

    try:
        key = signing_key(world.home.root, world.home.lake, create=False)
    except SigningKeyError as exc:
        return [], [(r, str(exc)) for r in rows]
    return verify_signatures(rows, key)


class SignaturesStage:
    name: ClassVar[str] = "signatures"
    version: ClassVar[str] = VERSION
    group: ClassVar[str] = "analytics"
    tables: ClassVar[tuple[str, ...]] = ("signature_ledger", "signature_rejections", "corpus_changes")

    def lake_key(self, partition: str) -> tuple[str, ...]:
        return (partition,)

    def partition_digest(self, world: World, partition: str) -> str | None:
        entry = world.index.get(self.name, partition)
        units = entry.meta.get("units") if entry is not None else None
        return _digest(world, partition, [tuple(u) for u in units or ()])

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
            changes, units = amendments(world, partition, valid)
            world.lake.write("signature_ledger", (partition,), sorted(ledger, key=lambda r: (r.code, r.signed_at)))
            world.lake.write("signature_rejections", (partition,), refused)
            world.lake.write("corpus_changes", (partition,), changes)
            out = digest([r.__dict__ for r in ledger], [c.__dict__ for c in changes], [r.__dict__ for r in refused])
            entry = Entry(self.name, partition, _digest(world, partition, units), out, computed_at=world.at,
                          rows=len(ledger), errors=len(refused),
                          meta={"units": [list(u) for u in units], "rejected": len(refused), "changes": len(changes)})
            old = world.index.get(self.name, partition)
            world.index.put([entry])
        return Result(self.name, partition, entry, ran=True,
                      output_changed=old is None or old.output_digest != entry.output_digest)


def _digest(world: World, benchmark: str, units: list[tuple[str, str]]) -> str:
    """The signature events of the benchmark, and the current text of every unit a signature vouched for."""
    corpus = world.corpus
    texts = [(d, p, digest(corpus.text(d, p), corpus.unit_status(d, p))) for d, p in sorted(set(units))]
    return digest(VERSION, sorted(event_names(world, benchmark)), texts)


def amendments(world: World, benchmark: str, signatures: list[dict[str, Any]]
               ) -> tuple[list[CorpusChangeRow], list[tuple[str, str]]]:
    """Units the latest signature of a version vouched for whose current text differs from the signed one, and
    every unit the signatures vouched for (what the next plan compares)."""
    latest: dict[tuple[str, str], dict[str, Any]] = {}
    for s in sorted(signatures, key=lambda s: s["signed_at"]):
        latest[(s["code"], s["version"])] = s
    corpus = world.corpus
    changes: list[CorpusChangeRow] = []
    units: list[tuple[str, str]] = []
    for (code, version), s in sorted(latest.items()):
        for source in json.loads(s.get("sources") or "[]"):
            doc_id, path, old_text = source.get("doc_id"), source.get("unit_path"), source.get("text")
            if not doc_id or path is None or old_text is None:
                continue
            units.append((doc_id, path))
            new_text = corpus.text(doc_id, path)
            status = corpus.unit_status(doc_id, path)
            change = ("gone" if new_text is None else "repealed" if status == "repealed"
                      else "changed" if new_text != old_text else None)
            if change:
                changes.append(CorpusChangeRow(benchmark=benchmark, code=code, version=version,
                                               citation=source.get("citation") or source.get("cited") or "",
                                               doc_id=doc_id, unit_path=path, old_text=old_text, new_text=new_text,
                                               change=change, signed_by=s["signed_by"], signed_at=s["signed_at"]))
    return changes, units


STAGE = SignaturesStage()

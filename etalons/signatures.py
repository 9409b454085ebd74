"""Signature events that can be verified, and the law they vouched for.

A signature row in the lake is a Parquet file anyone with write access could drop in ("Forger" signing an
etalon whose sources are missing). So each row `etalon sign` writes carries an HMAC-SHA256, made with a key
kept out of the lake (`etalons.keys`), over everything that makes it a signature: benchmark, code, version,
signer, time, how the signer was identified (`via`) and the hash of a snapshot of every cited unit as it
read at signing time. `verify_signatures` keeps only the rows whose HMAC holds; a forged, altered or legacy
row is returned apart with the reason, and never counts.

The snapshot (citation, act, article, document, unit path, the unit's text and its hash) is what the
lawyer read: when an amendment changes a cited unit's text, `changed_sources` names it, and the engine asks
for the signature to be confirmed again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from etalons.keys import key_id
from etalons.loader import LoadedEtalon
from etalons.signing import Signature

ALGORITHM = "hmac-sha256/1"
SIGNED_FIELDS = ("benchmark", "code", "version", "signed_by", "signed_at", "via")
CLI_VIA = "cli --by"  # the signer named themselves with `etalon sign --by`: nothing stronger vouches for it

Extract = Callable[[str, str], Sequence[Any]]
Resolve = Callable[[Sequence[Any], Any], Sequence[Any]]


@dataclass(frozen=True)
class CitedUnit:
    """One citation of one source as it resolved when the etalon was signed (`text` None: no unit, e.g. an
    act cited as a whole, a decision outside the corpus, or a citation that did not resolve)."""

    index: int          # 1-based position of the source in the etalon
    citation: str       # the source as the etalon writes it
    cited: str          # the one citation of it this entry is about
    status: str
    act: str | None
    article: str | None
    doc_id: str | None
    unit_path: str | None
    text: str | None
    text_sha256: str | None


@dataclass(frozen=True)
class SignatureRecord:
    """One row of the `signatures` table (the five columns it always had, then the verifiable part)."""

    benchmark: str
    code: str
    version: str
    signed_by: str
    signed_at: str
    via: str
    sources: str          # JSON list of CitedUnit
    sources_sha256: str
    key_id: str
    algorithm: str
    hmac: str

    def to_row(self) -> dict[str, str]:
        return asdict(self)


def signature_record(signature: Signature, cited: Sequence[CitedUnit], via: str, key: bytes) -> SignatureRecord:
    """The event `etalon sign` appends: the signature, the snapshot of its sources, and their HMAC."""
    sources = _canonical([asdict(c) for c in cited])
    fields = {"benchmark": signature.benchmark, "code": signature.code, "version": signature.version,
              "signed_by": signature.signed_by, "signed_at": signature.signed_at, "via": via}
    digest = hashlib.sha256(sources.encode("utf-8")).hexdigest()
    return SignatureRecord(**fields, sources=sources, sources_sha256=digest, key_id=key_id(key),
                           algorithm=ALGORITHM, hmac=_mac(key, fields, digest))


def verify_signatures(rows: Iterable[Mapping[str, Any]], key: bytes | None
                      ) -> tuple[list[dict[str, Any]], list[tuple[dict[str, Any], str]]]:
    """(rows whose HMAC holds, [(row, why it was rejected)]), in the order given. `key` None: the warehouse
    has no signing key yet, so no row can be genuine."""
    valid: list[dict[str, Any]] = []
    rejected: list[tuple[dict[str, Any], str]] = []
    for row in rows:
        copy = dict(row)
        reason = _rejection(copy, key)
        if reason is None:
            valid.append(copy)
        else:
            rejected.append((copy, reason))
    return valid, rejected


def cited_units(loaded: LoadedEtalon, lookup: Any, units: pa.Table, extract: Extract | None = None,
                resolve: Resolve | None = None) -> list[CitedUnit]:
    """Every citation of every source of the etalon, resolved against the corpus (`lookup`, `units`: the
    current tables, as `corpus.store.current_tables` gives them), with the text of the unit it lands on."""
    extract = extract or _library("extract")
    resolve = resolve or _library("resolve")
    found: list[tuple[int, str, Any]] = []
    for index, source in enumerate(loaded.etalon.sources, start=1):
        citations = list(extract(source.citation, loaded.etalon.jurisdiction))
        found.extend((index, source.citation, r) for r in (resolve(citations, lookup) if citations else []))
    texts = _unit_texts(units, {(r.doc_id, r.unit_path) for _, _, r in found if r.doc_id and r.unit_path})
    out = []
    for index, citation, r in found:
        text = texts.get((r.doc_id, r.unit_path))
        out.append(CitedUnit(index, citation, r.citation.text, str(r.status), r.citation.act, r.citation.article,
                             r.doc_id, r.unit_path, text, _sha(text) if text is not None else None))
    return out


@dataclass(frozen=True)
class ChangedSource:
    """A unit a signature vouched for whose text is no longer the text the signer read."""

    index: int
    cited: str
    doc_id: str
    unit_path: str
    signed_sha256: str
    current_sha256: str | None  # None: the unit is gone from the current corpus

    def describe(self) -> str:
        change = "is gone from the corpus" if self.current_sha256 is None else "reads differently now"
        return f"sources[{self.index}] {self.cited!r}: {self.doc_id} {self.unit_path} {change}"


def changed_sources(row: Mapping[str, Any], units: pa.Table) -> list[ChangedSource]:
    """The cited units of a (verified) signature row whose current text differs from the signed snapshot."""
    snapshot = [c for c in json.loads(row.get("sources") or "[]") if c.get("text_sha256")]
    now = _unit_texts(units, {(c["doc_id"], c["unit_path"]) for c in snapshot})
    out = []
    for c in snapshot:
        text = now.get((c["doc_id"], c["unit_path"]))
        current = _sha(text) if text is not None else None
        if current != c["text_sha256"]:
            out.append(ChangedSource(int(c["index"]), str(c["cited"]), str(c["doc_id"]), str(c["unit_path"]),
                                     str(c["text_sha256"]), current))
    return out


def _rejection(row: Mapping[str, Any], key: bytes | None) -> str | None:
    algorithm, mac = row.get("algorithm"), row.get("hmac")
    if not mac or not algorithm:
        return "no HMAC: not written by `etalon sign` (forged, or from before signatures were verifiable: sign again)"
    if algorithm != ALGORITHM:
        return f"unknown signature algorithm {algorithm!r}: expected {ALGORITHM}"
    fields = {name: row.get(name) for name in SIGNED_FIELDS}
    texts = [row.get("sources"), row.get("sources_sha256"), row.get("key_id"), mac, *fields.values()]
    if not all(isinstance(value, str) for value in texts):
        return "a signed field is missing or not text"
    if key is None:
        return "this warehouse has no signing key, so no signature in it can be verified"
    if row["key_id"] != key_id(key):
        return f"signed with another key (key id {row['key_id']}, this warehouse's is {key_id(key)})"
    if hashlib.sha256(str(row["sources"]).encode("utf-8")).hexdigest() != row["sources_sha256"]:
        return "the snapshot of the cited sources was altered after signing"
    if not hmac.compare_digest(_mac(key, fields, str(row["sources_sha256"])), str(mac)):
        return "HMAC does not match: a signed field was altered after signing, or the row was forged"
    return None


def _mac(key: bytes, fields: Mapping[str, Any], sources_sha256: str) -> str:
    message = _canonical([ALGORITHM, *(fields[name] for name in SIGNED_FIELDS), sources_sha256])
    return hmac.new(key, message.encode("utf-8"), hashlib.sha256).hexdigest()


def _canonical(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _unit_texts(units: pa.Table, wanted: set[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """Text of the wanted (doc_id, path) units of the current corpus; the first row of each wins."""
    if not wanted or not units.num_rows:
        return {}
    rows = units.filter(pc.is_in(units["doc_id"], pa.array(sorted({d for d, _ in wanted}), pa.string())))
    out: dict[tuple[str, str], str] = {}
    for doc_id, path, text in zip(rows["doc_id"].to_pylist(), rows["path"].to_pylist(), rows["text"].to_pylist(),
                                  strict=True):
        if (doc_id, path) in wanted and (doc_id, path) not in out and text is not None:
            out[(doc_id, path)] = text
    return out


def _library(name: str) -> Any:
    import importlib

    function = getattr(importlib.import_module("citations"), name, None)
    if not callable(function):
        raise RuntimeError(f"the citations library has no {name}() yet: sources cannot be snapshotted")
    return function

"""Signatures: a lawyer vouching for one exact version of an etalon.

A signature names the version hash it was given for, so any later edit (anything but the title) leaves it
behind: the new version is back in the pool until someone signs it. Signatures are append-only events; the
status is derived from them, never stored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from etalons.loader import LoadedEtalon
from etalons.verify import SourceCheck, unresolved

Status = Literal["pool", "signed", "archived"]


@dataclass(frozen=True)
class Signature:
    benchmark: str
    code: str
    version: str
    signed_by: str
    signed_at: str  # ISO 8601


class SigningRefused(Exception):
    """Signing was refused; `unresolved` holds the sources that stopped it (empty for other reasons)."""

    def __init__(self, code: str, reason: str, unresolved: Sequence[SourceCheck] = ()) -> None:
        self.code = code
        self.unresolved = list(unresolved)
        lines = [f"{code} cannot be signed: {reason}"]
        lines += [f"  - {check.describe()}" for check in self.unresolved]
        super().__init__("\n".join(lines))


def sign(loaded: LoadedEtalon, checks: Sequence[SourceCheck], by: str, at: str) -> Signature:
    """Signs the loaded (current) version, provided every source was verified for it and resolved."""
    who = by.strip()
    if not who:
        raise SigningRefused(loaded.code, "expected the name of the person signing, got nothing")
    try:
        datetime.fromisoformat(at)
    except ValueError:
        raise SigningRefused(loaded.code, f"expected an ISO 8601 time, got {at!r}") from None
    mine = [c for c in checks if c.code == loaded.code and c.version == loaded.version]
    verified = {c.index for c in mine}
    missing = [i for i in range(1, len(loaded.etalon.sources) + 1) if i not in verified]
    if missing:
        shown = ", ".join(f"sources[{i}]" for i in missing)
        raise SigningRefused(
            loaded.code, f"not verified against the corpus for version {loaded.version}: {shown}"
        )
    bad = unresolved(mine)
    if bad:
        raise SigningRefused(loaded.code, f"{len(bad)} source(s) not found in the corpus", bad)
    return Signature(loaded.benchmark, loaded.code, loaded.version, who, at)


def status_of(version: str, signatures: Iterable[Signature], archived: bool) -> Status:
    """`archived` wins; else `signed` only by a signature naming this exact version; else `pool`."""
    if archived:
        return "archived"
    return "signed" if current_signature(version, signatures) is not None else "pool"


def current_signature(version: str, signatures: Iterable[Signature]) -> Signature | None:
    """The latest signature of this exact version (for `signed_by`, `signed_at`), if any."""
    mine = [s for s in signatures if s.version == version]
    return max(mine, key=lambda s: s.signed_at) if mine else None

"""Which answers the audit draws: a deterministic hash against the rate, topped up per stratum, never reshuffled.

Each answer (system, etalon code, version, attempt) gets a number in [0, 1) from a hash of the recorded seed and
its key. It is in the sample when that number is below the rate, so a new answer joins at the rate the moment it
appears and no answer already in ever leaves because others came: the draw is a function of the seed and the
set of answers, and a fresh evaluation of the same inputs draws the same sample.

A minimum per stratum (system x element kind: rare kinds such as a solution fact or a critical error must be
measured too) is met by also taking, in each stratum, the answers with the smallest numbers: the K smallest of
a stratum are a simple random sample of it. While a stratum is small its threshold is its (K+1)-th smallest
number, so an answer's probability of being drawn is known exactly (priority sampling): max(rate, the
thresholds of its kinds). The estimates weight every audited answer by the inverse of that probability. As a
stratum grows past K / rate answers, its threshold falls below the rate and the rate alone keeps it filled; a
top-up drawn while it was small may then leave the sample (its label is kept on record, unused).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

CellKey = tuple[str, str, str, int]   # system, code, version, attempt


@dataclass(frozen=True)
class AuditSettings:
    """`audit:` of benchmark.yaml (validated by etalons.benchmark.AuditSettings)."""

    rate: float
    min_per_stratum: int
    seed: int
    target_half_width: float | None = None

    @classmethod
    def of(cls, raw: Mapping[str, Any] | None) -> AuditSettings | None:
        """From a benchmark's stored settings; None when it asks for no audit."""
        audit = (raw or {}).get("audit")
        if not isinstance(audit, Mapping) or audit.get("rate") is None or audit.get("seed") is None:
            return None
        target = audit.get("target_half_width")
        return cls(float(audit["rate"]), int(audit.get("min_per_stratum") or 0), int(audit["seed"]),
                   float(target) if target is not None else None)


def audit_hash(seed: int, system: str, code: str, version: str, attempt: int) -> float:
    """The answer's place in the draw, uniform in [0, 1): the same for the same seed and key, everywhere."""
    text = "\0".join(("etalon-audit", str(seed), system, code, version, str(attempt)))
    value = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    return value / 2.0 ** 64


@dataclass(frozen=True)
class Drawn:
    inclusion: float      # the probability the answer had of being drawn
    sampled: bool


def draw(cells: Iterable[tuple[CellKey, float, Iterable[str]]], settings: AuditSettings) -> dict[CellKey, Drawn]:
    """Every answer's inclusion probability and whether it is drawn, from (key, audit hash, element kinds).

    Answers without a kind (nothing the judge settled) have nothing to audit and are left out."""
    listed = [(key, u, tuple(sorted(set(kinds)))) for key, u, kinds in cells]
    strata: dict[tuple[str, str], list[float]] = {}
    for key, u, kinds in listed:
        for kind in kinds:
            strata.setdefault((key[0], kind), []).append(u)
    k = settings.min_per_stratum
    thresholds: dict[tuple[str, str], float] = {}
    for stratum, values in strata.items():
        if k <= 0:
            thresholds[stratum] = 0.0
        elif len(values) <= k:
            thresholds[stratum] = 1.0          # a stratum of at most K answers is audited whole
        else:
            thresholds[stratum] = sorted(values)[k]   # the (K+1)-th smallest: the K smallest lie below it
    out: dict[CellKey, Drawn] = {}
    for key, u, kinds in listed:
        if not kinds:
            continue
        inclusion = min(1.0, max([settings.rate, *(thresholds[(key[0], kind)] for kind in kinds)]))
        out[key] = Drawn(inclusion, u < inclusion)
    return out

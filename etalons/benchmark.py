"""A benchmark's own file (`<benchmark>/benchmark.yaml`): its name, default methodology and canary.

The canary is a random string kept with the benchmark and never shown to a system: finding it in an answer
proves the private set leaked into the system's training data or context.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from etalons.model import Methodology

CANARY_PATTERN = r"^[0-9a-f]{32}$"
# Without `shards:` a benchmark gets one shard per this many etalons, so that 100,000 etalons in any number of
# benchmarks stay under 100 shards (10,000 partitions a cell asset at 100 systems).
ETALONS_PER_SHARD = 1024
MAX_SHARDS = 99


def default_shards(etalons: int) -> int:
    return max(1, min(MAX_SHARDS, -(-etalons // ETALONS_PER_SHARD)))


class ReviewSettings(BaseModel):
    """How humans review this benchmark: `reviewers` independent lawyers per item (2: blind double review)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reviewers: int = Field(default=1, ge=1, le=5, description="Independent lawyers needed per review item")


class AuditSettings(BaseModel):
    """A random audit of the judge: lawyers label a sample of automatically settled answers, blind to the judge.

    `rate`: the share of judged answers drawn; `min_per_stratum`: at least this many per system and element kind
    (the smallest hashes top a small stratum up); `seed`: recorded, so the same cells always draw the same
    sample; `target_half_width`: the corrected interval's half-width the planner counts labels for."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rate: float = Field(gt=0, le=1, description="Share of judged answers audited, e.g. 0.05")
    min_per_stratum: int = Field(default=5, ge=0, le=10_000,
                                 description="At least this many audited answers per system and element kind")
    seed: int = Field(ge=0, le=2**63 - 1, description="Recorded seed of the draw: any whole number")
    target_half_width: float | None = Field(default=None, gt=0, le=100,
                                            description="Optional: the corrected interval's half-width (points) "
                                                        "the planner counts audit labels for")


class BenchmarkConfig(BaseModel):
    """What `benchmark.yaml` may hold; weights and thresholds stay raw, the methodology reads them."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    name: str = Field(min_length=1)
    methodology: Methodology
    canary: str = Field(
        pattern=CANARY_PATTERN, description="32 lower-case hex characters, random per benchmark"
    )
    description: str | None = None
    weights: dict[str, Any] = Field(default_factory=dict,
                                    description="Optional; the benchmark's own methodology only; else its defaults")
    thresholds: dict[str, Any] = Field(default_factory=dict,
                                       description="Optional; the benchmark's own methodology only")
    partial_credit: dict[str, Any] = Field(default_factory=dict,
                                           description="Optional; the benchmark's own methodology only")
    penalty: dict[str, Any] = Field(default_factory=dict,
                                    description="Optional; the benchmark's own methodology only")
    scoring: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="Per methodology: {lesto: {weights: ..., thresholds: ...}, stielegi: {...}}; for etalons of "
                    "this benchmark that use another methodology than its own")
    shards: int | None = Field(default=None, ge=1, le=MAX_SHARDS,
                               description="Hash buckets of etalon codes (partitions are shards x systems); "
                                           f"default: one per {ETALONS_PER_SHARD} etalons")
    review: ReviewSettings = Field(default_factory=ReviewSettings,
                                   description="Human review: {reviewers: 2} asks for blind double review")
    audit: AuditSettings | None = Field(default=None,
                                        description="Audit of the judge: {rate: 0.05, min_per_stratum: 5, seed: 1}")


@dataclass(frozen=True)
class Benchmark:
    """A loaded benchmark: `id` is its folder name, `path` its folder."""

    id: str
    name: str
    methodology: str
    canary: str
    path: Path
    weights: dict[str, Any] = field(default_factory=dict)
    thresholds: dict[str, Any] = field(default_factory=dict)
    partial_credit: dict[str, Any] = field(default_factory=dict)
    penalty: dict[str, Any] = field(default_factory=dict)
    scoring: dict[str, dict[str, Any]] = field(default_factory=dict)
    shards: int = 1
    review: dict[str, Any] = field(default_factory=dict)
    audit: dict[str, Any] | None = None

    @property
    def reviewers(self) -> int:
        """Independent lawyers each review item needs (`review: {reviewers: N}`)."""
        return int(self.review.get("reviewers", 1))

    def overrides(self, methodology: str) -> dict[str, Any]:
        return scoring_overrides(self.settings(), methodology)

    def settings(self) -> dict[str, Any]:
        """Everything of benchmark.yaml that changes scores or partitions: fingerprinted by the engine."""
        return {"methodology": self.methodology, "weights": self.weights, "thresholds": self.thresholds,
                "partial_credit": self.partial_credit, "penalty": self.penalty, "scoring": self.scoring,
                "shards": self.shards, "review": self.review,
                **({"audit": self.audit} if self.audit is not None else {})}

    @classmethod
    def from_config(cls, folder: Path, config: BenchmarkConfig, etalons: int = 0) -> Benchmark:
        return cls(
            id=folder.name,
            name=config.name,
            methodology=config.methodology,
            canary=config.canary,
            path=folder,
            weights=dict(config.weights),
            thresholds=dict(config.thresholds),
            partial_credit=dict(config.partial_credit),
            penalty=dict(config.penalty),
            scoring={k: dict(v) for k, v in config.scoring.items()},
            shards=config.shards or default_shards(etalons),
            review=config.review.model_dump(),
            audit=config.audit.model_dump() if config.audit is not None else None,
        )


def new_canary() -> str:
    """A fresh canary for a new benchmark (128 random bits: it will never occur in text by chance)."""
    return secrets.token_hex(16)


def scoring_overrides(settings: dict[str, Any], methodology: str) -> dict[str, Any]:
    """The scoring settings a benchmark (its `settings()`) lays over `methodology`'s defaults.

    The top-level weights/thresholds/partial_credit/penalty belong to the benchmark's own methodology;
    `scoring: {<methodology>: {...}}` gives any methodology's (and wins over the top level for its own)."""
    out: dict[str, Any] = {}
    if methodology == settings.get("methodology"):
        for key in ("weights", "thresholds", "partial_credit", "penalty"):
            value = settings.get(key)
            if value:
                out[key] = dict(value)
    for key, value in ((settings.get("scoring") or {}).get(methodology) or {}).items():
        out[key] = {**out.get(key, {}), **value} if isinstance(value, dict) else value
    return out

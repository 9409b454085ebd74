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


class ReviewSettings(BaseModel):
    """How humans review this benchmark: `reviewers` independent lawyers per item (2: blind double review)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reviewers: int = Field(default=1, ge=1, le=5, description="Independent lawyers needed per review item")


class BenchmarkConfig(BaseModel):
    """What `benchmark.yaml` may hold; weights and thresholds stay raw, the methodology reads them."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    name: str = Field(min_length=1)
    methodology: Methodology
    canary: str = Field(
        pattern=CANARY_PATTERN, description="32 lower-case hex characters, random per benchmark"
    )
    description: str | None = None
    weights: dict[str, Any] = Field(default_factory=dict, description="Optional; else the methodology's")
    thresholds: dict[str, Any] = Field(default_factory=dict, description="Optional; else the methodology's")
    review: ReviewSettings = Field(default_factory=ReviewSettings, description="Optional; one reviewer")


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
    reviewers: int = 1

    @classmethod
    def from_config(cls, folder: Path, config: BenchmarkConfig) -> Benchmark:
        return cls(
            id=folder.name,
            name=config.name,
            methodology=config.methodology,
            canary=config.canary,
            path=folder,
            weights=dict(config.weights),
            thresholds=dict(config.thresholds),
            reviewers=config.review.reviewers,
        )


def new_canary() -> str:
    """A fresh canary for a new benchmark (128 random bits: it will never occur in text by chance)."""
    return secrets.token_hex(16)

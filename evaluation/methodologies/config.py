"""Weights, thresholds and partial credit as data, so a benchmark can tune them without a code change.

The defaults live in defaults.yaml next to this module; a benchmark.yaml overrides single keys. A typo
in an override (an unknown key, a negative weight, thresholds the wrong way round) raises ValueError
naming the key, because a silently ignored override would score a whole benchmark on the wrong rubric.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

DEFAULTS_PATH = Path(__file__).with_name("defaults.yaml")


class Thresholds(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    negative_below: float = Field(default=60, ge=0, le=100)
    positive_at: float = Field(default=75, ge=0, le=100)

    @model_validator(mode="after")
    def _ordered(self) -> Thresholds:
        if self.negative_below > self.positive_at:
            raise ValueError(
                f"thresholds.negative_below ({self.negative_below}) must not exceed "
                f"thresholds.positive_at ({self.positive_at})"
            )
        return self


class Penalty(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    per_citation: float = Field(default=10, ge=0)
    cap: float = Field(default=30, ge=0)


class MethodologyConfig(BaseModel):
    """Everything a methodology needs beyond the records: the per-benchmark rubric."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    methodology: str
    weights: dict[str, float]
    thresholds: Thresholds = Thresholds()
    partial_credit: dict[str, float] = Field(default_factory=dict)
    penalty: Penalty = Penalty()

    def weight(self, key: str) -> float:
        return self.weights.get(key, 0.0)


def config_for(methodology: str, overrides: Mapping[str, Any] | None = None) -> MethodologyConfig:
    """The methodology's defaults with a benchmark's overrides laid over them key by key."""
    defaults_ = defaults()
    if methodology not in defaults_:
        from evaluation.methodologies.registry import names

        raise ValueError(f"unknown methodology {methodology!r}: expected one of {', '.join(names())}")
    base: dict[str, Any] = dict(defaults_[methodology])
    for key, value in (overrides or {}).items():
        if key not in ("weights", "thresholds", "partial_credit", "penalty"):
            raise ValueError(
                f"unknown scoring setting {key!r}: expected weights, thresholds, partial_credit or penalty"
            )
        if not isinstance(value, Mapping):
            raise ValueError(f"scoring setting {key!r} must be a mapping, got {type(value).__name__}")
        if key in ("weights", "partial_credit"):
            known = set(base.get(key) or {})
            unknown = sorted(set(value) - known)
            if unknown:
                raise ValueError(
                    f"{key}: unknown key(s) {', '.join(map(str, unknown))} for {methodology}; "
                    f"expected {', '.join(sorted(known))}"
                )
        base[key] = {**(base.get(key) or {}), **value}
    for name, weight in (base.get("weights") or {}).items():
        if not isinstance(weight, (int, float)) or weight < 0:
            raise ValueError(f"weights.{name} must be a non-negative number, got {weight!r}")
    try:
        return MethodologyConfig(methodology=methodology, **base)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        hint = ""
        if first["type"] == "extra_forbidden" and first["loc"][0] in _FIELDS:
            hint = f"; expected {', '.join(_FIELDS[str(first['loc'][0])])}"
        raise ValueError(f"{methodology} scoring settings, {where}: {first['msg']}{hint}") from exc


_FIELDS = {"thresholds": tuple(Thresholds.model_fields), "penalty": tuple(Penalty.model_fields)}


@cache
def defaults() -> dict[str, dict[str, Any]]:
    """Each methodology's default settings, from defaults.yaml beside this module."""
    data = yaml.safe_load(DEFAULTS_PATH.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{DEFAULTS_PATH}: expected a mapping of methodology to settings")
    return data

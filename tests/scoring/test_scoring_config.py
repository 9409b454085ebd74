from __future__ import annotations

from typing import Any

import pytest

from evaluation.scoring import config_for


@pytest.mark.parametrize(
    ("methodology", "overrides", "key", "expected"),
    [
        ("stielegi", None, "sources", 50),
        ("stielegi", {"weights": {"sources": 40}}, "sources", 40),
        ("stielegi", {"weights": {"sources": 40}}, "issue", 20),
        ("lesto", None, "conclusion", 40),
    ],
)
def test_overrides_replace_only_the_weights_they_name(
    methodology: str, overrides: dict[str, Any] | None, key: str, expected: float
) -> None:
    assert config_for(methodology, overrides).weight(key) == expected


def test_thresholds_default_to_60_and_75_and_can_be_overridden_one_at_a_time() -> None:
    config = config_for("lesto", {"thresholds": {"positive_at": 80}})
    assert (config.thresholds.negative_below, config.thresholds.positive_at) == (60, 80)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"weigths": {}}, "unknown scoring setting 'weigths'"),
        ({"weights": {"sourcez": 10}}, "unknown key"),
        ({"weights": {"sources": -5}}, "weights.sources"),
        ({"thresholds": {"negative_below": 80}}, "must not exceed"),
        ({"penalty": {"cap": -1}}, "penalty.cap"),
        ({"thresholds": 70}, "must be a mapping"),
        ({"thresholds": {"positive": 70}}, "thresholds.positive: .*expected negative_below, positive_at"),
    ],
)
def test_a_bad_override_is_refused_naming_the_setting(overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        config_for("stielegi", overrides)


def test_an_unknown_methodology_has_no_config() -> None:
    with pytest.raises(ValueError, match="unknown methodology"):
        config_for("vibes", None)

"""The audit's draw (evaluation.audit.sample): deterministic from the recorded seed and the set of answers, at the
rate, stratified by system and element kind with a minimum per stratum, and never reshuffled as answers come."""

from __future__ import annotations

import random

import pytest

from evaluation.audit.sample import AuditSettings, CellKey, audit_hash, draw

KINDS = ("issue", "branch", "fact", "critical")


def cells(count: int, systems: tuple[str, ...] = ("a", "b"), seed: int = 0,
          rare: float = 0.1) -> list[tuple[CellKey, tuple[str, ...]]]:
    """Answers of several systems: every one has issue and branch elements, some a fact, a few a critical error."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        for system in systems:
            kinds = ["issue", "branch"] + (["fact"] if rng.random() < 0.5 else []) + (
                ["critical"] if rng.random() < rare else [])
            out.append(((system, f"E-{i:04d}", f"v{i % 3}", 1), tuple(kinds)))
    return out


def drawn(listed: list[tuple[CellKey, tuple[str, ...]]], settings: AuditSettings) -> dict[CellKey, bool]:
    found = draw(((key, audit_hash(settings.seed, *key), kinds) for key, kinds in listed), settings)
    return {key: d.sampled for key, d in found.items()}


def test_the_same_seed_and_answers_draw_the_same_sample_in_any_order() -> None:
    settings = AuditSettings(rate=0.1, min_per_stratum=5, seed=42)
    listed = cells(300)
    shuffled = list(listed)
    random.Random(1).shuffle(shuffled)
    assert drawn(listed, settings) == drawn(shuffled, settings)


def test_another_seed_draws_another_sample() -> None:
    listed = cells(300)
    one = drawn(listed, AuditSettings(0.1, 0, 1))
    two = drawn(listed, AuditSettings(0.1, 0, 2))
    assert {k for k, v in one.items() if v} != {k for k, v in two.items() if v}


def test_the_hash_is_uniform_so_the_rate_is_the_share_drawn() -> None:
    values = [audit_hash(7, "sys", f"C-{i}", "v1", 1) for i in range(20000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert sum(v < 0.05 for v in values) / len(values) == pytest.approx(0.05, abs=0.004)
    assert sum(v < 0.5 for v in values) / len(values) == pytest.approx(0.5, abs=0.01)


@pytest.mark.parametrize("rate", [0.02, 0.05, 0.2])
def test_every_system_and_element_kind_gets_at_least_the_minimum(rate: float) -> None:
    settings = AuditSettings(rate=rate, min_per_stratum=8, seed=3)
    listed = cells(400, rare=0.05)
    sample = drawn(listed, settings)
    for system in ("a", "b"):
        for kind in KINDS:
            members = [k for k, kinds in listed if k[0] == system and kind in kinds]
            got = sum(sample[k] for k in members)
            assert got >= min(8, len(members)), (system, kind, got, len(members))


def test_a_stratum_smaller_than_the_minimum_is_audited_whole() -> None:
    listed = [(("a", f"E-{i}", "v", 1), ("issue", "critical" if i < 3 else "issue")) for i in range(100)]
    found = draw(((k, audit_hash(9, *k), kinds) for k, kinds in listed), AuditSettings(0.05, 5, 9))
    assert all(found[k].sampled and found[k].inclusion == 1.0 for k, kinds in listed if "critical" in kinds)


def test_the_inclusion_probability_is_the_rate_where_no_stratum_needs_topping_up() -> None:
    listed = cells(2000, systems=("a",), rare=0.5)
    found = draw(((k, audit_hash(5, *k), kinds) for k, kinds in listed), AuditSettings(0.1, 5, 5))
    assert {d.inclusion for d in found.values()} == {0.1}
    assert all(d.sampled == (audit_hash(5, *k) < 0.1) for k, d in found.items())


def test_new_answers_join_at_the_rate_and_no_answer_the_rate_drew_ever_leaves() -> None:
    settings = AuditSettings(rate=0.1, min_per_stratum=5, seed=17)
    listed = cells(600)
    early = drawn(listed[:200], settings)
    late = drawn(listed, settings)
    by_rate = [k for k in early if audit_hash(17, *k) < settings.rate]
    assert by_rate and all(late[k] for k in by_rate)
    joined = [k for k, _ in listed[200:] if late[k]]
    assert len(joined) / len(listed[200:]) == pytest.approx(0.1, abs=0.03)


def test_answers_with_nothing_the_judge_settled_are_not_drawn() -> None:
    found = draw([(("a", "E-1", "v", 1), 0.01, ()), (("a", "E-2", "v", 1), 0.01, ("issue",))],
                 AuditSettings(0.5, 0, 1))
    assert list(found) == [("a", "E-2", "v", 1)]


def test_settings_come_from_benchmark_yaml_or_mean_no_audit() -> None:
    assert AuditSettings.of({"audit": {"rate": 0.05, "min_per_stratum": 5, "seed": 1}}) == AuditSettings(0.05, 5, 1)
    assert AuditSettings.of({"review": {"reviewers": 1}}) is None
    assert AuditSettings.of(None) is None


@pytest.mark.parametrize(("rate", "minimum"), [(0.05, 5), (0.2, 0), (0.01, 30), (1.0, 3)])
def test_the_analytics_draw_on_columns_is_the_reference_draw(rate: float, minimum: int) -> None:
    import json

    import polars as pl

    from evaluation.audit.estimates import sample

    settings = AuditSettings(rate=rate, min_per_stratum=minimum, seed=23)
    listed = [*cells(500, systems=("a", "b", "c"), rare=0.04), (("a", "EMPTY", "v", 1), ())]
    frame = pl.DataFrame({
        "benchmark": "b", "system": [k[0] for k, _ in listed], "code": [k[1] for k, _ in listed],
        "version": [k[2] for k, _ in listed], "attempt": [k[3] for k, _ in listed], "methodology": "stielegi",
        "indicative": False, "targets": [len(kinds) for _, kinds in listed],
        "kinds": [json.dumps(list(kinds)) for _, kinds in listed],
        "audit_hash": [audit_hash(23, *k) for k, _ in listed], "covered": 0, "score": 50.0, "status": "final",
        "judge_score": 50.0, "judge_verdict": "partial", "human_score": 50.0, "human_verdict": "partial"})
    got = {(r["system"], r["code"], r["version"], r["attempt"]): (r["inclusion"], r["sampled"])
           for r in sample(frame, settings).iter_rows(named=True)}
    reference = draw(((k, audit_hash(23, *k), kinds) for k, kinds in listed), settings)
    assert {k: (d.inclusion, d.sampled) for k, d in reference.items()} == {k: v for k, v in got.items()
                                                                          if v[0] is not None}
    assert got[("a", "EMPTY", "v", 1)] == (None, False)

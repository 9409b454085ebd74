"""evaluation.ppi against simulation: judges with a known bias, a known truth, repeated draws of etalons and audits.

Each scenario draws a benchmark (scores of answers on a 0-100 scale, the lawyer's value the truth), a judge that
errs in a known way, and an audit sample; the corrected interval must cover the true mean in 93-97% of the draws
(2,000 seeded draws: the coverage's own standard error is about 0.5%), while the judge-only interval, with the
same biased judge, misses it most of the time. With a perfect judge the corrected figures are the plain ones.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from scipy import stats as sps

from evaluation import ppi, stats

VALUES = np.array([0.0, 50.0, 60.0, 75.0, 100.0])
SHARES = np.array([0.1, 0.2, 0.2, 0.2, 0.3])
TRUTH = float(VALUES @ SHARES)
DRAWS = 2000
Rng = np.random.Generator


def drops_points(rng: Rng, truth: np.ndarray) -> np.ndarray:
    """A judge that says "no" to a branch the answer treated (30% of answers lose 20 points) and now and then
    credits one it did not (10% gain 25)."""
    f = np.where(rng.random(len(truth)) < 0.3, np.maximum(0.0, truth - 20), truth)
    return np.where(rng.random(len(truth)) < 0.1, np.minimum(100.0, f + 25), f)


def mostly_guesses(rng: Rng, truth: np.ndarray) -> np.ndarray:
    """A poor judge: 60% of its figures are unrelated to the answer (PPI++ should lean on the labels)."""
    return np.where(rng.random(len(truth)) < 0.6, rng.choice(VALUES, size=len(truth)), truth)


def lenient(rng: Rng, truth: np.ndarray) -> np.ndarray:
    """A judge that credits half of the failed answers with a pass: a bias of about +5 points."""
    return np.where((truth == 0) & (rng.random(len(truth)) < 0.5), 50.0, truth)


@dataclass(frozen=True)
class Scenario:
    name: str
    draw: Callable[[Rng], tuple[np.ndarray, list[float | None], dict[str, Any]]]
    truth: float = TRUTH


def simple(judge: Callable[[Rng, np.ndarray], np.ndarray], n: int, rate: float) -> Callable[..., Any]:
    def draw(rng: Rng) -> tuple[np.ndarray, list[float | None], dict[str, Any]]:
        truth = rng.choice(VALUES, size=n, p=SHARES)
        audited = rng.random(n) < rate
        return judge(rng, truth), [float(t) if a else None for t, a in zip(truth, audited, strict=True)], {}
    return draw


def attempts(rng: Rng) -> tuple[np.ndarray, list[float | None], dict[str, Any]]:
    """150 etalons answered three times each: attempts of one etalon share its difficulty (clustered)."""
    etalons, tries = 150, 3
    shift = np.repeat(rng.choice([-10.0, 0.0, 10.0], size=etalons), tries)
    truth = np.clip(rng.choice(VALUES, size=etalons * tries, p=SHARES) + shift, 0, 100)
    audited = rng.random(len(truth)) < 0.2
    labels = [float(t) if a else None for t, a in zip(truth, audited, strict=True)]
    return drops_points(rng, truth), labels, {"clusters": np.repeat(np.arange(etalons), tries).tolist()}


ATTEMPTS_TRUTH = float(sum(np.clip(v + s, 0, 100) * p / 3 for v, p in zip(VALUES, SHARES, strict=True)
                           for s in (-10.0, 0.0, 10.0)))


def topped_up(rng: Rng) -> tuple[np.ndarray, list[float | None], dict[str, Any]]:
    """5% by hash plus at least 20 of a rare stratum (15% of answers) and 20 overall, by the smallest hashes:
    unequal inclusion probabilities, known exactly (priority sampling), corrected by the weights."""
    n, rate, k = 600, 0.05, 20
    truth = rng.choice(VALUES, size=n, p=SHARES)
    rare = rng.random(n) < 0.15
    truth = np.where(rare, np.maximum(0.0, truth - 30), truth)      # the rare stratum scores lower
    u = rng.random(n)
    inclusion = np.full(n, rate)
    for members in (rare, np.ones(n, dtype=bool)):
        ordered = np.sort(u[members])
        threshold = ordered[k] if len(ordered) > k else 1.0
        inclusion = np.where(members, np.maximum(inclusion, threshold), inclusion)
    audited = u < inclusion
    labels = [float(t) if a else None for t, a in zip(truth, audited, strict=True)]
    return drops_points(rng, truth), labels, {"weights": (1 / inclusion).tolist()}


TOPPED_TRUTH = float(0.85 * TRUTH + 0.15 * (np.maximum(0.0, VALUES - 30) @ SHARES))


def known_part(rng: Rng) -> tuple[np.ndarray, list[float | None], dict[str, Any]]:
    """A third of the answers have nothing the judge settled (every element decided by a lawyer): their figure is
    known; the rest are audited at 20%."""
    n = 400
    truth = rng.choice(VALUES, size=n, p=SHARES)
    known = rng.random(n) < 0.3
    audited = known | (rng.random(n) < 0.2)
    labels = [float(t) if a else None for t, a in zip(truth, audited, strict=True)]
    return np.where(known, truth, drops_points(rng, truth)), labels, {"strata": known.astype(int).tolist()}


SCENARIOS = [
    Scenario("a judge that drops points, 400 answers, 25% audited", simple(drops_points, 400, 0.25)),
    Scenario("a judge that drops points, 1,000 answers, 10% audited", simple(drops_points, 1000, 0.1)),
    Scenario("a lenient judge, 300 answers, 30% audited", simple(lenient, 300, 0.3)),
    Scenario("a judge that mostly guesses, 400 answers, 25% audited", simple(mostly_guesses, 400, 0.25)),
    Scenario("three attempts per etalon, clustered by etalon", attempts, ATTEMPTS_TRUTH),
    Scenario("a minimum per stratum topping up a 5% draw", topped_up, TOPPED_TRUTH),
    Scenario("answers whose every element a lawyer decided", known_part),
]


def coverage(scenario: Scenario, tuning: ppi.Tuning, seed: int = 11) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    corrected = judge = 0
    for _ in range(DRAWS):
        f, labels, options = scenario.draw(rng)
        result = ppi.ppi_mean(f, labels, tuning=tuning, **options)
        assert result.corrected.low is not None and result.corrected.high is not None
        assert result.judge.low is not None and result.judge.high is not None
        corrected += result.corrected.low <= scenario.truth <= result.corrected.high
        judge += result.judge.low <= scenario.truth <= result.judge.high
    return corrected / DRAWS, judge / DRAWS


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
@pytest.mark.parametrize("tuning", ["ppi++", "ppi"])
def test_the_corrected_interval_covers_the_true_mean_about_95_times_in_100(scenario: Scenario, tuning: str) -> None:
    got, _ = coverage(scenario, tuning)  # type: ignore[arg-type]
    print(f"{scenario.name} [{tuning}]: corrected coverage {got:.3f}")
    assert 0.93 <= got <= 0.97


@pytest.mark.parametrize("scenario", [s for s in SCENARIOS if "guesses" not in s.name and "lenient" not in s.name],
                         ids=lambda s: s.name)
def test_the_judge_only_interval_misses_the_true_mean_when_the_judge_is_biased(scenario: Scenario) -> None:
    _, judge = coverage(scenario, "ppi++", seed=12)
    print(f"{scenario.name}: judge-only coverage {judge:.3f}")
    assert judge < 0.75


def test_the_truth_of_the_simulations_is_what_the_draws_average_to() -> None:
    rng = np.random.default_rng(3)
    for scenario in (SCENARIOS[0], SCENARIOS[4], SCENARIOS[5]):
        values = []
        for _ in range(300):
            f, labels, options = scenario.draw(rng)
            values.append(ppi.ppi_mean(f, labels, **options).corrected.value)
        assert np.mean(values) == pytest.approx(scenario.truth, abs=0.35), scenario.name


def test_power_tuning_narrows_the_interval_when_the_judge_mostly_guesses() -> None:
    rng = np.random.default_rng(5)
    tuned, plain = [], []
    for _ in range(300):
        f, labels, _ = simple(mostly_guesses, 400, 0.25)(rng)
        tuned.append(ppi.ppi_mean(f, labels, tuning="ppi++").corrected.half_width)
        plain.append(ppi.ppi_mean(f, labels, tuning="ppi").corrected.half_width)
    assert np.mean(tuned) < 0.9 * np.mean(plain)


# --- a perfect judge ------------------------------------------------------------------------------------------


def _perfect(seed: int) -> tuple[np.ndarray, list[float | None], dict[str, Any]]:
    rng = np.random.default_rng(seed)
    n = 240
    truth = rng.choice(VALUES, size=n, p=SHARES)
    audited = rng.random(n) < 0.3
    return truth, [float(t) if a else None for t, a in zip(truth, audited, strict=True)], {
        "clusters": (np.arange(n) // 2).tolist(), "weights": rng.uniform(1, 6, size=n).tolist(),
        "strata": (rng.random(n) < 0.2).astype(int).tolist()}


@pytest.mark.parametrize("tuning", ["ppi++", "ppi"])
@pytest.mark.parametrize("options", ["none", "clusters", "weights", "strata", "all"])
def test_with_a_perfect_judge_the_corrected_figures_are_the_plain_ones(tuning: str, options: str) -> None:
    f, labels, every = _perfect(4)
    chosen = every if options == "all" else ({options: every[options]} if options != "none" else {})
    if "strata" in chosen:   # a stratum the option marks as known holds labels on every row
        labels = [float(v) if s or lab is not None else None
                  for v, s, lab in zip(f, chosen["strata"], labels, strict=True)]
    result = ppi.ppi_mean(f, labels, tuning=tuning, **chosen)  # type: ignore[arg-type]
    plain = ppi.clustered_mean(f, chosen.get("clusters"))
    assert result.lam == 1.0
    assert result.corrected.value == pytest.approx(result.judge.value, abs=1e-12)
    assert (result.corrected.low, result.corrected.high) == pytest.approx((result.judge.low, result.judge.high),
                                                                        abs=1e-9)
    assert (result.judge.value, result.judge.low, result.judge.high) == pytest.approx(
        (plain.value, plain.low, plain.high), abs=1e-12)


def test_every_answer_audited_gives_the_labels_own_mean() -> None:
    rng = np.random.default_rng(8)
    truth = rng.choice(VALUES, size=200, p=SHARES)
    result = ppi.ppi_mean(drops_points(rng, truth), truth.tolist())
    plain = ppi.clustered_mean(truth)
    assert result.corrected.value == pytest.approx(float(truth.mean()))
    assert (result.corrected.low, result.corrected.high) == pytest.approx((plain.low, plain.high), abs=1e-9)


def test_no_label_at_all_leaves_the_corrected_figure_undefined() -> None:
    result = ppi.ppi_mean([50.0, 60.0, 70.0], [None, None, None])
    assert result.corrected.value is None and result.judge.value == pytest.approx(60.0)


def test_a_single_label_gives_a_figure_without_an_interval() -> None:
    result = ppi.ppi_mean([50.0, 60.0, 70.0, 80.0], [None, 40.0, None, None])
    assert result.corrected.value == pytest.approx(65.0 - 20.0)
    assert result.corrected.low is None


# --- the planner ----------------------------------------------------------------------------------------------


def test_the_planned_number_of_labels_reaches_the_target_half_width() -> None:
    rng = np.random.default_rng(21)
    n = 2000
    truth = rng.choice(VALUES, size=n, p=SHARES)
    f = drops_points(rng, truth)
    audited = rng.random(n) < 0.03
    first = ppi.ppi_mean(f, [float(t) if a else None for t, a in zip(truth, audited, strict=True)])
    assert first.corrected.half_width is not None and first.residual_variance is not None
    target = first.corrected.half_width * 0.6
    needed = ppi.ppi_sample_size(first.residual_variance, target, floor_variance=first.floor_variance or 0.0,
                                 population=first.population)
    assert needed is not None and needed > first.labeled
    widths = []
    for _ in range(200):   # audit that many answers of the same benchmark, many times
        chosen = np.zeros(n, dtype=bool)
        chosen[rng.choice(n, size=needed, replace=False)] = True
        again = ppi.ppi_mean(f, [float(t) if a else None for t, a in zip(truth, chosen, strict=True)])
        widths.append(again.corrected.half_width)
    print(f"planned {needed} labels for ±{target:.2f}: got ±{np.mean(widths):.2f} on average")
    assert np.mean(widths) == pytest.approx(target, rel=0.1)
    assert ppi.ppi_half_width(first, needed) == pytest.approx(target, rel=0.02)


def test_the_planner_says_no_number_of_labels_beats_the_etalons_own_spread() -> None:
    assert ppi.ppi_sample_size(4.0, 1.0, floor_variance=1.0) is None
    assert ppi.ppi_sample_size(4.0, 1.96 * math.sqrt(1.0 + 4.0 / 100), floor_variance=1.0) == 100


def test_the_planner_grows_as_one_over_the_half_width_squared() -> None:
    one = ppi.ppi_sample_size(900.0, 3.0)
    assert one is not None
    assert ppi.ppi_sample_size(900.0, 1.5) == pytest.approx(4 * one, rel=0.01)


@pytest.mark.parametrize(("args", "kwargs", "message"), [
    ((-1.0, 1.0), {}, "residual_variance"),
    ((1.0, 0.0), {}, "half_width"),
    ((1.0, 1.0), {"floor_variance": -2.0}, "floor_variance"),
    ((1.0, 1.0), {"population": 0}, "population"),
])
def test_the_planner_refuses_bad_arguments(args: tuple[float, float], kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ppi.ppi_sample_size(*args, **kwargs)


# --- the pieces -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("df", [2, 3, 5, 10, 30, 200])
def test_the_t_quantile_is_scipys_to_a_percent(df: int) -> None:
    assert ppi.t_quantile(float(sps.norm.ppf(0.975)), df) == pytest.approx(float(sps.t.ppf(0.975, df)), rel=0.01)


@pytest.mark.parametrize(("hits", "n"), [(0, 10), (3, 10), (7, 8), (40, 100)])
def test_an_unweighted_rate_gets_the_wilson_interval(hits: int, n: int) -> None:
    rate, low, high = ppi.weighted_rate([1.0] * hits + [0.0] * (n - hits))
    assert rate == pytest.approx(hits / n)
    assert (low, high) == pytest.approx(stats.wilson_interval(hits, n), abs=1e-12)


def test_a_weighted_rate_is_the_hajek_share() -> None:
    rate, low, high = ppi.weighted_rate([1.0, 0.0, 0.0], [3.0, 1.0, 1.0])
    assert rate == pytest.approx(0.6)
    assert 0.0 < low < rate < high < 1.0


@pytest.mark.parametrize(("call", "message"), [
    (lambda: ppi.ppi_mean([], []), "empty"),
    (lambda: ppi.ppi_mean([1.0, 2.0], [1.0]), "one entry per prediction"),
    (lambda: ppi.ppi_mean([1.0, math.inf], [1.0, None]), "finite"),
    (lambda: ppi.ppi_mean([1.0, 2.0], [1.0, None], weights=[0.0, 1.0]), "positive"),
    (lambda: ppi.ppi_mean([1.0, 2.0], [1.0, None], clusters=["a"]), "one entry per row"),
    (lambda: ppi.ppi_mean([1.0, 2.0], [1.0, None], tuning="best"), "tuning"),  # type: ignore[arg-type]
    (lambda: ppi.ppi_mean([1.0, 2.0], [1.0, None], z=0.0), "z must"),
    (lambda: ppi.weighted_rate([0.5]), "outcomes 0 or 1"),
])
def test_bad_arguments_raise_value_errors(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_the_estimator_is_importable_from_stats_as_the_other_statistics_are() -> None:
    assert stats.ppi_mean is ppi.ppi_mean and stats.ppi_sample_size is ppi.ppi_sample_size

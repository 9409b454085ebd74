"""evaluation.stats against independent computations (scipy, brute-force enumeration) and published
examples."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from scipy import stats as sps

from evaluation import stats


def _random_cases(seed: int, count: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        n = rng.randint(1, 400)
        cases.append((rng.randint(0, n), n))
    return cases


# --- Wilson -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        (7, 8, 0.529, 0.978),  # the lecture's small demo (seeds/002, section 6)
        (8, 10, 0.490, 0.943),  # Wilson for 8/10, the textbook example
        (0, 10, 0.0, 0.278),
        (10, 10, 0.722, 1.0),
    ],
)
def test_wilson_interval_matches_published_examples(successes: int, n: int, low: float, high: float) -> None:
    got = stats.wilson_interval(successes, n)
    assert got == pytest.approx((low, high), abs=5e-4)


@pytest.mark.parametrize(("successes", "n"), _random_cases(seed=1, count=200))
def test_wilson_interval_agrees_with_scipy_on_random_counts(successes: int, n: int) -> None:
    ci = sps.binomtest(successes, n).proportion_ci(confidence_level=0.95, method="wilson")
    # scipy uses the exact normal quantile 1.959964; the contract's default z is 1.96.
    got = stats.wilson_interval(successes, n, z=float(sps.norm.ppf(0.975)))
    assert got == pytest.approx((ci.low, ci.high), abs=1e-9)


# --- McNemar ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("only_a", "only_b", "expected"),
    [
        (20, 10, 0.098737),  # scenario I of worked example A
        (10, 0, 0.001953),  # scenario II: 2 / 2^10
        (0, 0, 1.0),  # no discordant pairs: no evidence against the null
        (5, 5, 1.0),
    ],
)
def test_mcnemar_exact_matches_the_worked_example(only_a: int, only_b: int, expected: float) -> None:
    assert stats.mcnemar_exact(only_a, only_b) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize(("only_a", "total"), [*_random_cases(seed=2, count=200), (3000, 6100), (4100, 8000)])
def test_mcnemar_exact_agrees_with_scipy_binomtest(only_a: int, total: int) -> None:
    only_b = total - only_a
    expected = sps.binomtest(only_a, total, 0.5).pvalue
    assert stats.mcnemar_exact(only_a, only_b) == pytest.approx(expected, rel=1e-9, abs=1e-12)


# --- pass@k and pass^k --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("k", "expected"), [(1, 0.2000), (5, 0.7183), (10, 0.9567)])
def test_pass_at_k_matches_the_lecture_table_for_n20_c4(k: int, expected: float) -> None:
    assert stats.pass_at_k(20, 4, k) == pytest.approx(expected, abs=5e-5)


def _enumerate_subsets(n: int, c: int, k: int) -> tuple[float, float]:
    """Every k-subset of n attempts (the first c successful): share with at least one success, with all."""
    outcomes = [i < c for i in range(n)]
    subsets = list(itertools.combinations(outcomes, k))
    any_share = sum(any(s) for s in subsets) / len(subsets)
    all_share = sum(all(s) for s in subsets) / len(subsets)
    return any_share, all_share


_SMALL_NCK = [(n, c, k) for n in range(1, 9) for c in range(n + 1) for k in range(1, n + 1)]


@pytest.mark.parametrize(("n", "c", "k"), _SMALL_NCK)
def test_pass_at_k_and_pass_hat_k_equal_brute_force_subset_counts(n: int, c: int, k: int) -> None:
    any_share, all_share = _enumerate_subsets(n, c, k)
    assert stats.pass_at_k(n, c, k) == pytest.approx(any_share, abs=1e-12)
    assert stats.pass_hat_k(n, c, k) == pytest.approx(all_share, abs=1e-12)


@pytest.mark.parametrize("seed", range(30))
def test_pass_at_k_agrees_with_the_hypergeometric_distribution_for_large_n(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(50, 2000)
    c = rng.randint(0, n)
    k = rng.randint(1, n)
    # P(no success among k drawn) is the hypergeometric probability of zero successes.
    expected_none = sps.hypergeom(n, c, k).pmf(0)
    expected_all = sps.hypergeom(n, c, k).pmf(k)
    assert stats.pass_at_k(n, c, k) == pytest.approx(1 - expected_none, abs=1e-9)
    assert stats.pass_hat_k(n, c, k) == pytest.approx(expected_all, abs=1e-9)


def test_mean_pass_at_k_averages_over_tasks_instead_of_pooling() -> None:
    tasks = [(10, 10), (10, 0)]
    # Per task: 1.0 and 0.0 -> 0.5. Pooled (20, 10) would give 1 - C(10,5)/C(20,5) = 0.984.
    assert stats.mean_pass_at_k(tasks, 5) == pytest.approx(0.5)
    assert stats.mean_pass_hat_k(tasks, 5) == pytest.approx(0.5)


# --- argument checks ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: stats.pass_at_k(3, 1, 4), "k"),
        (lambda: stats.pass_at_k(3, 4, 1), "c"),
        (lambda: stats.pass_at_k(3, -1, 1), "c"),
        (lambda: stats.pass_hat_k(0, 0, 1), "n"),
        (lambda: stats.pass_hat_k(5, 2, 0), "k"),
        (lambda: stats.mean_pass_at_k([], 1), "empty"),
        (lambda: stats.wilson_interval(11, 10), "successes"),
        (lambda: stats.wilson_interval(0, 0), "n"),
        (lambda: stats.wilson_interval(-1, 10), "successes"),
        (lambda: stats.mcnemar_exact(-1, 3), "only_a"),
        (lambda: stats.paired_bootstrap([], []), "empty"),
        (lambda: stats.paired_bootstrap([1.0, 2.0], [1.0]), "same length"),
        (lambda: stats.paired_bootstrap([1.0, 2.0], [1.0, 0.0], groups=["x"]), "groups"),
        (lambda: stats.brier_score([1.2], [1]), "probabilities"),
        (lambda: stats.brier_score([], []), "empty"),
        (lambda: stats.brier_score([0.5], [2]), "outcomes"),
        (lambda: stats.brier_score([0.5, 0.4], [1]), "same length"),
        (lambda: stats.selective([-0.1], [1], 0.5), "probabilities"),
        (lambda: stats.selective([0.5], [1], 1.5), "threshold"),
        (lambda: stats.sample_size(1.5, 0.05), "p"),
        (lambda: stats.sample_size(0.5, 0.0), "half_width"),
        (lambda: stats.sample_size(0.5, 0.05, groups=3), "groups"),
        (lambda: stats.cohen_kappa([], []), "empty"),
        (lambda: stats.cohen_kappa(["yes"], ["yes", "no"]), "same length"),
    ],
)
def test_bad_arguments_raise_a_value_error_naming_the_argument(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]


# --- paired bootstrap ---------------------------------------------------------------------------------------


def test_paired_bootstrap_returns_the_mean_difference_inside_its_interval() -> None:
    rng = np.random.default_rng(5)
    a = rng.random(300)
    b = a - 0.1 + rng.normal(0, 0.05, 300)
    mean, low, high = stats.paired_bootstrap(a.tolist(), b.tolist(), resamples=4000)
    assert mean == pytest.approx(float((a - b).mean()))
    assert low < mean < high


@pytest.mark.parametrize("seed", range(8))
def test_paired_bootstrap_interval_is_close_to_the_normal_theory_interval(seed: int) -> None:
    rng = np.random.default_rng(seed)
    diff = rng.normal(0.05, 0.3, 2000)
    mean, low, high = stats.paired_bootstrap(diff.tolist(), [0.0] * len(diff), resamples=5000, seed=seed)
    se = diff.std(ddof=0) / math.sqrt(len(diff))
    assert low == pytest.approx(mean - 1.96 * se, abs=0.2 * se)
    assert high == pytest.approx(mean + 1.96 * se, abs=0.2 * se)


def test_pairing_gives_a_narrower_interval_than_ignoring_the_correlation() -> None:
    rng = np.random.default_rng(11)
    difficulty = rng.random(400)
    a = difficulty + 0.02 + rng.normal(0, 0.02, 400)
    b = difficulty + rng.normal(0, 0.02, 400)
    _, low, high = stats.paired_bootstrap(a.tolist(), b.tolist(), resamples=3000)
    unpaired_half = 1.96 * math.sqrt(a.var() / 400 + b.var() / 400)
    assert (high - low) / 2 < unpaired_half / 5


def test_clustered_bootstrap_widens_the_interval_when_rows_of_a_group_are_copies() -> None:
    rng = np.random.default_rng(3)
    per_group = rng.normal(0, 1, 50)
    diff = np.repeat(per_group, 10)  # 10 identical attempts per etalon: 50 independent units, not 500
    groups = np.repeat(np.arange(50), 10).tolist()
    _, low_rows, high_rows = stats.paired_bootstrap(diff.tolist(), [0.0] * 500, resamples=3000)
    _, low_groups, high_groups = stats.paired_bootstrap(diff.tolist(), [0.0] * 500, groups, resamples=3000)
    ratio = (high_groups - low_groups) / (high_rows - low_rows)
    assert ratio == pytest.approx(math.sqrt(10), rel=0.15)


def test_paired_bootstrap_is_reproducible_for_a_seed() -> None:
    a, b = [0.1, 0.9, 0.4, 0.7, 0.3], [0.2, 0.5, 0.4, 0.1, 0.3]
    assert stats.paired_bootstrap(a, b, seed=7) == stats.paired_bootstrap(a, b, seed=7)


# --- Brier, selective prediction, sample size, kappa --------------------------------------------------------

_LECTURE_Q = [0.95] * 4 + [0.8] * 10 + [0.6] * 6
_LECTURE_Y = [1] * 4 + [1] * 6 + [0] * 4 + [1] * 3 + [0] * 3


def test_brier_score_matches_the_lecture_examples() -> None:
    assert stats.brier_score([0.8] * 10, [1] * 6 + [0] * 4) == pytest.approx(0.28)
    assert stats.brier_score(_LECTURE_Q, _LECTURE_Y) == pytest.approx(0.2185)


@pytest.mark.parametrize(
    ("threshold", "coverage", "risk"),
    [(0.8, 0.7, 4 / 14), (0.9, 0.2, 0.0), (0.5, 1.0, 7 / 20), (0.99, 0.0, None)],
)
def test_selective_matches_the_lecture_set(threshold: float, coverage: float, risk: float | None) -> None:
    got_coverage, got_risk = stats.selective(_LECTURE_Q, _LECTURE_Y, threshold)
    assert got_coverage == pytest.approx(coverage)
    assert got_risk == (None if risk is None else pytest.approx(risk))


@pytest.mark.parametrize("seed", range(20))
def test_brier_score_equals_a_plain_loop(seed: int) -> None:
    rng = random.Random(seed)
    q = [rng.random() for _ in range(50)]
    y = [rng.randint(0, 1) for _ in range(50)]
    assert stats.brier_score(q, y) == pytest.approx(sum((a - b) ** 2 for a, b in zip(q, y, strict=True)) / 50)


@pytest.mark.parametrize(("half_width", "expected"), [(0.05, 146), (0.02, 913), (0.01, 3650), (0.005, 14599)])
def test_sample_size_for_two_systems_matches_the_lecture(half_width: float, expected: int) -> None:
    assert stats.sample_size(0.95, half_width, groups=2) == expected


def test_sample_size_for_one_proportion_is_half_the_two_group_size() -> None:
    assert stats.sample_size(0.5, 0.05) == 385  # the classic survey number: 0.25 * (1.96 / 0.05)^2 = 384.16


@pytest.mark.parametrize("seed", range(20))
def test_cohen_kappa_agrees_with_the_confusion_matrix_formula(seed: int) -> None:
    rng = np.random.default_rng(seed)
    labels = ["yes", "no", "partial"]
    a = rng.choice(labels, 60).tolist()
    b = [x if rng.random() < 0.6 else rng.choice(labels) for x in a]
    table = (
        np.array(
            [
                [sum(1 for x, y in zip(a, b, strict=True) if x == i and y == j) for j in labels]
                for i in labels
            ],
            dtype=float,
        )
        / 60
    )
    p_o = np.trace(table)
    p_e = float(table.sum(axis=1) @ table.sum(axis=0))
    assert stats.cohen_kappa(a, b) == pytest.approx((p_o - p_e) / (1 - p_e))


def test_cohen_kappa_is_undefined_when_both_raters_use_one_label() -> None:
    assert stats.cohen_kappa(["yes"] * 5, ["yes"] * 5) is None


def test_batched_bootstrap_of_many_cells_equals_each_cell_computed_alone() -> None:
    rng = np.random.default_rng(21)
    sums = rng.normal(0, 1, (60, 12))
    sizes = rng.choice([3.0, 3.0, 3.0, 2.0, 1.0], size=(60, 12))
    sizes[:, 0] = 3.0  # one cell where every cluster is full
    batched = stats.cluster_bootstrap_means(sums, sizes, resamples=500, seed=4)
    alone = np.column_stack(
        [
            stats.cluster_bootstrap_means(sums[:, [c]], sizes[:, [c]], resamples=500, seed=4)[:, 0]
            for c in range(12)
        ]
    )
    assert np.allclose(batched, alone, rtol=0, atol=1e-12)

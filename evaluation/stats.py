"""Statistics every Etalon number is reported with (docs/methodologies.md, "Statistics").

A mean without its interval, or two systems compared without pairing, is a wrong answer here (issue #8 and the
evaluation lecture named in docs/methodologies.md). These are pure functions with argument checks, so that a
caller's mistake (k larger than the number of attempts, a probability of 1.3) fails loudly instead of
producing a plausible-looking number. numpy is the only runtime dependency: scipy is a dev extra, used by the
tests to check these computations independently.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator, Sequence

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

# Above this many discordant pairs the binomial tail is summed in log space (relative error about 1e-12): the
# integer sum is exact, but its cost grows with the square of the number of digits (40 ms at n = 3000).
_EXACT_INTEGER_LIMIT = 300
# Bootstrap weight matrices are built in row chunks of at most this many cells (32 MB), to bound memory; fewer,
# larger chunks keep multithreaded BLAS efficient. The draws do not depend on the chunking.
_CHUNK_CELLS = 4_000_000
# Up to this many cells the drawn clusters are summed directly; above it, through a weight matrix product.
_GATHER_CELLS = 8


def _check_count(name: str, value: int, minimum: int = 0) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")


def _check_z(z: float) -> None:
    if not z > 0 or not math.isfinite(z):
        raise ValueError(f"z must be a positive finite number, got {z!r}")


def wilson_interval(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion: unlike the normal one it stays inside [0, 1] and is honest on
    the small sets a legal benchmark has (8 answers with 7 right give about [0.53, 0.98], not "87.5%")."""
    _check_count("n", n, minimum=1)
    _check_count("successes", successes)
    if successes > n:
        raise ValueError(f"successes ({successes}) must not exceed n ({n})")
    _check_z(z)
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = p + z2 / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = (centre - spread) / denominator
    high = (centre + spread) / denominator
    return max(0.0, low), min(1.0, high)


_LOG_FACTORIALS: list[FloatArray] = [np.zeros(1)]


def _log_factorials(n: int) -> FloatArray:
    """log(i!) for i = 0..n, kept between calls: a paired table runs McNemar once per pair of systems."""
    table = _LOG_FACTORIALS[0]
    if len(table) <= n:
        table = np.array([math.lgamma(v + 1) for v in range(max(n + 1, 2 * len(table)))])
        _LOG_FACTORIALS[0] = table
    return table


def _binomial_half_cdf(m: int, n: int) -> float:
    """P[Bin(n, 1/2) <= m]."""
    if n <= _EXACT_INTEGER_LIMIT:
        return sum(math.comb(n, i) for i in range(m + 1)) / (1 << n)
    log_factorial = _log_factorials(n)
    i = np.arange(m + 1)
    log_terms = log_factorial[n] - log_factorial[i] - log_factorial[n - i] - n * math.log(2)
    top = float(log_terms.max())
    return float(math.exp(top) * np.exp(log_terms - top).sum())


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar test: under the null, each discordant pair favours A or B with probability 1/2.

    Only the discordant pairs carry evidence; with none, nothing contradicts the null and p is 1."""
    _check_count("only_a", only_a)
    _check_count("only_b", only_b)
    n = int(only_a) + int(only_b)
    if n == 0:
        return 1.0
    return min(1.0, 2.0 * _binomial_half_cdf(min(int(only_a), int(only_b)), n))


def _check_n_c_k(n: int, c: int, k: int) -> None:
    _check_count("n", n, minimum=1)
    _check_count("c", c)
    _check_count("k", k, minimum=1)
    if c > n:
        raise ValueError(f"c ({c}) must not exceed n ({n})")
    if k > n:
        raise ValueError(f"k ({k}) must not exceed n ({n}): pass@k needs at least k attempts")


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased chance that at least one of k attempts succeeds, from n attempts with c successes.

    1 - C(n-c, k) / C(n, k), evaluated as a product of ratios so that it neither overflows nor loses precision
    for large n (the naive 1 - (1 - c/n)^k is biased low: 0.893 instead of 0.957 for n=20, c=4, k=10)."""
    _check_n_c_k(n, c, k)
    if n - c < k:
        return 1.0
    ratio = 1.0
    for i in range(n - c + 1, n + 1):
        ratio *= 1.0 - k / i
    return 1.0 - ratio


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k: the chance that k attempts drawn without replacement ALL succeed, C(c, k) / C(n, k).

    Reliability, not capability: it falls with k where pass@k rises."""
    _check_n_c_k(n, c, k)
    if c < k:
        return 0.0
    ratio = 1.0
    for i in range(k):
        ratio *= (c - i) / (n - i)
    return ratio


def _check_tasks(tasks: Sequence[tuple[int, int]]) -> None:
    if len(tasks) == 0:
        raise ValueError("tasks must not be empty")


def mean_pass_at_k(tasks: Sequence[tuple[int, int]], k: int) -> float:
    """pass@k per task, then averaged over tasks with equal weight. Pooling every (n, c) into one pair is
    wrong: easy and hard tasks have different success probabilities."""
    _check_tasks(tasks)
    return sum(pass_at_k(n, c, k) for n, c in tasks) / len(tasks)


def mean_pass_hat_k(tasks: Sequence[tuple[int, int]], k: int) -> float:
    """pass^k per task, averaged over tasks (never pooled)."""
    _check_tasks(tasks)
    return sum(pass_hat_k(n, c, k) for n, c in tasks) / len(tasks)


def weight_chunks(clusters: int, resamples: int, seed: int) -> Iterator[tuple[int, FloatArray]]:
    """How many times each of `clusters` units is drawn in each resample: (first resample, weights) in blocks
    of rows (resamples x clusters) of bounded size, so memory stays flat however many etalons a cell has.

    A replicate of any cluster-summed statistic is then one matrix product, which is what lets the analytics
    run the bootstrap for hundreds of leaderboard cells at once. The draws depend on the seed and the number
    of clusters only, in the same order as `cluster_bootstrap_means` makes them, so every consumer of the
    same (clusters, resamples, seed) resamples the very same clusters."""
    rng = np.random.default_rng(seed)
    step = max(1, _CHUNK_CELLS // max(clusters, 1))
    for start in range(0, resamples, step):
        rows = min(step, resamples - start)
        draws = rng.integers(0, clusters, size=(rows, clusters))
        draws += (np.arange(rows) * clusters)[:, None]
        counts = np.bincount(draws.ravel(), minlength=rows * clusters)
        yield start, counts.reshape(rows, clusters).astype(np.float64)


def cluster_bootstrap_means(sums: FloatArray, sizes: FloatArray, resamples: int, seed: int) -> FloatArray:
    """Bootstrap replicates of the row mean of several cells that share the same number of clusters.

    `sums` and `sizes` are (clusters x cells): the sum of the values and the number of rows of every cluster
    of every cell. Whole clusters are resampled (rows of one etalon are not independent), and each replicate
    is the ratio of resampled sums to resampled sizes, i.e. the mean over the resampled rows. The weights
    depend on the seed and the number of clusters only, so a cell gets the same interval whether computed
    alone or in a batch."""
    if sums.shape != sizes.shape or sums.ndim != 2:
        raise ValueError(
            f"sums and sizes must be two equal-shaped matrices, got {sums.shape} and {sizes.shape}"
        )
    if resamples < 1:
        raise ValueError(f"resamples must be >= 1, got {resamples}")
    clusters, cells = sums.shape
    result = np.empty((resamples, cells), dtype=np.float64)
    if cells > _GATHER_CELLS:
        # Sizes are counts, so resampled sizes are exact in floats; when every cluster of a cell has the same
        # size (each etalon answered as often) the resampled size is a constant and needs no product.
        full = sizes.max(axis=0)
        even = bool((sizes == full).all())
        stacked = sums if even else np.hstack([sums, sizes])
        for start, weights in weight_chunks(clusters, resamples, seed):
            products = weights @ stacked
            denominators = full * clusters if even else products[:, cells:]
            result[start : start + len(weights)] = products[:, :cells] / denominators
        return result
    # Few cells: summing the drawn clusters directly is cheaper than building the weights, and draws the very
    # same clusters from the same seed.
    rng = np.random.default_rng(seed)
    step = max(1, _CHUNK_CELLS // max(clusters, 1))
    for start in range(0, resamples, step):
        rows = min(step, resamples - start)
        draws = rng.integers(0, clusters, size=(rows, clusters))
        for cell in range(cells):
            result[start : start + rows, cell] = sums[draws, cell].sum(axis=1) / sizes[draws, cell].sum(
                axis=1
            )
    return result


def percentile_interval(replicates: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The 95% percentile interval of every column of (resamples x cells) replicates: np.quantile's numbers,
    computed on one contiguous row per cell (a third faster than striding down the columns)."""
    low, high = np.quantile(np.ascontiguousarray(replicates.T), [0.025, 0.975], axis=1)
    return low, high


def paired_bootstrap(
    a: Sequence[float],
    b: Sequence[float],
    groups: Sequence[Hashable] | None = None,
    resamples: int = 10000,
    seed: int = 0,
) -> tuple[float, float, float]:
    """Mean of a - b over paired rows with a 95% percentile bootstrap interval.

    Rows are resampled as pairs, which keeps the correlation between two systems answering the same etalons;
    with `groups`, whole groups are resampled (several attempts at one etalon, several etalons on one
    document)."""
    a_arr = np.asarray(a, dtype=np.float64)
    b_arr = np.asarray(b, dtype=np.float64)
    if a_arr.ndim != 1 or b_arr.ndim != 1:
        raise ValueError("a and b must be one-dimensional sequences of numbers")
    if len(a_arr) == 0:
        raise ValueError("a and b must not be empty")
    if len(a_arr) != len(b_arr):
        raise ValueError(f"a and b must have the same length, got {len(a_arr)} and {len(b_arr)}")
    if not (np.isfinite(a_arr).all() and np.isfinite(b_arr).all()):
        raise ValueError("a and b must be finite numbers (no NaN or infinity)")
    _check_count("resamples", resamples, minimum=1)
    diff = a_arr - b_arr
    if groups is None:
        sums = diff[:, None]
        sizes = np.ones_like(sums)
    else:
        if len(groups) != len(diff):
            raise ValueError(f"groups must have one entry per pair: got {len(groups)} for {len(diff)} pairs")
        _, inverse = np.unique(np.asarray([str(g) for g in groups]), return_inverse=True)
        sums = np.bincount(inverse, weights=diff).astype(np.float64)[:, None]
        sizes = np.bincount(inverse).astype(np.float64)[:, None]
    low, high = percentile_interval(cluster_bootstrap_means(sums, sizes, resamples, seed))
    return float(diff.mean()), float(low[0]), float(high[0])


def _probabilities_and_labels(q: Sequence[float], y: Sequence[int | bool]) -> tuple[FloatArray, FloatArray]:
    q_arr = np.asarray(q, dtype=np.float64)
    y_arr = np.asarray(y, dtype=np.float64)
    if len(q_arr) == 0:
        raise ValueError("q and y must not be empty")
    if len(q_arr) != len(y_arr):
        raise ValueError(f"q and y must have the same length, got {len(q_arr)} and {len(y_arr)}")
    if not np.isfinite(q_arr).all() or (q_arr < 0).any() or (q_arr > 1).any():
        raise ValueError("q must hold probabilities in [0, 1]")
    if not np.isin(y_arr, (0.0, 1.0)).all():
        raise ValueError("y must hold outcomes 0 or 1")
    return q_arr, y_arr


def brier_score(q: Sequence[float], y: Sequence[int | bool]) -> float:
    """Mean squared gap between the stated probability and the outcome; minimised in expectation by the true
    probability, so it rewards honest confidence (10 answers at 0.8 with 6 right give 0.28)."""
    q_arr, y_arr = _probabilities_and_labels(q, y)
    return float(np.mean((q_arr - y_arr) ** 2))


def selective(q: Sequence[float], y: Sequence[int | bool], threshold: float) -> tuple[float, float | None]:
    """Coverage and risk when only answers with confidence >= threshold are accepted.

    Risk is the error rate among the accepted answers; on an empty selection it is undefined (None), not
    zero."""
    q_arr, y_arr = _probabilities_and_labels(q, y)
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be in [0, 1], got {threshold!r}")
    accepted = q_arr >= threshold
    count = int(accepted.sum())
    coverage = count / len(q_arr)
    if count == 0:
        return coverage, None
    return coverage, float((1.0 - y_arr[accepted]).sum() / count)


def sample_size(p: float, half_width: float, z: float = 1.96, groups: int = 1) -> int:
    """Etalons needed for a confidence interval of the given half-width (normal approximation).

    groups=1: one proportion near p; groups=2: the difference of two independent proportions both near p,
    whose variances add (2 p (1-p) (z/delta)^2: 913 tasks per system for +-2 points at p=0.95). Cost grows as
    1/half_width^2, which is why a half-point difference is rarely measurable."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be a probability in [0, 1], got {p!r}")
    if not 0.0 < half_width <= 1.0:
        raise ValueError(f"half_width must be in (0, 1], got {half_width!r}")
    _check_z(z)
    if groups not in (1, 2):
        raise ValueError(f"groups must be 1 (one proportion) or 2 (a difference of two), got {groups!r}")
    needed = groups * p * (1 - p) * (z / half_width) ** 2
    # Guard against 913.0000000001 becoming 914 through floating-point noise.
    return max(1, math.ceil(round(needed, 9)))


def cohen_kappa(a: Sequence[Hashable], b: Sequence[Hashable]) -> float | None:
    """Agreement of two raters beyond what their label frequencies give by chance.

    None when chance agreement is already total (both raters used one and the same label): kappa is 0/0
    there."""
    if len(a) == 0:
        raise ValueError("a and b must not be empty")
    if len(a) != len(b):
        raise ValueError(f"a and b must have the same length, got {len(a)} and {len(b)}")
    total = len(a)
    observed = sum(1 for x, y in zip(a, b, strict=True) if x == y) / total
    labels = set(a) | set(b)
    count_a = {label: 0 for label in labels}
    count_b = {label: 0 for label in labels}
    for x, y in zip(a, b, strict=True):
        count_a[x] += 1
        count_b[y] += 1
    expected = sum(count_a[label] * count_b[label] for label in labels) / (total * total)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def krippendorff_alpha(units: Sequence[Sequence[Hashable]]) -> float | None:
    """Krippendorff's alpha for nominal labels: agreement of any number of raters, some values missing.

    Each unit is the labels its raters gave (any count); units with fewer than two labels carry no pairs
    and are left out. None when no unit has two labels or only one label was ever used (alpha is 0/0).
    """
    pairable = [list(u) for u in units if len(u) >= 2]
    if not pairable:
        return None
    coincidences: dict[tuple[Hashable, Hashable], float] = {}
    for labels in pairable:
        weight = 1.0 / (len(labels) - 1)
        for i, c in enumerate(labels):
            for j, k in enumerate(labels):
                if i != j:
                    coincidences[(c, k)] = coincidences.get((c, k), 0.0) + weight
    totals: dict[Hashable, float] = {}
    for (c, _), value in coincidences.items():
        totals[c] = totals.get(c, 0.0) + value
    n = sum(totals.values())
    observed = sum(v for (c, k), v in coincidences.items() if c != k)
    expected = sum(totals[c] * totals[k] for c in totals for k in totals if c != k)
    if expected == 0:
        return None
    return 1.0 - (n - 1) * observed / expected


# Prediction-powered estimates (a mean of the judge's figures corrected by a random audit of lawyers' labels) live
# beside these functions and are importable from here too.
from evaluation.ppi import (  # noqa: E402
    Estimate,
    PPIResult,
    clustered_mean,
    ppi_half_width,
    ppi_mean,
    ppi_sample_size,
    weighted_rate,
)

__all__ = [
    "Estimate",
    "FloatArray",
    "PPIResult",
    "brier_score",
    "cluster_bootstrap_means",
    "clustered_mean",
    "cohen_kappa",
    "krippendorff_alpha",
    "mcnemar_exact",
    "mean_pass_at_k",
    "mean_pass_hat_k",
    "paired_bootstrap",
    "pass_at_k",
    "pass_hat_k",
    "percentile_interval",
    "ppi_half_width",
    "ppi_mean",
    "ppi_sample_size",
    "sample_size",
    "selective",
    "weight_chunks",
    "weighted_rate",
    "wilson_interval",
]

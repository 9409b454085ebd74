"""Prediction-powered estimates: a mean of the judge's figures corrected by a random audit of lawyers' labels.

Every Etalon score leans on a model judge wherever lawyers have not decided. The judge's figure for a cell
(its score, or 1 for a positive verdict) is a prediction `f`; a lawyer's figure for the same cell, where the
audit sample has one, is the label `y`. Prediction-powered inference (Angelopoulos, Bates, Fannjiang, Jordan,
Zrnic, "Prediction-powered inference", Science 2023) estimates the mean of `y` over every cell from the mean
of `f` over every cell plus the mean of `y - f` over the audited ones; PPI++ (Angelopoulos, Duchi, Zrnic 2023)
scales the prediction by a power-tuning factor lambda so that a poor judge can never widen the interval
beyond what the labels alone give.

Etalon's audit sample is drawn *from* the judged cells, not beside them (a two-phase sample in survey terms),
possibly with unequal inclusion probabilities (a minimum per stratum tops small strata up) and in strata some
of which are known without labels (cells where no judge conclusion was used). The estimator is therefore
written with inclusion weights and strata, and its variance comes from the influence function of the whole
estimator, summed per cluster (the etalon: attempts of one question are not independent evidence):

    theta = lam * mean_all(f) + sum_h (N_h / N) * hajek_mean_h(y - lam * f)

Its variance is the etalons' sampling variance plus the audit's, so the interval accounts for both; the tuned
lambda minimises the audit's part (the weighted regression coefficient of y on f over the labels). With a
perfect judge (y == f on every label) lambda is 1, the correction is 0 and the result equals the plain mean,
interval and all.

Pure functions on numpy arrays; bad arguments raise ValueError.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
Tuning = Literal["ppi++", "ppi", "classical"]

__all__ = ["Estimate", "PPIResult", "clustered_mean", "ppi_half_width", "ppi_mean", "ppi_sample_size", "t_quantile",
           "weighted_rate"]


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its standard error and 95% (by default) normal interval; None where undefined."""

    value: float | None
    std_error: float | None
    low: float | None
    high: float | None

    @property
    def half_width(self) -> float | None:
        if self.low is None or self.high is None:
            return None
        return (self.high - self.low) / 2


@dataclass(frozen=True)
class PPIResult:
    """The judge-only mean and the corrected one, with what the planner needs.

    `labeled`: rows with a label in the strata that need one (rows of a known stratum are not counted);
    `population`: rows of those strata. The corrected variance is modelled as
    `floor_variance + residual_variance * (1 / labeled - 1 / population)` for the planner: `residual_variance`
    is the audit's part per label (the weighted variance of y - lam * f over the labels, scaled by the share
    of the strata that need labels), `floor_variance` what no number of labels removes (the etalons' sampling).
    """

    judge: Estimate
    corrected: Estimate
    lam: float | None
    n: int
    labeled: int
    population: int
    residual_variance: float | None
    floor_variance: float | None


def _vector(name: str, values: Sequence[float] | FloatArray, allow_nan: bool = False) -> FloatArray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1:
        raise ValueError(f"{name} must be a one-dimensional sequence of numbers")
    bad = ~np.isfinite(array) if not allow_nan else np.isinf(array)
    if bad.any():
        raise ValueError(f"{name} must hold finite numbers" + (" (NaN marks a missing label)" if allow_nan else ""))
    return array


def _codes(name: str, values: Sequence[Hashable] | npt.NDArray[np.int64] | None, n: int) -> npt.NDArray[np.int64]:
    """Dense group numbers 0..k-1 (whole numbers are taken as they are, anything else by its text)."""
    if values is None:
        return np.arange(n, dtype=np.int64)
    if len(values) != n:
        raise ValueError(f"{name} must have one entry per row: got {len(values)} for {n} rows")
    if isinstance(values, np.ndarray) and np.issubdtype(values.dtype, np.integer):
        _, inverse = np.unique(values, return_inverse=True)
    else:
        _, inverse = np.unique(np.asarray([str(v) for v in values]), return_inverse=True)
    return inverse.astype(np.int64)


def _check_z(z: float) -> None:
    if not z > 0 or not math.isfinite(z):
        raise ValueError(f"z must be a positive finite number, got {z!r}")


def _totals(influence: FloatArray, clusters: npt.NDArray[np.int64]) -> tuple[FloatArray, int]:
    totals: FloatArray = np.bincount(clusters, weights=influence).astype(np.float64)
    return totals, int(np.count_nonzero(np.bincount(clusters)))


def _variance(influence: FloatArray, clusters: npt.NDArray[np.int64], n: int) -> float | None:
    """Cluster-robust variance of a mean from per-row influence values: sum of squared cluster totals / n^2,
    with the small-sample factor C / (C - 1) (C clusters; None below two)."""
    totals, count = _totals(influence, clusters)
    if count < 2:
        return None
    return float(count / (count - 1) * np.sum(totals ** 2) / (n * n))


def t_quantile(z: float, df: float) -> float:
    """Student's t quantile at the normal quantile z's tail probability (Cornish-Fisher expansion, Abramowitz
    and Stegun 26.7.5; within 1% from 2 degrees of freedom, exact in the limit): numpy only, no scipy."""
    v = max(float(df), 1.0)
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160
    return z + g1 / v + g2 / v ** 2 + g3 / v ** 3 + g4 / v ** 4


def _estimate(value: float | None, variance: float | None, z: float, df: float | None = None) -> Estimate:
    """The interval uses Student's t on `df` degrees of freedom (the normal quantile when df is None)."""
    if value is None:
        return Estimate(None, None, None, None)
    if variance is None:
        return Estimate(value, None, None, None)
    se = math.sqrt(max(variance, 0.0))
    q = z if df is None else t_quantile(z, df)
    return Estimate(value, se, value - q * se, value + q * se)


def clustered_mean(values: Sequence[float] | FloatArray,
                   clusters: Sequence[Hashable] | npt.NDArray[np.int64] | None = None, z: float = 1.96) -> Estimate:
    """The plain mean with a cluster-robust normal interval (every row its own cluster without `clusters`)."""
    _check_z(z)
    f = _vector("values", values)
    if len(f) == 0:
        raise ValueError("values must not be empty")
    mean = float(f.mean())
    codes = _codes("clusters", clusters, len(f))
    count = int(np.count_nonzero(np.bincount(codes)))
    return _estimate(mean, _variance(f - mean, codes, len(f)), z, count - 1)


def ppi_mean(
    predictions: Sequence[float] | FloatArray,
    labels: Sequence[float | None] | FloatArray,
    *,
    weights: Sequence[float] | FloatArray | None = None,
    clusters: Sequence[Hashable] | npt.NDArray[np.int64] | None = None,
    strata: Sequence[Hashable] | npt.NDArray[np.int64] | None = None,
    tuning: Tuning = "ppi++",
    z: float = 1.96,
) -> PPIResult:
    """The mean of the labels over every row, estimated from the predictions of every row and the labels of some.

    `predictions`: the judge's figure of every row. `labels`: the lawyer's figure, None (or NaN) where the row
    was not audited (or its audit is not complete). `weights`: inverse inclusion probabilities of the labelled
    rows (ignored elsewhere; default equal: the labels are a simple random subsample of their stratum).
    `clusters`: rows of one cluster are resampled together (the etalon). `strata`: groups sampled separately;
    a stratum whose every row is labelled is known exactly. `tuning`: "ppi++" (lambda tuned, clipped to [0, 1]),
    "ppi" (lambda = 1), "classical" (lambda = 0: the labels alone). A stratum with rows but no label leaves the
    corrected estimate undefined (None); with fewer than three labels a tuned lambda falls back to 1, and with
    fewer than two the estimate has no interval.
    """
    _check_z(z)
    f = _vector("predictions", predictions)
    n = len(f)
    if n == 0:
        raise ValueError("predictions must not be empty")
    y = _vector("labels", labels if isinstance(labels, np.ndarray) else
                [math.nan if v is None else v for v in labels], allow_nan=True)
    if len(y) != n:
        raise ValueError(f"labels must have one entry per prediction: got {len(y)} for {n}")
    if weights is None:
        w = np.ones(n)
    else:
        w = _vector("weights", weights)
        if len(w) != n:
            raise ValueError(f"weights must have one entry per prediction: got {len(w)} for {n}")
    labeled = ~np.isnan(y)
    if (w[labeled] <= 0).any():
        raise ValueError("weights of labelled rows must be positive (inverse inclusion probabilities)")
    if tuning not in ("ppi++", "ppi", "classical"):
        raise ValueError(f"tuning must be 'ppi++', 'ppi' or 'classical', got {tuning!r}")
    cluster = _codes("clusters", clusters, n)
    stratum = _codes("strata", strata, n) if strata is not None else np.zeros(n, dtype=np.int64)

    f_mean = float(f.mean())
    judge_variance = _variance(f - f_mean, cluster, n)
    clusters_count = int(np.count_nonzero(np.bincount(cluster)))
    judge = _estimate(f_mean, judge_variance, z, clusters_count - 1)
    none = PPIResult(judge, Estimate(None, None, None, None), None, n, 0, 0, None, None)

    groups = np.unique(stratum)
    sizes = np.bincount(stratum).astype(np.float64)
    # g: the labelled row's weight normalised within its stratum (the inverse of its estimated inclusion
    # probability): the stratum's Hajek mean of any x is sum(g * x) / N_h over its labels.
    g = np.zeros(n)
    needs = np.zeros(n, dtype=bool)     # rows of strata that are not known exactly
    for h in groups:
        rows = stratum == h
        mine = rows & labeled
        if not mine.any():
            return none
        g[mine] = w[mine] * sizes[h] / w[mine].sum()
        if mine.sum() < rows.sum():
            needs |= rows

    def hajek(x: FloatArray) -> FloatArray:
        """Per row: the Hajek mean of x over the labels of the row's stratum."""
        means = np.bincount(stratum, weights=np.where(labeled, g * np.nan_to_num(x), 0.0), minlength=len(sizes))
        return (means / np.maximum(sizes, 1.0))[stratum]

    y0 = np.nan_to_num(y)
    audit = labeled & needs
    m = int(audit.sum())
    if tuning == "ppi++" and m < 3:
        tuning = "ppi"         # too few labels to tune on: the plain correction
    lam = {"ppi": 1.0, "classical": 0.0}.get(tuning)
    if lam is None:
        lam = _tuned_lambda(f, y0, g, audit, hajek)
    z_values = np.where(labeled, y0 - lam * f, 0.0)
    z_mean = hajek(z_values)
    overall = float(np.sum(z_mean) / n)          # sum_h (N_h / N) * the stratum's Hajek mean
    estimate = lam * f_mean + overall
    # Two parts: the etalons' sampling (every row) and the audit's (the labels of strata that need them). The
    # audit's term is scaled like a regression's residual variance, m / (m - 1) for m labels (m / (m - 2) with a
    # tuned lambda, one more parameter fitted on them), and the interval takes Student's t
    # on Satterthwaite's degrees of freedom of the two parts: the clusters' and the labels'.
    sampling = lam * (f - f_mean) + (z_mean - overall) + np.where(labeled & ~needs, g * (z_values - z_mean), 0.0)
    fitted = 2 if tuning == "ppi++" else 1      # a tuned lambda is one more parameter fitted on the labels
    design = np.where(audit, g * (z_values - z_mean), 0.0) * (math.sqrt(m / (m - fitted)) if m > fitted else 1.0)
    variance = _variance(sampling + design, cluster, n) if m >= 2 or not needs.any() else None
    df = None
    if variance is not None and variance > 0:
        part_a = _variance(sampling, cluster, n) or 0.0
        part_b = float(np.sum(np.bincount(cluster, weights=design) ** 2) / (n * n))
        pieces = part_a ** 2 / max(clusters_count - 1, 1) + (part_b ** 2 / (m - fitted) if m > fitted else 0.0)
        df = variance ** 2 / pieces if pieces > 0 else None
    elif variance is not None:
        df = float(clusters_count - 1)
    corrected = _estimate(estimate, variance, z, df)

    count, population = int((labeled & needs).sum()), int(needs.sum())
    residual, floor = None, None
    if count >= 2 and corrected.std_error is not None:
        # The audit's part of the variance, per label, as if the labels were a simple random subsample.
        share = population / n
        rows = labeled & needs
        weight = g[rows]
        centred = z_values[rows] - z_mean[rows]
        spread = float(np.sum(weight * centred ** 2) / np.sum(weight)) * count / (count - 1)
        residual = share * share * spread
        floor = max(0.0, corrected.std_error ** 2 - residual * (1 / count - 1 / population))
    return PPIResult(judge, corrected, lam, n, count, population, residual, floor)


def _tuned_lambda(f: FloatArray, y: FloatArray, g: FloatArray, rows: npt.NDArray[np.bool_],
                  hajek: Callable[[FloatArray], FloatArray]) -> float:
    """The power-tuning factor: the weighted regression coefficient of y on f over the labels of the strata that
    need them, with design weights g (g - 1) (the audit variance of a Hajek mean), clipped to [0, 1]; 1 when
    the labels cannot tell (the judge's figures do not vary among them, or every stratum is fully labelled)."""
    if rows.sum() < 2:
        return 1.0
    v = g[rows] * (g[rows] - 1.0)
    fc = (f - hajek(f))[rows]
    yc = (y - hajek(y))[rows]
    denominator = float(np.sum(v * fc * fc))
    if denominator <= 1e-12 * max(1.0, float(np.sum(v))):
        return 1.0
    return float(min(1.0, max(0.0, np.sum(v * fc * yc) / denominator)))


def ppi_sample_size(residual_variance: float, half_width: float, *, floor_variance: float = 0.0,
                    population: int | None = None, z: float = 1.96) -> int | None:
    """Labels needed so that the corrected interval's half-width is at most `half_width`.

    The corrected variance with n labels is `floor_variance + residual_variance * (1/n - 1/population)`
    (PPIResult gives both parts from the labels so far). None when no number of labels gets there: the
    floor (the etalons' own sampling) is already wider, or more labels than the population would be needed.
    Cost grows as 1 / half_width^2, as for any interval.
    """
    _check_z(z)
    if not residual_variance >= 0 or not math.isfinite(residual_variance):
        raise ValueError(f"residual_variance must be a finite number >= 0, got {residual_variance!r}")
    if not floor_variance >= 0 or not math.isfinite(floor_variance):
        raise ValueError(f"floor_variance must be a finite number >= 0, got {floor_variance!r}")
    if not half_width > 0 or not math.isfinite(half_width):
        raise ValueError(f"half_width must be a positive finite number, got {half_width!r}")
    if population is not None and (isinstance(population, bool) or int(population) != population or population < 1):
        raise ValueError(f"population must be a positive whole number, got {population!r}")
    room = (half_width / z) ** 2 - floor_variance
    if room <= 0:
        return None
    if residual_variance == 0:
        return 1
    inverse = room / residual_variance + (1.0 / population if population else 0.0)
    needed = max(1, math.ceil(round(1.0 / inverse, 9)))
    if population is not None and needed > population:
        return None
    return needed


def ppi_half_width(result: PPIResult, labeled: int, z: float = 1.96) -> float | None:
    """The corrected interval's half-width the planner expects with `labeled` labels (the same model)."""
    _check_z(z)
    if result.residual_variance is None or result.floor_variance is None or labeled < 1:
        return None
    count = min(labeled, result.population)
    variance = result.floor_variance + result.residual_variance * (1 / count - 1 / result.population)
    return z * math.sqrt(max(variance, 0.0))


def weighted_rate(hits: Sequence[float] | FloatArray, weights: Sequence[float] | FloatArray | None = None,
                  z: float = 1.96) -> tuple[float, float, float]:
    """A weighted share of 0/1 outcomes with a Wilson interval on Kish's effective sample size.

    For a rate estimated from an unequal-probability sample (the audit's top-ups): the point is the Hajek mean,
    and (sum w)^2 / sum w^2 rows carry as much information as that many equally weighted ones. Wilson keeps
    the interval inside [0, 1] and honest when no error was seen in few labels."""
    _check_z(z)
    x = _vector("hits", hits)
    if len(x) == 0:
        raise ValueError("hits must not be empty")
    if not np.isin(x, (0.0, 1.0)).all():
        raise ValueError("hits must hold outcomes 0 or 1")
    w = np.ones(len(x)) if weights is None else _vector("weights", weights)
    if len(w) != len(x):
        raise ValueError(f"weights must have one entry per outcome: got {len(w)} for {len(x)}")
    if (w <= 0).any():
        raise ValueError("weights must be positive")
    p = float(np.sum(w * x) / np.sum(w))
    n_eff = float(np.sum(w) ** 2 / np.sum(w * w))
    z2 = z * z
    denominator = 1 + z2 / n_eff
    centre = p + z2 / (2 * n_eff)
    spread = z * math.sqrt(max(p * (1 - p), 0.0) / n_eff + z2 / (4 * n_eff * n_eff))
    return p, max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)

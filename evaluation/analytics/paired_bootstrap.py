"""The paired counts and the clustered bootstrap of every pair of systems in a benchmark, without one product
per pair.

A replicate of pair (A, B) is sum_g w_g d_g(A, B) / sum_g w_g n_g(A, B) over etalons g, where d is A's minus
B's score summed over the attempts both answered and n counts those attempts. When every system answered every
attempt, d(A, B) = y_A - y_B for the per-system etalon sums y, so W @ y (one product per system, not per pair)
gives every pair's numerator. Attempts some system lacks enter as per-pair corrections over just the
etalons where something is missing, so the result is the same number as the per-pair product (to rounding),
at a cost that grows with the systems, not their pairs, where the answers are complete. Pairs that do not share every etalon of the benchmark resample a
different set of clusters and take the direct per-pair product.
"""

from __future__ import annotations

import numpy as np

from evaluation.analytics.common import IntArray
from evaluation.stats import FloatArray, cluster_bootstrap_means, percentile_interval, weight_chunks


class Layout:
    """One benchmark's scored answers as (etalon x attempt x system) arrays, etalons in code order, and what
    its pairs need: counts per pair (a < b), the inputs of the per-system bootstrap and the direct cells."""

    def __init__(self, present: FloatArray, values: FloatArray, right: FloatArray) -> None:
        etalons, slots, k = present.shape
        a, b = np.triu_indices(k, 1)
        # Per etalon, [g, i, j] sums over the attempts of products of system i's and system j's columns: one
        # small product per etalon (a single large one per benchmark runs multithreaded BLAS on 20 x 20
        # outputs, which costs more in synchronisation than in arithmetic on a busy machine).
        both_answered = present.transpose(0, 2, 1) @ present
        scored = values.transpose(0, 2, 1) @ present  # i's scores on the attempts j answered too
        right_answered = right.transpose(0, 2, 1) @ present
        both_right = right.transpose(0, 2, 1) @ right
        n = both_answered.sum(axis=0)
        keep = n[a, b] > 0
        a, b = a[keep], b[keep]
        self.pairs: tuple[IntArray, IntArray] = (a, b)
        shared = both_answered[:, a, b]
        self.n = n[a, b].astype(np.int64)
        self.both = both_right.sum(axis=0)[a, b].astype(np.int64)
        right_total = right_answered.sum(axis=0)
        self.only_a = right_total[a, b].astype(np.int64) - self.both
        self.only_b = right_total[b, a].astype(np.int64) - self.both
        scored_a, scored_b = scored[:, a, b], scored[:, b, a]
        self.sum_a = scored_a.sum(axis=0)  # A's scores on the rows both answered
        self.sum_b = scored_b.sum(axis=0)
        diff = scored_a - scored_b
        used = shared > 0
        self.etalons = used.sum(axis=0).astype(np.int64)
        complete = used.all(axis=0)
        self.fast = np.flatnonzero(complete)
        self.clusters = etalons
        sums = values.sum(axis=1)
        counts = present.sum(axis=1)
        self.totals = np.hstack([sums, counts])
        # Where some system lacks an attempt, a pair's score sum is not the difference of the systems' sums:
        # what the gaps change, per pair, over just those etalons.
        fa, fb = a[self.fast], b[self.fast]
        self.gaps = np.flatnonzero((counts < slots).any(axis=1))
        gap_sums = sums[self.gaps]
        self.gap_terms = diff[self.gaps][:, self.fast] - gap_sums[:, fa] + gap_sums[:, fb]
        # Attempts both answered = n_A + n_B - slots + attempts both lack, and the last term is non-zero only
        # where two systems miss the same attempt: rarer still, so the counts need almost no product.
        lacking = shared[:, self.fast] - counts[:, fa] - counts[:, fb] + slots
        self.both_lack = np.flatnonzero(lacking.any(axis=1))
        self.lack_terms = lacking[self.both_lack]
        self.slots = slots
        self.direct: list[tuple[int, FloatArray, FloatArray]] = []
        for pair in np.flatnonzero(~complete):
            rows = used[:, pair]
            self.direct.append((int(pair), diff[rows, pair], shared[rows, pair]))

    def fast_replicates(self, weights: FloatArray) -> FloatArray:
        """Replicates of the mean difference of every pair sharing all etalons, for a block of weights.

        Counts are integers, so the denominators are exact whatever the order of the sums."""
        k = self.totals.shape[1] // 2
        a, b = self.pairs[0][self.fast], self.pairs[1][self.fast]
        base = weights @ self.totals
        numerators = base[:, a] - base[:, b]
        denominators = base[:, k + a] + base[:, k + b] - self.slots * self.clusters
        if self.gaps.size:
            numerators += weights[:, self.gaps] @ self.gap_terms
        if self.both_lack.size:
            denominators += weights[:, self.both_lack] @ self.lack_terms
        result: FloatArray = numerators / denominators
        return result


def pair_intervals(layouts: list[Layout], resamples: int, seed: int) -> tuple[FloatArray, FloatArray]:
    """95% percentile intervals of every pair of every layout, in layout then pair order.

    Layouts with the same number of etalons share one stream of weights; direct cells are batched by their
    number of clusters, as `cluster_bootstrap_means` requires for identical draws."""
    offsets = np.cumsum([0, *[len(layout.n) for layout in layouts]])
    low = np.empty(int(offsets[-1]))
    high = np.empty(int(offsets[-1]))
    by_size: dict[int, list[int]] = {}
    for index, layout in enumerate(layouts):
        if layout.fast.size:
            by_size.setdefault(layout.clusters, []).append(index)
    for clusters, members in by_size.items():
        replicates = {i: np.empty((resamples, len(layouts[i].fast))) for i in members}
        for start, weights in weight_chunks(clusters, resamples, seed):
            for i in members:
                replicates[i][start : start + len(weights)] = layouts[i].fast_replicates(weights)
        for i in members:
            where = offsets[i] + layouts[i].fast
            low[where], high[where] = percentile_interval(replicates[i])
    direct: dict[int, list[tuple[int, FloatArray, FloatArray]]] = {}
    for index, layout in enumerate(layouts):
        for pair, sums, sizes in layout.direct:
            direct.setdefault(len(sums), []).append((int(offsets[index]) + pair, sums, sizes))
    for cells in direct.values():
        where = np.array([cell[0] for cell in cells])
        sums = np.column_stack([cell[1] for cell in cells])
        sizes = np.column_stack([cell[2] for cell in cells])
        low[where], high[where] = percentile_interval(cluster_bootstrap_means(sums, sizes, resamples, seed))
    return low, high

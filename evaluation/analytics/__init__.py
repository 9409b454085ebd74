"""The analytics tables behind the eval.* views, as pure functions over polars DataFrames.

One import point for the Dagster assets: each function takes the warehouse tables (scores, judgments,
decisions) and returns one table; the statistics live in evaluation.stats, the per-topic code in this
package's modules (leaderboard and slices, paired comparisons, attempts and calibration, the judge's audit,
the swap protocol), which share the input checks and the batched bootstrap of evaluation.analytics.common.
"""

from __future__ import annotations

from evaluation.analytics.attempts import calibration, pass_at_k_table
from evaluation.analytics.boards import SLICE_DIMENSIONS, leaderboard, slices
from evaluation.analytics.comparisons import both_orientations, paired
from evaluation.analytics.judge import disagreements, effective_decisions, judge_agreement
from evaluation.analytics.pairwise import swap_outcomes, swap_summary

pass_at_k = pass_at_k_table

__all__ = [
    "SLICE_DIMENSIONS",
    "both_orientations",
    "calibration",
    "disagreements",
    "effective_decisions",
    "judge_agreement",
    "leaderboard",
    "paired",
    "pass_at_k",
    "pass_at_k_table",
    "slices",
    "swap_outcomes",
    "swap_summary",
]

"""When every answer of a run is an error there is nothing to average: the analytics say so, they don't crash."""

from __future__ import annotations

import polars as pl

from evaluation.analytics.common import cluster_intervals


def test_intervals_over_clusters_with_no_scored_answer_are_empty_not_an_error() -> None:
    clusters = pl.DataFrame({"benchmark": ["bench", "bench"], "system": ["sut", "sut"], "code": ["A-01", "B-01"],
                             "_sum": [0.0, 0.0], "_size": [0, 0]})
    intervals = cluster_intervals(clusters, ["benchmark", "system"], "code", resamples=100, seed=0)
    assert (intervals.height, intervals.columns) == (0, ["benchmark", "system", "ci_low", "ci_high"])

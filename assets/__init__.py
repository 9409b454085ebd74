"""Thin Dagster asset definitions over the domain packages, one module per stage."""

import warnings

from dagster import BetaWarning, PreviewWarning

# Etalon relies on dynamic multi-partitions, single-run backfills and partitioned checks on purpose;
# Dagster's notices about their maturity are not actionable for our users.
warnings.filterwarnings("ignore", category=BetaWarning)
warnings.filterwarnings("ignore", category=PreviewWarning)

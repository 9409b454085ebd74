"""Thin Dagster asset definitions over the engine, one module per stage group."""

import warnings

from dagster import BetaWarning, PreviewWarning

# Etalon relies on dynamic multi-partitions and single-run backfills on purpose; Dagster's notices about their
# maturity are not actionable for our users.
warnings.filterwarnings("ignore", category=BetaWarning)
warnings.filterwarnings("ignore", category=PreviewWarning)

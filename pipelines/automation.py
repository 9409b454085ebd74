"""How assets keep themselves current.

Every derived asset uses Dagster's eager automation, with one change: a parent counts as updated only when its
data version changed. Each asset records a content hash as the data version of every partition it writes, so
re-materialising unchanged inputs requests nothing downstream, and one changed etalon requests only its cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dagster import AssetSelection
from dagster import AutomationCondition as AC

DATA_VERSION_TAG = "dagster/data_version"
# Etalon's runner starts runs with this Dagster tag: Dagster then writes no events of its own for the assets,
# and each asset records one event per partition it wrote (assets/_emit.py).
DEFER_TAG = "dagster/defer_asset_events"


def on_change(ignore_missing: Sequence[str] = (), code_version: bool = False,
              wait_for_checks: bool = True) -> AC[Any]:
    """Eager on data-version changes, waiting for upstream blocking checks.

    `ignore_missing` names inputs that are legitimately absent for most partitions (decisions: most cells
    have none), so their absence does not hold the asset back. With `code_version`, a new version of the
    asset's code re-runs every partition (scoring rules changed: everything is re-scored).

    `wait_for_checks=False` is for assets downstream of a partitioned blocking check: Dagster's automation
    does not yet read check results per partition (partitioned checks are a preview feature), so one failing
    etalon would hold back every cell. Those cells are evaluated, and an etalon's missing sources leave the
    computation as the methodologies say, with its scores indicative until it is signed (which the same
    missing sources prevent).
    """
    condition = AC.eager().replace("newly_updated", AC.data_version_changed())
    if ignore_missing:
        missing = AC.any_deps_missing().ignore(AssetSelection.assets(*ignore_missing))
        condition = condition.replace("any_deps_missing", missing)
    if wait_for_checks:
        condition = condition & AC.all_deps_blocking_checks_passed()
    if code_version:
        condition = condition | (AC.code_version_changed() & ~AC.in_progress())
    return condition.with_label("on_change")

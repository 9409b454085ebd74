"""The one resource every asset takes: where the warehouse and the user's inputs are."""

from __future__ import annotations

from dagster import ConfigurableResource

from warehouse.home import Home, resolve_home
from warehouse.lake import Lake


class EtalonWarehouse(ConfigurableResource):  # type: ignore[type-arg]
    """Resolved at run time from ETALON_HOME / ETALON_ETALONS / ETALON_SYSTEMS unless `home` is set."""

    home: str = ""

    def paths(self) -> Home:
        return resolve_home(self.home or None)

    def lake(self) -> Lake:
        return Lake(self.paths().lake)

"""Etalon's Dagster definitions: what `dagster dev` shows and what `etalon` runs."""

from dagster import Definitions, load_asset_checks_from_modules, load_assets_from_modules

from assets import analytics, cells, corpus, etalons, inputs
from pipelines.refresh import FETCH_SENSORS
from pipelines.resources import EtalonWarehouse
from pipelines.schedules import corpus_refresh_schedule
from pipelines.sensors import reconcile_sensor

_MODULES = [corpus, etalons, cells, analytics]

defs = Definitions(
    assets=[*inputs.INPUTS, *load_assets_from_modules(_MODULES)],
    asset_checks=load_asset_checks_from_modules(_MODULES),
    sensors=[reconcile_sensor, *FETCH_SENSORS],
    schedules=[corpus_refresh_schedule],
    resources={"warehouse": EtalonWarehouse()},
)

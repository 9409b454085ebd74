"""Etalon's Dagster definitions: what `dagster dev` shows and what `etalon` runs."""

from dagster import Definitions, load_asset_checks_from_modules, load_assets_from_modules

from assets import analytics, corpus, etalons, evaluation, inputs
from pipelines.resources import EtalonWarehouse
from pipelines.schedules import corpus_refresh_schedule
from pipelines.sensors import inbox_sensor, inputs_sensor

_MODULES = [inputs, corpus, etalons, evaluation, analytics]

defs = Definitions(
    assets=[*inputs.INPUTS, *load_assets_from_modules([corpus, etalons, evaluation, analytics])],
    asset_checks=load_asset_checks_from_modules(_MODULES),
    sensors=[inputs_sensor, inbox_sensor],
    schedules=[corpus_refresh_schedule],
    resources={"warehouse": EtalonWarehouse()},
)

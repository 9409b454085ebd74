"""Sensors: under `dagster dev`, notice edited etalons, systems, corpus folders, inbox files and decisions."""

from dagster import DefaultSensorStatus, SensorEvaluationContext, SkipReason, sensor

from pipelines.observe import observe
from warehouse.home import resolve_home
from warehouse.lake import Lake


def _observe(context: SensorEvaluationContext) -> SkipReason:
    home = resolve_home()
    obs = observe(context.instance, home, Lake(home.lake))
    parts = ", ".join(f"{a}: {len(p)}" for a, p in obs.changed.items()) or "nothing changed"
    problems = f"; {len(obs.problems)} input problem(s): {obs.problems[0]}" if obs.problems else ""
    # Runs are launched by the automation sensor from the new data versions, not by this sensor.
    return SkipReason(f"observed {parts}{problems}")


@sensor(minimum_interval_seconds=30, default_status=DefaultSensorStatus.RUNNING,
        description="Records new data versions for changed etalon files, systems, corpus sources and reviews.")
def inputs_sensor(context: SensorEvaluationContext) -> SkipReason:
    return _observe(context)


@sensor(minimum_interval_seconds=15, default_status=DefaultSensorStatus.RUNNING,
        description="Picks up official texts dropped into $ETALON_HOME/inbox (a corpus source named 'inbox').")
def inbox_sensor(context: SensorEvaluationContext) -> SkipReason:
    home = resolve_home()
    if not home.inbox.is_dir() or not any(home.inbox.iterdir()):
        return SkipReason(f"inbox {home.inbox} is empty")
    return _observe(context)

"""The nightly corpus refresh data engineers rely on."""

from dagster import AssetSelection, RunRequest, ScheduleEvaluationContext, schedule

from corpus.sources import sources_for
from pipelines.refresh import fetch_request
from warehouse.home import resolve_home


@schedule(cron_schedule="0 3 * * *", target=AssetSelection.assets("corpus"), name="corpus_daily_refresh",
          description="At 03:00 UTC fetch every remote corpus source (conditional requests: only what changed "
                      "is downloaded) and re-read every source; unchanged documents stay as they are.")
def corpus_refresh_schedule(context: ScheduleEvaluationContext):  # type: ignore[no-untyped-def]
    home = resolve_home()
    for source in sources_for(home.sources_file, home.inbox):
        key = f"{source.name}-{context.scheduled_execution_time}"
        if source.remote:
            yield fetch_request(home, source, key)
        else:
            yield RunRequest(partition_key=source.name, run_key=key)

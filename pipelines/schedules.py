"""The daily corpus refresh data engineers rely on."""

from dagster import AssetSelection, RunRequest, ScheduleEvaluationContext, schedule

from corpus.sources import sources_for
from warehouse.home import resolve_home


@schedule(cron_schedule="0 3 * * *", target=AssetSelection.assets("corpus"), name="corpus_daily_refresh",
          description="Re-ingest every configured corpus source at 03:00 UTC; unchanged documents stay as they are.")
def corpus_refresh_schedule(context: ScheduleEvaluationContext):  # type: ignore[no-untyped-def]
    home = resolve_home()
    for source in sources_for(home.sources_file, home.inbox):
        yield RunRequest(partition_key=source.name, run_key=f"{source.name}-{context.scheduled_execution_time}")

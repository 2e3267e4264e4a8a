import os

from celery import Celery
from celery.signals import task_postrun, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ctg_site.settings")

from ctg_site import broker

# Before any connection is made: the Redis transport that outlives a Redis restart.
broker.use()

app = Celery("ctg_site", amqp="ctg_site.broker:AMQP")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Every worker runs these every few seconds, one worker at a time (ctg_site.liveness): lost
# work is picked up whether or not beat runs. Beat, if one runs, adds a run a minute.
app.conf.beat_schedule = {
    "sweep-clocks": {"task": "games.tasks.sweep_clocks", "schedule": 60.0},
    "sweep-pauses": {"task": "games.tasks.sweep_pauses", "schedule": 60.0},
    "sweep-ai-moves": {"task": "games.tasks.sweep_ai_moves", "schedule": 60.0},
    "sweep-reminders": {"task": "games.tasks.sweep_reminders", "schedule": 60.0},
    "sweep-recomputes": {"task": "leagues.tasks.sweep_recomputes", "schedule": 60.0},
    # Cheap (one indexed query) and the start of a round waits on it: every second.
    "sweep-events": {"task": "tournaments.tasks.sweep_events", "schedule": 1.0},
    "sweep-absentees": {"task": "tournaments.tasks.sweep_absentees", "schedule": 5.0},
}
# The sweeps' arguments for a process that starts alone (the embedded default): no task of
# another process can be under way, so an AI move is taken up however recent the table's
# last change.
ALONE_KWARGS = {"sweep-ai-moves": {"quiet_seconds": 0}}


@worker_process_init.connect
def _collect_less(**kwargs) -> None:
    from ctg_site.background import collect_less

    collect_less()


@task_postrun.connect
def _give_back_connections(sender, **kwargs) -> None:
    # Back to the pool, which Celery's fixup no longer closes after each task
    # (CELERY_DB_REUSE_MAX); one that broke meanwhile is closed here, not reused. A task
    # run in the caller's own thread (eager) leaves the caller's connection alone.
    from django.db import close_old_connections

    if not getattr(sender.request, "is_eager", False):
        close_old_connections()


# The workers' sweeps and heartbeats, and beat's heartbeat, start on their signals.
import ctg_site.liveness  # noqa: E402, F401

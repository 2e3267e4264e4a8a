"""The Celery app (`celery -A infra worker`), configured from Django's settings (`CELERY_*`).

The periodic sweeps are the project's to name (`CELERY_BEAT_SCHEDULE` in the settings); the
signal handlers are connected in `infra.apps.InfraConfig.ready()`, which Celery's Django
fixup runs in every worker and beat before their first signal.
"""

import os

from celery import Celery

from infra import broker

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ctg_site.settings")

# Before any connection is made: the Redis transport that outlives a Redis restart.
broker.use()

app = Celery("infra", amqp="infra.broker:AMQP")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def give_back_connections(sender=None, **kwargs) -> None:
    """After each task (`task_postrun`): its database connections back to the pool, which
    Celery's fixup no longer closes after each task (CELERY_DB_REUSE_MAX); one that broke
    meanwhile is closed here, not reused. A task run in the caller's own thread (eager)
    leaves the caller's connection alone."""
    from django.db import close_old_connections

    if not getattr(sender.request, "is_eager", False):
        close_old_connections()

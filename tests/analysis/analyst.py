"""Workers of the analysis queue for tests. Nothing of Django is imported at the top: a
process started by spawn imports this module before Django is set up."""

import multiprocessing
from contextlib import contextmanager


def _analyst_main(redis_url: str, samples: int | None) -> None:
    """A prefork Celery worker taking the analysis queue only, on the test database."""
    import django

    django.setup()
    from channels.testing.live import set_database_connection

    set_database_connection()
    from django.conf import settings

    from analysis.tasks import QUEUE
    from infra.celery import app
    from tests.conftest import _point_celery_at

    settings.CELERY_BROKER_URL = redis_url
    settings.ANALYSIS_SAMPLES = samples
    _point_celery_at(app, redis_url)
    quiet = ["--loglevel=WARNING", "--without-mingle", "--without-gossip", "--without-heartbeat"]
    app.worker_main(["worker", "--pool=prefork", "--concurrency=1", f"--queues={QUEUE}", *quiet])


def start_analyst(redis_url: str, samples: int | None) -> multiprocessing.Process:
    process = multiprocessing.Process(target=_analyst_main, args=(redis_url, samples))
    process.start()
    return process


@contextmanager
def analyst_in_thread(app):
    """A solo worker in a thread of this process, taking the analysis queue only."""
    from analysis.tasks import QUEUE
    from tests.conftest import solo_worker

    queues = app.amqp.queues
    consumed = queues._consume_from
    try:
        with solo_worker(app, queues=[QUEUE]):
            yield app
    finally:
        # The choice of queues stays on the app: later workers of this process take all.
        queues._consume_from = consumed

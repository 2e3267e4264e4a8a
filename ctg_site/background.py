"""Background work after commit: on Celery when a broker is configured, else in a thread.

The request that causes the work never waits for it.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

from celery import Task
from django.conf import settings
from django.db import connections, transaction

_executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="background")


def _run_in_thread(task: Task, args: tuple, kwargs: dict) -> None:
    try:
        task.apply(args=args, kwargs=kwargs, throw=False)
    finally:
        # This thread's connections; left open they would outlive their use.
        connections.close_all()


def _submit(task: Task, args: tuple, kwargs: dict, countdown: float | None) -> None:
    if countdown:
        # Timers die with the process; tasks that must survive a restart are also swept
        # by a periodic job (see the beat schedule in ctg_site.celery).
        timer = threading.Timer(countdown, _executor.submit, (_run_in_thread, task, args, kwargs))
        timer.daemon = True
        timer.start()
    else:
        _executor.submit(_run_in_thread, task, args, kwargs)


def enqueue(task: Task, *args, countdown: float | None = None, **kwargs) -> None:
    """Run `task` once the current transaction commits (or now, outside one)."""
    if settings.CELERY_BROKER_URL:
        transaction.on_commit(
            lambda: task.apply_async(args=args, kwargs=kwargs, countdown=countdown)
        )
    else:
        transaction.on_commit(lambda: _submit(task, args, kwargs, countdown))

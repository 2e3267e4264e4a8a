"""Background work after commit: on Celery when a broker is configured, else in a thread.

The request that causes the work never waits for it. Without a broker there is no beat
either: the web process then runs the beat schedule's sweeps itself (`start_sweeps`).
"""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from celery import Task
from django.conf import settings
from django.db import connections, transaction
from kombu.utils.imports import symbol_by_name

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
        # by a periodic job (the beat schedule in ctg_site.celery, see start_sweeps).
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


def run_schedule_once() -> None:
    """Submit every periodic job of the beat schedule (the sweeps) to the background threads."""
    from ctg_site.celery import app

    for entry in app.conf.beat_schedule.values():
        _executor.submit(_run_in_thread, symbol_by_name(entry["task"]), (), {})


_sweeping = threading.Event()


def start_sweeps(every: float = 60.0) -> None:
    """Without a broker no beat runs: run its schedule from a thread of this process."""
    if settings.CELERY_BROKER_URL or not settings.BACKGROUND_SWEEPS or _sweeping.is_set():
        return
    _sweeping.set()

    def loop() -> None:
        while True:
            time.sleep(every)
            run_schedule_once()

    threading.Thread(target=loop, daemon=True, name="background-sweeps").start()

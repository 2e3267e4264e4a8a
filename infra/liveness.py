"""Heartbeats of the workers and beat, and the sweeps that every worker runs.

Recovery must not hang on one process. Rather than one beat that everything waits for (and
that nobody watches), every Celery worker runs the sweeps (lost AI moves, clock checks,
rating jobs) every SWEEP_EVERY seconds from a thread of its main process; a lock in Redis
lets one worker a round do it. Any worker alive is enough, and a worker that dies
takes nothing with it: the next round is the other's. Beat, if one runs, adds a run a minute
and is no longer needed for recovery.

Each worker and beat writes a heartbeat into Redis on the same beat; /healthz shows them.
The handlers below start and stop them on Celery's signals (connected in infra.apps).
"""

import logging
import os
import socket
import threading
import time

import redis
from django.conf import settings
from django.db import connections

from infra.background import run_sweeps
from infra.celery import app
from infra.redis_pool import redis_retry

logger = logging.getLogger(__name__)

HEARTBEATS = "ctg:heartbeats"
SWEEP_LOCK = "ctg:sweep-lock"
# Heartbeats older than this are dropped from the list: a process that has been gone this
# long was taken away on purpose.
FORGET_AFTER = 3600

_stop = threading.Event()


def _client() -> redis.Redis:
    return redis.Redis.from_url(app.conf.broker_url, socket_timeout=5, **redis_retry())


def _beat(name: str, sweeps: bool) -> None:
    every = settings.SWEEP_EVERY if sweeps else settings.HEARTBEAT_EVERY
    client = _client()
    while True:
        try:
            client.hset(HEARTBEATS, name, f"{time.time():.3f}")
            # The lock lives a little less than a round: each round one worker sweeps.
            if sweeps and client.set(SWEEP_LOCK, name, nx=True, px=int(every * 900)):
                run_sweeps()
        except Exception:  # Redis away, a sweep failing: the next round tries again
            logger.warning("%s: heartbeat or sweep failed", name, exc_info=True)
        finally:
            connections.close_all()
        if _stop.wait(every):
            return


def start(name: str, sweeps: bool) -> None:
    _stop.clear()
    threading.Thread(target=_beat, args=(name, sweeps), daemon=True, name="heartbeat").start()


def on_worker_ready(sender=None, **kwargs) -> None:
    if settings.BACKGROUND_SWEEPS:
        start(f"worker {sender.hostname}", sweeps=True)


def on_worker_shutting_down(**kwargs) -> None:
    _stop.set()


def on_beat_init(sender=None, **kwargs) -> None:
    if settings.BACKGROUND_SWEEPS:
        start(f"beat {socket.gethostname()}:{os.getpid()}", sweeps=False)


def heartbeats() -> dict[str, dict]:
    """Each worker and beat heard of lately: alive or not, and the age of its last heartbeat."""
    client = _client()
    now = time.time()
    found = {}
    for name, at in client.hgetall(HEARTBEATS).items():
        age = now - float(at)
        if age > FORGET_AFTER:
            client.hdel(HEARTBEATS, name)
            continue
        found[name.decode() if isinstance(name, bytes) else name] = {
            "alive": age <= 3 * settings.HEARTBEAT_EVERY,
            "seconds_since_heartbeat": round(max(age, 0.0), 1),
        }
    return dict(sorted(found.items()))

"""Which work is under way, so that the sweeps set going again at once what was lost.

With Redis as the broker, a task taken by a worker that dies without a word (kill -9, its
machine gone) stays unacknowledged until the visibility timeout, which must outlast the
longest countdown: late acknowledgement and `task_reject_on_worker_lost` hand a task back
only when the worker's main process lives to do it (a pool process lost). So each piece of
work the sweeps look after is claimed where its task waits, in the broker's Redis:

- queued: the enqueuing process marks it for QUEUED_FOR seconds, the longest its task may
  wait in the queue before a sweep sets it going again;
- held: the task that runs it holds it for HOLD_FOR seconds at a time, renewed every
  RENEW_EVERY seconds by a thread of its process, and lets it go when done.

A process that dies stops renewing: its claims lapse within HOLD_FOR seconds and the next
sweep (every second, on any worker) sets the work going again. A Redis restarted empty has
lost the queue and the claims together: the sweep sets the work going again, and a task
still running claims its work again at its next renewal. A task that finds its work held by
another leaves it to that one. A task run twice all the same changes nothing the second
time (the version checks); claims only spare the waiting and the double work.

Without a broker, tasks run in threads of this process and their claims are kept here.
"""

import contextlib
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator

from django.conf import settings

logger = logging.getLogger(__name__)

QUEUED_FOR = 8.0
HOLD_FOR = 1.0
RENEW_EVERY = 0.25
PREFIX = "ctg:claim:"
QUEUED = "queued"

# Held by `token` (ARGV[1]) unless another task holds it: free, or only queued, it is taken.
_TAKE = """
local v = redis.call('GET', KEYS[1])
if v and v ~= ARGV[2] and v ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1
"""
_LET_GO = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""


class _Redis:
    def __init__(self, url: str) -> None:
        import redis

        from ctg_site.settings import redis_retry

        self.client = redis.Redis.from_url(url, socket_timeout=2, **redis_retry())
        self.take_script = self.client.register_script(_TAKE)
        self.let_go_script = self.client.register_script(_LET_GO)

    def queue(self, key: str) -> None:
        self.client.set(PREFIX + key, QUEUED, nx=True, px=int(QUEUED_FOR * 1000))

    def take(self, key: str, token: str) -> bool:
        args: list[str | int] = [token, QUEUED, int(HOLD_FOR * 1000)]
        return bool(self.take_script(keys=[PREFIX + key], args=args))

    def let_go(self, key: str, token: str) -> None:
        self.let_go_script(keys=[PREFIX + key], args=[token])

    def unclaimed(self, keys: list[str]) -> list[str]:
        if not keys:
            return []
        values = self.client.mget([PREFIX + key for key in keys])
        return [key for key, value in zip(keys, values, strict=True) if value is None]


class _Here:
    """The same claims in this process's memory."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.claims: dict[str, tuple[str, float]] = {}

    def _value(self, key: str) -> str | None:
        value, until = self.claims.get(key, ("", 0.0))
        return value if until > time.monotonic() else None

    def queue(self, key: str) -> None:
        with self.lock:
            if self._value(key) is None:
                self.claims[key] = (QUEUED, time.monotonic() + QUEUED_FOR)

    def take(self, key: str, token: str) -> bool:
        with self.lock:
            if self._value(key) not in (None, QUEUED, token):
                return False
            self.claims[key] = (token, time.monotonic() + HOLD_FOR)
            return True

    def let_go(self, key: str, token: str) -> None:
        with self.lock:
            if self._value(key) == token:
                del self.claims[key]

    def unclaimed(self, keys: list[str]) -> list[str]:
        with self.lock:
            return [key for key in keys if self._value(key) is None]


_here = _Here()
_stores: dict[tuple[int, str], _Redis] = {}
_stores_lock = threading.Lock()


def _store() -> _Redis | _Here:
    """The broker's Redis when there is one (a client per process: a forked pool process
    makes its own), else this process."""
    if not settings.CELERY_BROKER_URL:
        return _here
    from ctg_site.celery import app

    place = (os.getpid(), app.conf.broker_url)
    with _stores_lock:
        store = _stores.get(place)
        if store is None:
            store = _stores[place] = _Redis(app.conf.broker_url)
        return store


def queue(key: str) -> None:
    """Mark the work `key` queued: a task for it waits in the queue. A claim already there
    stays (the work is queued or under way)."""
    _store().queue(key)


def unclaimed(keys: list[str]) -> list[str]:
    """Those of `keys` that no task waits for or holds: lost work."""
    return _store().unclaimed(keys)


# The claims this process holds, renewed by one thread of the process.
_held: dict[str, tuple[str, _Redis | _Here]] = {}
_held_lock = threading.Lock()
_renewing: int | None = None  # the pid whose thread renews


def _renew() -> None:
    while True:
        time.sleep(RENEW_EVERY)
        with _held_lock:
            held = list(_held.items())
        for key, (token, store) in held:
            try:
                if not store.take(key, token):
                    # Taken over by another task while this one's claim had lapsed (a stall
                    # longer than HOLD_FOR): both play on, the version check keeps one move.
                    with _held_lock:
                        _held.pop(key, None)
            except Exception:  # Redis away: the next round tries again
                logger.debug("renewing the claim on %s failed", key, exc_info=True)


def _forked() -> None:
    """A forked pool process: no thread renews here yet, and no lock may stay held by a
    thread of the parent that does not exist in this process."""
    global _held_lock, _stores_lock, _renewing
    _held_lock, _stores_lock, _renewing = threading.Lock(), threading.Lock(), None
    _held.clear()


os.register_at_fork(after_in_child=_forked)


def _start_renewing() -> None:
    global _renewing
    with _held_lock:
        if _renewing == os.getpid():
            return
        _renewing = os.getpid()
    threading.Thread(target=_renew, daemon=True, name="claims").start()


@contextlib.contextmanager
def holding(key: str) -> Iterator[bool]:
    """Hold the work `key` while the block runs, renewing the claim; True if this task holds
    it, False if another task does (leave the work to it). With Redis away the work goes on
    unclaimed (True): better twice than never."""
    store = _store()
    token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
    try:
        mine = store.take(key, token)
    except Exception:
        logger.warning("the claim on %s could not be taken; playing on", key, exc_info=True)
        mine = True
    if not mine:
        yield False
        return
    _start_renewing()
    with _held_lock:
        _held[key] = (token, store)
    try:
        yield True
    finally:
        with _held_lock:
            _held.pop(key, None)
        with contextlib.suppress(Exception):
            store.let_go(key, token)

"""Which work is under way, so that the sweeps set going again at once what was lost.

With Redis as the broker, a task taken by a worker that dies without a word (kill -9, its
machine gone) stays unacknowledged until the visibility timeout, which must outlast the
longest countdown: late acknowledgement and `task_reject_on_worker_lost` hand a task back
only when the worker's main process lives to do it (a pool process lost). So each piece of
work the sweeps look after is claimed where its task waits, in the broker's Redis, at every
step of its task:

- queued: the process that queued the task marks it for QUEUED_FOR seconds, the longest the
  task may wait in the queue before a sweep sets the work going again (a task may also be
  lost between the queue and the worker that takes it, when that worker dies);
- taken: the worker that takes the task from the queue (its main process, which may hold it
  a moment before a pool process is free) claims it, until the task runs;
- running: the task claims it while it runs, and lets it go when done.

Taken and running claims last HOLD_FOR seconds and are renewed every RENEW_EVERY seconds by
a thread of the process holding them. A process that dies stops renewing: within HOLD_FOR
seconds its work is unclaimed, and the next sweep (twice a second, on any worker) sets it
going again. A Redis restarted empty has lost the queue and the claims together: the sweep
sets the work going again, and a task still running claims its work again at its next
renewal. A task that finds its work run by another leaves it to that one once it sees the
claim renewed, and waits out a claim that is not (a dead task's). A task run twice all the
same changes nothing the second time (the version checks); claims only spare the waiting and
the double work.

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

from infra.celery import app
from infra.redis_pool import redis_retry

logger = logging.getLogger(__name__)

QUEUED_FOR = 3.0
HOLD_FOR = 1.0
RENEW_EVERY = 0.25
# The longest a worker keeps a task's work claimed before the task runs: a task it took and
# then dropped unrun (it cannot tell) must not keep its work from the sweeps for good.
TAKEN_FOR = 60.0
PREFIX = "ctg:claim:"
# The task message's header that names the work its task claims.
HEADER = "ctg_claim"
QUEUED = "queued"
TAKEN = "taken:"
RUNNING = "running:"

# Run by `token` (ARGV[1]), unless another task runs it: queued, taken or free, it is taken.
_RUN = """
local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, 8) == 'running:' and v ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
# Taken by a worker (ARGV[1]) unless a task runs it already.
_TAKE = """
local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, 8) == 'running:' then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
# Still taken by this worker (ARGV[1]): not yet run, nor lost with a Redis restart.
_KEEP = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""
_LET_GO = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""


class _Redis:
    def __init__(self, url: str) -> None:
        import redis

        self.client = redis.Redis.from_url(url, socket_timeout=2, **redis_retry())
        self.scripts = {
            name: self.client.register_script(text)
            for name, text in (("run", _RUN), ("take", _TAKE), ("keep", _KEEP), ("go", _LET_GO))
        }

    def _script(self, name: str, key: str, token: str) -> bool:
        args: list[str | int] = [token, int(HOLD_FOR * 1000)]
        return bool(self.scripts[name](keys=[PREFIX + key], args=args))

    def queue(self, key: str) -> None:
        self.client.set(PREFIX + key, QUEUED, nx=True, px=int(QUEUED_FOR * 1000))

    def run(self, key: str, token: str) -> bool:
        return self._script("run", key, token)

    def take(self, key: str, token: str) -> bool:
        return self._script("take", key, token)

    def keep(self, key: str, token: str) -> bool:
        return self._script("keep", key, token)

    def let_go(self, key: str, token: str) -> None:
        self._script("go", key, token)

    def left(self, key: str) -> float:
        """Seconds before the claim lapses unless renewed."""
        return max(self.client.pttl(PREFIX + key), 0) / 1000

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

    def run(self, key: str, token: str) -> bool:
        with self.lock:
            value = self._value(key)
            if value is not None and value.startswith(RUNNING) and value != token:
                return False
            self.claims[key] = (token, time.monotonic() + HOLD_FOR)
            return True

    def take(self, key: str, token: str) -> bool:
        with self.lock:
            value = self._value(key)
            if value is not None and value.startswith(RUNNING):
                return False
            self.claims[key] = (token, time.monotonic() + HOLD_FOR)
            return True

    def keep(self, key: str, token: str) -> bool:
        with self.lock:
            if self._value(key) != token:
                return False
            self.claims[key] = (token, time.monotonic() + HOLD_FOR)
            return True

    def let_go(self, key: str, token: str) -> None:
        with self.lock:
            if self._value(key) == token:
                del self.claims[key]

    def left(self, key: str) -> float:
        with self.lock:
            return max(self.claims.get(key, ("", 0.0))[1] - time.monotonic(), 0.0)

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
    place = (os.getpid(), app.conf.broker_url)
    with _stores_lock:
        store = _stores.get(place)
        if store is None:
            store = _stores[place] = _Redis(app.conf.broker_url)
        return store


def queue(key: str) -> None:
    """Mark the work `key` queued: a task for it waits in the queue. A claim already there
    stays (the work is taken or under way)."""
    _store().queue(key)


def unclaimed(keys: list[str]) -> list[str]:
    """Those of `keys` that no task waits for, and no worker or task holds: lost work."""
    return _store().unclaimed(keys)


# The claims this process holds: key -> (token, store, renewal: "run" or "keep", renewed
# until this time.monotonic()).
_held: dict[str, tuple[str, _Redis | _Here, str, float]] = {}
_held_lock = threading.Lock()
_renewing: int | None = None  # the pid whose thread renews


def _renew() -> None:
    while True:
        time.sleep(RENEW_EVERY)
        with _held_lock:
            held = list(_held.items())
        for key, (token, store, renewal, until) in held:
            try:
                # A running task's claim is made again if Redis lost it; a taken one only
                # while it is the worker's (its task has not run yet).
                if time.monotonic() > until or not getattr(store, renewal)(key, token):
                    with _held_lock:
                        if _held.get(key, (None,))[0] == token:
                            del _held[key]
            except Exception:  # Redis away: the next round tries again
                logger.debug("renewing the claim on %s failed", key, exc_info=True)


def _forked() -> None:
    """A forked pool process: no thread renews here yet, and no lock may stay held by a
    thread of the parent that does not exist in this process."""
    global _held_lock, _stores_lock, _renewing
    _held_lock, _stores_lock, _renewing = threading.Lock(), threading.Lock(), None
    _held.clear()


os.register_at_fork(after_in_child=_forked)


def _hold(key: str, token: str, store: _Redis | _Here, renewal: str, until: float) -> None:
    global _renewing
    with _held_lock:
        _held[key] = (token, store, renewal, until)
        if _renewing == os.getpid():
            return
        _renewing = os.getpid()
    threading.Thread(target=_renew, daemon=True, name="claims").start()


def _token(stage: str) -> str:
    return f"{stage}{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"


def on_task_received(request=None, **kwargs) -> None:
    """A worker took a task from the queue: it claims the task's work until the task runs."""
    key = request.request_dict.get(HEADER) if request is not None else None
    if not key:
        return
    store, token = _store(), _token(TAKEN)
    try:
        if store.take(key, token):
            _hold(key, token, store, "keep", time.monotonic() + TAKEN_FOR)
    except Exception:  # Redis away: the sweep may set it going twice, which is harmless
        logger.warning("the claim on %s could not be taken", key, exc_info=True)


def _run(store: _Redis | _Here, key: str, token: str) -> bool:
    """Claim the work for this task. Another task's claim may be a dead one's (a pool process
    lost, its task handed back at once): it is watched for a renewal, which tells a living
    holder, and waited out if none comes."""
    deadline = time.monotonic() + HOLD_FOR + RENEW_EVERY
    left = None
    while not store.run(key, token):
        before, left = left, store.left(key)
        if before is not None and left > before:
            return False  # renewed: its task runs
        if time.monotonic() > deadline:
            return False
        time.sleep(RENEW_EVERY * 1.2)
    return True


@contextlib.contextmanager
def running(key: str) -> Iterator[bool]:
    """Claim the work `key` while the block runs; True if this task runs it, False if another
    task does (leave the work to it). With Redis away the work goes on unclaimed (True):
    better twice than never."""
    store, token = _store(), _token(RUNNING)
    try:
        mine = _run(store, key, token)
    except Exception:
        logger.warning("the claim on %s could not be taken; playing on", key, exc_info=True)
        mine = True
    if not mine:
        yield False
        return
    _hold(key, token, store, "run", float("inf"))
    try:
        yield True
    finally:
        with _held_lock:
            if _held.get(key, (None,))[0] == token:
                del _held[key]
        with contextlib.suppress(Exception):
            store.let_go(key, token)

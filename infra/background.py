"""Background work after commit: on Celery when a broker is configured, else in a thread.

The request that causes the work never waits for it, and never fails because of it: once a
transaction has committed, what comes after (pushes to sockets, queueing the next task) is
logged and tried again in the background when it fails, never raised at the caller.

Lost work (a task whose process died, a push or a queueing that gave up) is found again by
the sweeps: every Celery worker runs them every few seconds, one worker at a time
(`infra.liveness`), so recovery does not wait for beat. Without a broker there is no
worker either: the web process runs the sweeps itself (`start_sweeps`).
"""

import asyncio
import contextlib
import gc
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from asgiref.sync import async_to_sync
from celery import Task
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from django.db import connections, transaction
from kombu.utils.imports import symbol_by_name

from infra import claims
from infra.celery import app

logger = logging.getLogger(__name__)

_executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="background")
# Tasks routed to these queues (CELERY_TASK_ROUTES) run in threads of their own, as on Celery
# they go to workers of their own: a post-game analysis searches for half a minute, and must
# not keep AI moves waiting.
_queues = {"analysis": ThreadPoolExecutor(max_workers=1, thread_name_prefix="background-analysis")}
# Set once the interpreter is going down: work asked for from then on is left to the sweep
# that runs when the process starts again.
_closing = threading.Event()


def _close() -> None:
    """The process is stopping (SIGTERM): the AI moves under way finish, since the executor's
    threads are joined next; work not begun yet, or asked for from now on, is left to the
    sweep that runs at once when the process starts again."""
    _closing.set()
    for executor in (_executor, *_queues.values()):
        executor.shutdown(wait=False, cancel_futures=True)


def closing() -> bool:
    """Whether the process is stopping: long work (an analysis) stops at its next step and
    is left to the sweep that runs when the process starts again."""
    return _closing.is_set()


# Hooks of this kind run last registered first, so this one before the executor's own, which
# joins its threads; atexit's would run only after that.
threading._register_atexit(_close)  # type: ignore[attr-defined]

# Seconds between attempts of post-commit work that failed: often at first, so that work
# waiting for a Redis that restarts goes out within half a second of its return; about half
# a minute in all. Past that the sweeps find what is still missing.
RETRY_DELAYS = (0.2, 0.3, 0.5, 0.5, 1, 1, 2, 3, 5, 8, 10)
# Seconds after post-commit work failed in a caller's thread during which such work is not
# tried there but handed at once to the background: a request does not wait again for a
# Redis that is away (each attempt waits out its connection's retries) before it answers.
AWAY_FOR = 1.0
_failed_at = -AWAY_FOR


def _later(delay: float, what: str, work: Callable[[], object], attempt: int) -> None:
    def run() -> None:
        try:
            _attempt(what, work, attempt)
        finally:
            connections.close_all()  # a timer's thread: its connections end with it

    timer = threading.Timer(delay, run)
    timer.daemon = True
    timer.start()


def _attempt(what: str, work: Callable[[], object], attempt: int = 0) -> bool:
    """Do `work`; when it fails, log it and try again later. False when it failed."""
    try:
        work()
        return True
    except Exception:
        if attempt >= len(RETRY_DELAYS) or _closing.is_set():
            logger.exception("%s failed; left to the sweeps", what)
        else:
            logger.warning("%s failed; trying again", what, exc_info=attempt == 0)
            _later(RETRY_DELAYS[attempt], what, work, attempt + 1)
        return False


def _first_attempt(what: str, work: Callable[[], object]) -> None:
    global _failed_at
    if time.monotonic() - _failed_at < AWAY_FOR:
        _later(0, what, work, 0)
    elif not _attempt(what, work):
        _failed_at = time.monotonic()


def after_commit(what: str, work: Callable[[], object]) -> None:
    """Run `work` once the current transaction commits (or now, outside one).

    Whatever it raises is logged and it is tried again in the background: the transaction
    has committed, so the caller answers for what was saved. Robust hooks: a failing one
    never keeps the ones registered after it from running.
    """
    transaction.on_commit(partial(_first_attempt, what, work), robust=True)


_push_loop: tuple[int, asyncio.AbstractEventLoop] | None = None
_push_loop_lock = threading.Lock()


def _loop_for_pushes() -> asyncio.AbstractEventLoop:
    """This process's event loop for sends from synchronous code, in a thread of its own
    (started again in a forked child, where the parent's thread does not exist)."""
    global _push_loop
    with _push_loop_lock:
        if _push_loop is None or _push_loop[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, daemon=True, name="pushes").start()
            _push_loop = (os.getpid(), loop)
        return _push_loop[1]


_server_loop: asyncio.AbstractEventLoop | None = None


def serving_on(loop: asyncio.AbstractEventLoop) -> None:
    """Name the event loop that serves this process's sockets (the project's ASGI module)."""
    global _server_loop
    _server_loop = loop


def _on(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def group_send(*messages: tuple[str, dict], timeout: float = 10) -> None:
    """Send each (group, message) through the channel layer from synchronous code, in order.

    On Redis the sends run on one long-lived loop of this process, whose connections are
    made once: `async_to_sync` outside a server (a Celery worker) would start a loop, and
    open connections, for every push. The in-memory layer's queues belong to the loop that
    serves the sockets, and a send made on another loop does not wake it (a move played in
    a background thread would reach the sockets only when something else did): the sends
    go to that loop.
    """
    layer = get_channel_layer()
    if layer is None:
        return

    async def send() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    if isinstance(layer, RedisChannelLayer):
        loop = _loop_for_pushes()
    elif _server_loop is not None and _server_loop.is_running() and not _on(_server_loop):
        loop = _server_loop
    else:
        async_to_sync(send)()
        return
    future = asyncio.run_coroutine_threadsafe(send(), loop)
    try:
        future.result(timeout)
    except TimeoutError:
        future.cancel()
        raise


def _run_in_thread(task: Task, args: tuple, kwargs: dict) -> None:
    try:
        task.apply(args=args, kwargs=kwargs, throw=False)
    finally:
        # This thread's connections; left open they would outlive their use.
        connections.close_all()


def _submit_now(task: Task, args: tuple, kwargs: dict) -> None:
    if _closing.is_set():
        return  # picked up by the sweep when the process starts again
    queue = settings.CELERY_TASK_ROUTES.get(task.name, {}).get("queue", "")
    executor = _queues.get(queue, _executor)
    # A RuntimeError: the executor has shut down; the same.
    with contextlib.suppress(RuntimeError):
        executor.submit(_run_in_thread, task, args, kwargs)


def _submit(task: Task, args: tuple, kwargs: dict, countdown: float | None) -> None:
    if countdown:
        # Timers die with the process; tasks that must survive a restart are also swept
        # by a periodic job (the beat schedule, see start_sweeps).
        timer = threading.Timer(countdown, _submit_now, (task, args, kwargs))
        timer.daemon = True
        timer.start()
    else:
        _submit_now(task, args, kwargs)


def enqueue(
    task: Task, *args, countdown: float | None = None, claim: str | None = None, **kwargs
) -> None:
    """Run `task` once the current transaction commits (or now, outside one). `claim`: the
    work it does, marked queued first (infra.claims), for the sweep that looks after it."""
    what = f"queueing {task.name}{args}"

    def send() -> None:
        if settings.CELERY_BROKER_URL:
            headers = {claims.HEADER: claim} if claim is not None else None
            task.apply_async(args=args, kwargs=kwargs, countdown=countdown, headers=headers)
        else:
            _submit(task, args, kwargs, countdown)
        if claim is not None:
            # Once queued: a failure here must not queue it twice. The worker that takes it
            # claims it in turn (unless it was quicker than this).
            try:
                claims.queue(claim)
            except Exception:
                logger.warning("the claim on %s could not be marked queued", claim, exc_info=True)

    after_commit(what, send)


def collect_less() -> None:
    """Tune the garbage collector of a process that draws boards, once it has started.

    Every push renders boards that allocate many short-lived objects. With the default
    thresholds a full collection runs every few renders and scans every long-lived object
    (Django itself, cached game states): three quarters of render time in a web process,
    and pauses of about 80 ms in a worker. Freeze what start-up built and collect less often.
    """
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)


def on_worker_process_init(**kwargs) -> None:
    """A Celery pool process has started (`worker_process_init`): it draws boards too."""
    collect_less()


def once_in(key: str, seconds: int) -> bool:
    """True at most once in `seconds` for `key`, across every process sharing the cache.

    A sweep sets lost work going again with it: work that is only slow (a queue backed up
    under load) gets one more try, not one every round, which would only add to the queue.
    """
    from django.core.cache import cache

    try:
        return cache.add(f"once:{key}", 1, seconds)
    except Exception:  # the cache (Redis) away: better twice than never
        return True


def run_sweeps(alone: bool = False, only: set[str] | None = None) -> None:
    """Every periodic job of the beat schedule (the sweeps), here and now; `only` those named.

    `alone`: this process has just started and no other works on tables (the embedded
    default), so nothing waiting for it can be under way: every sweep takes it all at once.
    """
    alone_kwargs = settings.SWEEPS_ALONE_KWARGS if alone else {}
    for name, entry in app.conf.beat_schedule.items():
        if only is not None and name not in only:
            continue
        try:
            symbol_by_name(entry["task"])(**alone_kwargs.get(name, {}))
        except Exception:  # one failing sweep must not keep the others from running
            logger.exception("the sweep %s failed", name)


def run_schedule_once() -> None:
    """Submit every periodic job of the beat schedule (the sweeps) to the background threads."""
    for entry in app.conf.beat_schedule.values():
        _submit_now(symbol_by_name(entry["task"]), (), {})


_sweeping = threading.Event()


def start_sweeps(every: float = 60.0) -> None:
    """Without a broker no worker runs the sweeps: run them from a thread of this process.

    The first runs at once: work lost when the process stopped (an AI move, a clock check)
    is picked up as soon as it is back, not a minute later.
    """
    if settings.CELERY_BROKER_URL or not settings.BACKGROUND_SWEEPS or _sweeping.is_set():
        return
    _sweeping.set()

    def loop() -> None:
        # Each sweep at its own pace, none less often than `every`.
        pace = {
            name: min(float(entry["schedule"]), every)
            for name, entry in app.conf.beat_schedule.items()
        }
        due = dict.fromkeys(pace, 0.0)
        alone = True
        while not _closing.is_set():
            now = time.monotonic()
            ready = {name for name, at in due.items() if at <= now}
            run_sweeps(alone, only=None if alone else ready)
            connections.close_all()
            for name in pace if alone else ready:
                due[name] = now + pace[name]
            alone = False
            time.sleep(max(min(due.values()) - time.monotonic(), 0.05))

    threading.Thread(target=loop, daemon=True, name="background-sweeps").start()

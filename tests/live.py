"""A live daphne kept for a whole session (one per xdist worker) rather than one per test.

Starting one costs about a second, and its first pages as much again. Between two tests it
is told the id of the next test (for tests/chance.py) and, after each, forgets everything of
that test that would outlive its database: the background work and timers still pending
(cut off, as a daphne stopped at a test's end cut them), the De l'Orc dealers, the caches
(rate-limit counts above all) and the settings the test gave it. Rows are the database's
business: transactional_db empties it after each test, and ids are never used twice (on
PostgreSQL and on SQLite alike), so nothing a kept process holds can take an old row for a
new one.
"""

import multiprocessing
import os
import threading
import traceback
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from channels.testing.live import make_application, set_database_connection
from daphne.testing import DaphneProcess
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

# Forgetting waits for an AI move under way (a second or so on a busy machine).
ANSWER_SECONDS = 60


class KeptDaphne(DaphneProcess):
    """A daphne that takes orders between tests through a pipe."""

    def __init__(self) -> None:
        super().__init__(
            "localhost",
            partial(make_application, static_wrapper=ASGIStaticFilesHandler),
            setup=set_database_connection,
        )
        self.orders, self._their_end = multiprocessing.Pipe()

    def run(self) -> None:
        threading.Thread(target=_obey, args=(self._their_end,), daemon=True).start()
        super().run()

    def start_and_wait(self) -> None:
        self.start()
        if not self.ready.wait(timeout=30):
            self.kill()
            raise RuntimeError("the live server did not start")

    @property
    def url(self) -> str:
        return f"http://localhost:{self.port.value}"

    def tell(self, order: str, argument: object = None) -> None:
        self.orders.send((order, argument))
        if not self.orders.poll(ANSWER_SECONDS):
            raise RuntimeError(f"the live server did not answer {order!r} in {ANSWER_SECONDS} s")
        answer = self.orders.recv()
        if answer != "done":
            raise RuntimeError(f"the live server failed to {order}:\n{answer}")

    def begin(self, test_id: str) -> None:
        self.tell("begin", test_id)

    def override(self, **settings: object) -> None:
        """Settings of this server for the current test only."""
        self.tell("override", settings)

    def forget(self) -> None:
        self.tell("forget")

    def stop(self) -> None:
        # Daphne can hang on SIGTERM while consumers disconnect: then kill it.
        self.terminate()
        self.join(10)
        if self.is_alive():
            self.kill()
            self.join()


def _obey(orders) -> None:
    """In the server: carry out the test's orders, one at a time."""
    from django.test.utils import override_settings

    from tests import chance

    overrides: list[override_settings] = []
    while True:
        try:
            order, argument = orders.recv()
        except EOFError:
            return
        try:
            if order == "begin":
                os.environ[chance.TEST_ID] = argument
            elif order == "override":
                overrides.append(override_settings(**argument))
                overrides[-1].enable()
            elif order == "forget":
                while overrides:
                    overrides.pop().disable()
                _forget()
            else:
                raise ValueError(f"no such order: {order}")
        except Exception:
            orders.send(traceback.format_exc())
        else:
            orders.send("done")


def forget_faults() -> None:
    """This process no longer takes Redis for away, and holds no claim on work."""
    from accounts import limits
    from infra import background, claims

    limits.failed_open.away_until = 0.0
    background._failed_at = -background.AWAY_FOR
    with claims._here.lock:
        claims._here.claims.clear()


def end_background_work() -> None:
    """This process's dealers, timers and background threads stop: work under way finishes,
    work not begun is dropped, and a fresh pool waits for the next test."""
    from games.orc import dealer
    from infra import background

    dealer.stop_watching()
    for thread in threading.enumerate():
        if isinstance(thread, threading.Timer):
            thread.cancel()
    done = background._executor
    done.shutdown(wait=True, cancel_futures=True)
    background._executor = ThreadPoolExecutor(
        max_workers=done._max_workers, thread_name_prefix="background"
    )
    for queue, executor in list(background._queues.items()):
        executor.shutdown(wait=True, cancel_futures=True)
        background._queues[queue] = ThreadPoolExecutor(
            max_workers=executor._max_workers, thread_name_prefix=f"background-{queue}"
        )


def _forget() -> None:
    from django.core.cache import caches

    end_background_work()
    for cache in caches.all():
        cache.clear()
    forget_faults()

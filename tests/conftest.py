import multiprocessing
import os
import random
import re
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import pytest
from channels.testing.live import make_application, set_database_connection
from daphne.testing import DaphneProcess
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from hypothesis import settings

from ctg_site.settings import redis_cache
from ctg_site.settings import redis_channel_layer as redis_layer_config
from tests import chance, services, template_db
from tests.chromium import KeptChromium, ReducedMotion
from tests.live import KeptDaphne, end_background_work, forget_faults

# Properties are judged on what they find, never on how long an example took on a busy
# machine, and on the same examples every run: derandomized, a property cannot pass or fail
# by the draw. CTG_HYPOTHESIS=explore draws fresh examples each run, to look further.
settings.register_profile("site", deadline=None, derandomize=True, database=None)
settings.register_profile("explore", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("CTG_HYPOTHESIS", "site"))

# With fork, a live server started after an async consumer test hangs on websocket connect.
multiprocessing.set_start_method("spawn", force=True)

# Whether this worker's database was copied from the run's template (tests/template_db.py).
COPIED = pytest.StashKey[bool]()
FAILURES = Path(__file__).resolve().parents[1] / "artifacts" / "failures"


def pytest_addoption(parser):
    parser.addoption(
        "--test-order",
        default="file",
        help="file (as collected), reverse, or random:N (shuffled by the seed N): a test "
        "that passes only after some other test shows up in another order",
    )


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config, items):
    order = config.getoption("--test-order")
    if order == "reverse":
        items.reverse()
    elif order.startswith("random:"):
        random.Random(order.removeprefix("random:")).shuffle(items)
    elif order != "file":
        raise pytest.UsageError(f"--test-order: file, reverse or random:N, not {order!r}")
    # Under xdist a test of a minute or more starts first, so that it does not end the run
    # alone (the groups of `GROUPS` are scheduled in that order too).
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


# Tests that go to one worker, one after another, under `--dist loadgroup`: the fault tests
# (they stop and start the services), and the longest browser stories, which keep many pages
# playing for minutes against their clocks: the two events one after the other, the two
# De l'Orc games likewise, so that a loaded 2-core machine still plays them at their pace; and
# the six personas of the hostile input, which share one look at the site.
GROUPS = {
    "tests/faults/": "faults",
    "tests/tournaments/test_browser_auto.py": "event-stories",
    "tests/tournaments/test_browser_orc_auto.py": "event-stories",
    "tests/games/test_orc_browser.py": "orc-stories",
    "tests/site/test_hostile_input.py": "hostile-input",
}


def pytest_xdist_make_scheduler(config, log):
    """`--dist loadgroup` with the groups of `GROUPS`, read from each test's path. (On this
    pytest, xdist_group marks are lost before they reach the scheduler:
    pytest-dev/pytest-xdist#1386.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class PathGroups(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.partition("::")[0]
            return next((g for p, g in GROUPS.items() if path.startswith(p)), nodeid)

    return PathGroups(config, log)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    # Before any fixture: the seeds a test is dealt follow from its id (tests/chance.py).
    os.environ[chance.TEST_ID] = item.nodeid
    chance.origin = "test"
    chance.dealt.clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and chance.dealt:
        seeds = ", ".join(f"{kind} {seed}" for kind, seed in chance.dealt)
        report.sections.append(
            (
                "what chance dealt",
                f"CTG_TEST_SEED={chance.SALT}; made in this process, in order: {seeds} "
                "(servers and workers the test started deal from its id too)",
            )
        )
    browsers = [item.funcargs[b] for b in ("browser", "desktop_browser") if b in item.funcargs]
    if report.failed and report.when == "call" and browsers:
        report.sections.append(("pages open", _pages_seen(browsers, item)))
    return report


def _pages_seen(browsers, item) -> str:
    """Where each page of a failed browser test was and what it showed, with a screenshot."""
    lines = []
    name = re.sub(r"[^\w.-]+", "_", item.nodeid)[-150:]
    pages = (p for browser in browsers for context in browser.contexts for p in context.pages)
    for i, page in enumerate(pages):
        try:
            FAILURES.mkdir(parents=True, exist_ok=True)
            shot = FAILURES / f"{name}-{i}.png"
            page.screenshot(path=str(shot), full_page=True, timeout=5000)
            board = page.evaluate(
                "() => { const b = document.querySelector('#board');"
                " return b ? JSON.stringify(b.dataset) : 'no #board'; }"
            )
            text = " ".join(page.inner_text("body", timeout=5000).split())[:600]
            lines.append(f"page {i}: {page.url}\n  board {board}\n  text: {text}\n  {shot}")
        except Exception as error:  # a page gone with its context: say so, go on
            lines.append(f"page {i}: {page.url} ({error.__class__.__name__})")
    return "\n".join(lines) or "no page open"


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item):
    os.environ.pop(chance.TEST_ID, None)


@pytest.fixture(scope="session")
def django_db_modify_db_settings_xdist_suffix():
    """tests/settings.py names each xdist worker's database itself, so that the processes a
    test starts, which read those settings afresh, find it: pytest-django adds no suffix."""


@pytest.fixture(scope="session")
def _template_lock(request):
    """Under xdist on PostgreSQL (tests/template_db.py): None when this worker's database was
    copied from the run's template, else the lock it holds while it migrates its own."""
    xdist = os.environ.get("PYTEST_XDIST_WORKER")
    if request.config.getvalue("reuse_db") or not xdist or not template_db.applies():
        return None
    lock = template_db.copy_or_lock()
    request.config.stash[COPIED] = lock is None
    return lock


@pytest.fixture(scope="session")
def django_db_keepdb(request, _template_lock):
    """pytest-django's (--reuse-db); and a database copied from the run's template is kept as
    copied, its migrations applied already."""
    return bool(request.config.getvalue("reuse_db") or request.config.stash.get(COPIED, False))


@pytest.fixture(scope="session")
def django_db_setup(request, django_db_setup, django_db_blocker, _template_lock):
    """pytest-django's, and at the end no connection left to keep it from dropping the test
    database: threads of this process that tests ran code on (an async test's, a Celery
    worker's) keep theirs, and the database would stay on the machine after every run. A
    database copied from the template is dropped here: pytest-django keeps it."""
    from django.db import connection

    if _template_lock is not None:
        template_db.keep_as_template(_template_lock)
    yield
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "select pg_terminate_backend(pid) from pg_stat_activity"
            " where datname = current_database() and pid <> pg_backend_pid()"
        )
    if request.config.stash.get(COPIED, False):
        name = connection.settings_dict["NAME"]
        connection.close()
        template_db.drop(name)


def pytest_sessionfinish(session):
    """The controller of an xdist run drops the run's template database."""
    controller = not hasattr(session.config, "workerinput")
    if controller and session.config.getoption("numprocesses", None) and template_db.applies():
        template_db.drop()


def start_daphne(setup=set_database_connection) -> DaphneProcess:
    """A daphne serving HTTP and websockets in another process, on the test database."""
    server = DaphneProcess(
        "localhost",
        partial(make_application, static_wrapper=ASGIStaticFilesHandler),
        setup=setup,
    )
    server.start()
    if not server.ready.wait(timeout=30):
        server.terminate()
        raise RuntimeError("the live server did not start")
    return server


def stop_daphne(server: DaphneProcess) -> None:
    # Daphne can hang on SIGTERM while consumers disconnect over Redis: then kill it.
    server.terminate()
    server.join(10)
    if server.is_alive():
        server.kill()
        server.join()


def url_of(server: DaphneProcess) -> str:
    return f"http://localhost:{server.port.value}"


def use_redis_layer() -> None:
    """Setup for a daphne that reaches sockets of other processes through Redis."""
    from django.conf import settings

    set_database_connection()
    settings.CHANNEL_LAYERS = {"default": redis_layer_config(services.REDIS_URL)}


def counting_in_redis(url: str) -> None:
    """Setup for a daphne that keeps its counts (rate limits) in Redis at `url`, as the site
    does (with functools.partial)."""
    from django.conf import settings

    set_database_connection()
    settings.CACHES = {"default": redis_cache(url)}


# Personas with no club; tests/accounts and tests/leagues seat them in clubs of their own.
# (Models are imported inside: worker processes started by spawn import this module before
# Django is set up.)
def persona(name: str):
    from accounts.models import User

    return User.objects.create_user(name, password=f"pw-{name}-123")


@pytest.fixture
def alice(db):
    return persona("alice")


@pytest.fixture
def bob(db):
    return persona("bob")


@pytest.fixture
def charlie(db):
    return persona("charlie")


@pytest.fixture(autouse=True)
def _english():
    """Each test starts in English, whatever language an earlier test left active."""
    from django.apps import apps
    from django.utils import translation

    if not apps.ready:  # pure tests run without Django too
        yield
        return
    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _no_background_work_left():
    """A test's background work ends with it, before its database is emptied: De l'Orc
    dealers and watcher (a Celery worker started in this process watches for deals, whatever
    its game), and the sweeps and moves of the background threads. Left running, they would
    deal into the tests that follow, or hold locks that the emptying waits for."""
    yield
    from django.apps import apps

    if apps.ready:
        end_background_work()


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Rate-limit counters start at zero in each test: the limits keep their real values, and
    the requests of earlier tests (all from one address) never count against a later one."""
    from django.apps import apps

    if apps.ready:
        from django.core.cache import cache

        cache.clear()
    yield


@pytest.fixture(autouse=True)
def _no_faults_of_earlier_tests():
    """Each test starts with Redis not known to be away (an earlier test's own Redis, killed,
    does not send this test's post-commit work or counts elsewhere), and with no claim on
    work in this process (ids come back in a database emptied between tests)."""
    from django.apps import apps

    if apps.ready:
        forget_faults()
    yield


@pytest.fixture(scope="session")
def _kept_live_server(django_db_setup):
    """This worker's live server (tests/live.py), started when a test first needs it and
    stopped before the test database goes."""
    servers: list[KeptDaphne] = []

    def get() -> KeptDaphne:
        if servers and not servers[0].is_alive():
            servers.pop().join()  # a test took it down: a new one for the next
        if not servers:
            servers.append(KeptDaphne())
            servers[0].start_and_wait()
        return servers[0]

    yield get
    for server in servers:
        server.stop()


@pytest.fixture
def live_daphne(transactional_db, _kept_live_server, request):
    """The live server, told which test runs; `.override(NAME=value)` sets a setting of its
    own for this test. It forgets the test before the database is emptied."""
    server = _kept_live_server()
    server.begin(request.node.nodeid)
    yield server
    server.forget()


@pytest.fixture
def live_server_url(live_daphne):
    return live_daphne.url


@pytest.fixture(scope="session")
def _kept_chromium():
    """This worker's chromium (tests/chromium.py), of each build, started when a test first
    needs it."""
    kept: dict[bool, KeptChromium] = {}

    def get(*, desktop: bool) -> str:
        if desktop in kept and not kept[desktop].is_alive():
            kept.pop(desktop).stop()  # it died with a test: a new one for the next
        if desktop not in kept:
            kept[desktop] = KeptChromium(services.need_chromium(desktop))
        return kept[desktop].endpoint

    yield get
    for chromium in kept.values():
        chromium.stop()


@pytest.fixture
def _playwright(live_server_url):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture
def browser(_playwright, _kept_chromium):
    """Debian's chromium through Playwright; request it after database and server fixtures."""
    chromium = _playwright.chromium.connect_over_cdp(_kept_chromium(desktop=False))
    yield ReducedMotion(chromium)
    chromium.close()  # with every context the test opened


@pytest.fixture
def desktop_browser(_playwright, _kept_chromium):
    """The desktop build of chromium, for what the headless one lacks (notifications)."""
    chromium = _playwright.chromium.connect_over_cdp(_kept_chromium(desktop=True))
    yield ReducedMotion(chromium)
    chromium.close()


@pytest.fixture
def redis_url():
    """An empty Redis database for this test."""
    import redis

    url = services.need_redis()
    redis.Redis.from_url(url).flushdb()
    return url


@pytest.fixture
def redis_channel_layer(settings, redis_url):
    """Point the channel layer at Redis, so other processes (workers, daphnes) reach sockets."""
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {"default": redis_layer_config(redis_url)}
    channel_layers.backends.clear()
    yield settings.CHANNEL_LAYERS
    channel_layers.backends.clear()


def _point_celery_at(app, url) -> None:
    # The app caches its result backend and connection pool on first use: drop them so the
    # new URLs take effect whatever earlier tests did.
    app.conf.update(broker_url=url, result_backend=url)
    app._backend_cache = None
    app._local.__dict__.pop("backend", None)
    app._pool = None
    app.amqp._producer_pool = None


def _prefork_worker_main(redis_url: str, pool: bool) -> None:
    """A Celery worker process with one prefork child, on the test database and `redis_url`
    (its broker and channel layer); `pool`: with the database pool of production."""
    import django

    django.setup()
    set_database_connection()
    from django.conf import settings

    from infra.celery import app

    if pool:
        settings.DATABASES["default"]["OPTIONS"]["pool"] = settings.DATABASE_POOL
    settings.CHANNEL_LAYERS = {"default": redis_layer_config(redis_url)}

    _point_celery_at(app, redis_url)
    quiet = ["--loglevel=WARNING", "--without-mingle", "--without-gossip", "--without-heartbeat"]
    app.worker_main(["worker", "--pool=prefork", "--concurrency=1", *quiet])


@pytest.fixture
def prefork_worker(transactional_db, settings, redis_url):
    """Start a real prefork worker (children that time limits and worker loss apply to):
    ``start(pool=False)`` returns the worker's process. enqueue() goes to its broker from the
    start."""
    from infra.celery import app

    settings.CELERY_BROKER_URL = redis_url
    _point_celery_at(app, redis_url)
    started = []

    def start(pool: bool = False) -> multiprocessing.Process:
        process = multiprocessing.Process(target=_prefork_worker_main, args=(redis_url, pool))
        process.start()
        started.append(process)
        for _ in range(100):
            if app.control.inspect(timeout=0.5).ping():
                return process
        raise RuntimeError("the prefork worker did not answer")

    yield start
    for process in started:
        process.terminate()
        process.join(15)
        if process.is_alive():
            process.kill()
            process.join()
    _point_celery_at(app, None)


@contextmanager
def solo_worker(app, **options):
    """A solo Celery worker in a thread of this process.

    Its pool sends `worker_process_init` in this process, and Celery's Django fixup then
    closes the socket of each database connection still open here, then the connection,
    which closes that descriptor number a second time: whatever another thread opened in
    between (a file, a socket) is closed under it. This thread's connections are closed
    first, so that the fixup finds none (it reconnects at the next query)."""
    from celery.contrib.testing.worker import start_worker
    from django.db import connections

    connections.close_all()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10, **options):
        yield app


@pytest.fixture
def celery_worker(transactional_db, settings, redis_url):
    """A real Celery worker on Redis, in a thread of this process; enqueue() goes through it."""
    from infra.celery import app

    settings.CELERY_BROKER_URL = redis_url
    _point_celery_at(app, redis_url)
    with solo_worker(app):
        yield app
    _point_celery_at(app, None)

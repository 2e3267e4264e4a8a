import multiprocessing
from functools import partial

import pytest
from channels.testing.live import make_application, set_database_connection
from daphne.testing import DaphneProcess
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

from tests import services

# With fork, a live server started after an async consumer test hangs on websocket connect.
multiprocessing.set_start_method("spawn", force=True)

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def live_server_url(transactional_db):
    """A daphne serving HTTP and websockets in another process, on the test database."""
    server = DaphneProcess(
        "localhost",
        partial(make_application, static_wrapper=ASGIStaticFilesHandler),
        setup=set_database_connection,
    )
    server.start()
    if not server.ready.wait(timeout=30):
        server.terminate()
        raise RuntimeError("the live server did not start")
    yield f"http://localhost:{server.port.value}"
    server.terminate()
    server.join(10)
    if server.is_alive():
        server.kill()
        server.join()


@pytest.fixture
def browser(live_server_url):
    """Debian's chromium through Playwright; request it after database and server fixtures."""
    executable = services.need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()

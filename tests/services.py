"""Which outside parts this machine has, and how a test asks for one.

On a developer's machine a test that needs a missing part skips and says what to install.
With CTG_REQUIRE_SERVICES=1 (set by CI) the same test fails instead, so nothing is skipped
silently where the parts must exist.
"""

import os
import shutil
import socket

import pytest

REQUIRED = os.environ.get("CTG_REQUIRE_SERVICES") == "1"
POSTGRES_URL = os.environ.get("CTG_TEST_POSTGRES_URL", "postgres://root@127.0.0.1:5432/ctg")


def _redis_url_of_this_worker() -> str:
    """The Redis database of this process's tests: CTG_TEST_REDIS_URL's, or under xdist one
    per worker (a test empties its database, and another worker's must not be it).

    Worker gw0 takes the URL's database, gwN the Nth one below it (Redis has 16), unless
    CTG_TEST_REDIS_DBS lists the numbers, one per worker in order ("13,10,9,8").
    """
    url = os.environ.get("CTG_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return url
    index = int(worker.removeprefix("gw"))
    base, _, db = url.rpartition("/")
    if listed := os.environ.get("CTG_TEST_REDIS_DBS"):
        numbers = [int(n) for n in listed.split(",")]
        if index >= len(numbers):
            raise RuntimeError(f"CTG_TEST_REDIS_DBS={listed} names no database for {worker}")
        return f"{base}/{numbers[index]}"
    return f"{base}/{(int(db or 0) - index) % 16}"


# Spawned processes (live servers, Celery workers) inherit the worker's name, so they compute
# the same database.
REDIS_URL = _redis_url_of_this_worker()


def port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def postgres_available() -> bool:
    return port_open("127.0.0.1", 5432)


def redis_available() -> bool:
    return port_open("127.0.0.1", 6379)


def chromium_path(desktop: bool = False) -> str | None:
    """Debian's chromium in its headless build when installed (the build Playwright itself
    runs headless pages in: the same Blink and V8 without the desktop browser's window and
    compositing, a quarter less CPU in a story), else the desktop one; the desktop one when a test
    needs what only it has (notifications)."""
    desktop_path = shutil.which("chromium") or shutil.which("chromium-browser")
    return desktop_path if desktop else shutil.which("chromium-headless-shell") or desktop_path


def need(what: str, available: object, hint: str) -> None:
    if available:
        return
    if REQUIRED:
        pytest.fail(f"{what} is required (CTG_REQUIRE_SERVICES=1) but {hint}", pytrace=False)
    pytest.skip(f"needs {what}: {hint}")


def need_redis() -> str:
    need("Redis", redis_available(), "nothing answers on 127.0.0.1:6379 (start redis-server)")
    return REDIS_URL


def need_chromium(desktop: bool = False) -> str:
    path = chromium_path(desktop)
    package = "chromium" if desktop else "chromium-headless-shell"
    need("chromium", path, f"no chromium on PATH (apt-get install {package})")
    assert path
    return path

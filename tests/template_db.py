"""Each xdist worker's test database on PostgreSQL, migrated once a run.

The first worker migrates its own database as usual and then copies it as the run's
template; every other worker makes its database as a copy of that template (``CREATE
DATABASE … TEMPLATE``, a copy of files) instead of running the migrations again. A file
lock orders them: a worker that dies while migrating leaves no template, and the next one
migrates. The controller drops the template at the end of the run.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from pathlib import Path
from typing import IO

import psycopg
from django.conf import settings


def _template() -> str:
    return f"test_ctg_{os.environ['CTG_TEST_RUN']}_template"


def _server(statement: str, params: tuple = ()) -> tuple | None:
    """Run a statement on the server's own database, outside any test database; its first
    row, if it returns rows."""
    db = settings.DATABASES["default"]
    with psycopg.connect(
        host=db["HOST"] or None,
        port=db["PORT"] or None,
        user=db["USER"] or None,
        password=db["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    ) as server:
        cursor = server.execute(statement, params)
        return cursor.fetchone() if cursor.description else None


def applies() -> bool:
    """On PostgreSQL."""
    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


def _lock_path() -> Path:
    return Path(tempfile.gettempdir()) / f"{_template()}.lock"


def copy_or_lock() -> IO[str] | None:
    """Make this worker's database a copy of the run's template; or, when there is none yet,
    hold the lock (returned) until `keep_as_template` after the migrations."""
    lock = _lock_path().open("w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    if not _server("select 1 from pg_database where datname = %s", params=(_template(),)):
        return lock
    name = settings.DATABASES["default"]["TEST"]["NAME"]
    _server(f'drop database if exists "{name}"')
    _server(f'create database "{name}" template "{_template()}"')
    lock.close()
    return None


def keep_as_template(lock: IO[str]) -> None:
    """Copy this worker's freshly migrated database as the run's template; the others go on."""
    from django.db import connection

    connection.close()  # a database being copied must have no one connected
    _server(f'create database "{_template()}" template "{connection.settings_dict["NAME"]}"')
    lock.close()


def drop(name: str | None = None) -> None:
    """Drop a worker's database, by default the run's template (and its lock), if there."""
    _server(f'drop database if exists "{name or _template()}"')
    if name is None:
        _lock_path().unlink(missing_ok=True)

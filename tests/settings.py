"""Test settings: PostgreSQL when it answers on its standard port, else an SQLite file."""

import os
import uuid

import dj_database_url

# Production settings with a key of the tests' own; plain HTTP between test client and server.
os.environ.setdefault("SECRET_KEY", "tests-only-key")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("SECURE_COOKIES", "0")

from ctg_site.settings import *  # noqa: F403
from ctg_site.settings import BASE_DIR
from tests import services

if "DATABASE_URL" not in os.environ:
    if services.postgres_available():
        DATABASES = {"default": dj_database_url.parse(services.POSTGRES_URL)}
    elif services.REQUIRED:
        raise RuntimeError("CTG_REQUIRE_SERVICES=1 but PostgreSQL does not answer on :5432")
# A name of this run's own, so two runs on one machine never drop each other's database,
# and of the xdist worker, so the workers of one run have a database each. Both are in the
# environment, so live servers and workers started in other processes pick the same one.
RUN = os.environ.setdefault("CTG_TEST_RUN", uuid.uuid4().hex[:8])
if worker := os.environ.get("PYTEST_XDIST_WORKER"):
    RUN = f"{RUN}_{worker}"
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # A file, not memory: live servers in other processes must see the same database.
    DATABASES["default"]["TEST"] = {"NAME": BASE_DIR / f"test-db-{RUN}.sqlite3"}
else:
    DATABASES["default"]["TEST"] = {"NAME": f"test_ctg_{RUN}"}

# Seeds of tables and tournaments follow from the test that makes them (tests/chance.py).
INSTALLED_APPS = [*INSTALLED_APPS, "tests.apps.TestsConfig"]  # noqa: F405
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
# Tests choose their channel layer and broker explicitly (tests/services.py).
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
CELERY_BROKER_URL = ""
BACKGROUND_SWEEPS = False  # a test runs a sweep when it means to
CELERY_RESULT_BACKEND = None
WHITENOISE_AUTOREFRESH = True
# A round's end waits a second for people who do not continue: tests that play on do not
# wait long (tests of the pause itself set their own, on the live server too); a battle's
# reveal likewise.
ROUND_PAUSE_SECONDS = 1
# Post-game analyses search with few samples: the tests look at where the marks go, not at
# their strength (benchmarks/analysis_ladder.py measures that).
ANALYSIS_SAMPLES = 6
REVEAL_PAUSE_SECONDS = 1
# A test that kills a worker in the middle of an AI move makes the move last, here and in the
# processes it starts (they inherit the environment).
AI_MOVE_AT_LEAST_SECONDS = float(os.environ.get("CTG_TEST_AI_MOVE_SECONDS", "0"))

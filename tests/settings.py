"""Test settings: PostgreSQL when it answers on its standard port, else an SQLite file."""

import os

import dj_database_url

from ctg_site.settings import *  # noqa: F403
from ctg_site.settings import BASE_DIR
from tests import services

if "DATABASE_URL" not in os.environ:
    if services.postgres_available():
        DATABASES = {"default": dj_database_url.parse(services.POSTGRES_URL)}
    elif services.REQUIRED:
        raise RuntimeError("CTG_REQUIRE_SERVICES=1 but PostgreSQL does not answer on :5432")
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # A file, not memory: live servers in other processes must see the same database.
    DATABASES["default"]["TEST"] = {"NAME": BASE_DIR / "test-db.sqlite3"}

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
# Tests choose their channel layer and broker explicitly (tests/services.py).
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
CELERY_BROKER_URL = ""
BACKGROUND_SWEEPS = False  # a test runs a sweep when it means to
CELERY_RESULT_BACKEND = None
WHITENOISE_AUTOREFRESH = True

"""Settings of the real processes a fault test starts (daphnes, workers, beat): the test
database of the run that started them, and everything else on that test's own Redis."""

import os

from ctg_site.settings import redis_cache, redis_channel_layer
from tests.settings import *  # noqa: F403
from tests.settings import DATABASES

REDIS = os.environ["CTG_FAULT_REDIS_URL"]

# pytest-django made this database for the test that starts these processes.
DATABASES["default"]["NAME"] = DATABASES["default"]["TEST"]["NAME"]
CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS)}
CELERY_BROKER_URL = REDIS
CACHES = {"default": redis_cache(REDIS)}
BACKGROUND_SWEEPS = True

"""Settings of an embedded default server a test starts (make run, or daphne without Redis):
the test database of the run that started it, the in-memory channel layer, AI moves and
sweeps in threads of the server."""

from tests.settings import *  # noqa: F403
from tests.settings import DATABASES

DATABASES["default"]["NAME"] = DATABASES["default"]["TEST"]["NAME"]
BACKGROUND_SWEEPS = True

import pytest

from tests.faults.processes import OwnRedis
from tests.games.conftest import running_table  # noqa: F401  (the same two-player table)


@pytest.fixture
def own_redis():
    server = OwnRedis()
    server.start()
    yield server
    server.kill()

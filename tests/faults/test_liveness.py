"""/healthz shows each worker and beat, alive or not, with the age of its last heartbeat."""

import time

import pytest
import redis

from infra import liveness

pytestmark = [pytest.mark.django_db, pytest.mark.services]


@pytest.fixture
def broker(settings, own_redis):
    from infra.celery import app
    from tests.conftest import _point_celery_at

    settings.CELERY_BROKER_URL = own_redis.url
    _point_celery_at(app, own_redis.url)
    yield redis.Redis.from_url(own_redis.url)
    liveness._stop.set()
    _point_celery_at(app, None)


def test_it_shows_a_beating_process_alive_and_a_silent_one_not(client, broker):
    liveness.start("beat test", sweeps=False)
    broker.hset(liveness.HEARTBEATS, "worker w2@gone", time.time() - 60)
    broker.hset(liveness.HEARTBEATS, "worker w3@long-gone", time.time() - 2 * 3600)

    def processes():
        return client.get("/healthz").json()["processes"]

    deadline = time.monotonic() + 5
    while "beat test" not in processes():
        assert time.monotonic() < deadline
        time.sleep(0.1)
    shown = processes()

    assert shown["beat test"]["alive"] is True
    assert shown["beat test"]["seconds_since_heartbeat"] < 5
    assert shown["worker w2@gone"]["alive"] is False
    assert 59 <= shown["worker w2@gone"]["seconds_since_heartbeat"] < 70
    assert "worker w3@long-gone" not in shown, "forgotten after an hour"
    assert client.get("/healthz").status_code == 200, "shown, not judged"

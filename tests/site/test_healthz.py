import pytest

pytestmark = pytest.mark.django_db


def test_it_reports_every_part_healthy_in_the_embedded_default(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body.pop("rate_limits").keys() == {"failed_open", "seconds_since_failed_open"}
    assert body == {
        "status": "ok",
        "failing": [],
        "checks": {"database": "ok", "channel_layer": "ok", "broker": "in-process"},
    }


def test_it_names_an_unreachable_broker_with_503(client, settings):
    from infra.celery import app

    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    app.conf.broker_url = settings.CELERY_BROKER_URL
    try:
        response = client.get("/healthz")
    finally:
        app.conf.broker_url = None

    assert response.status_code == 503
    assert response.json()["failing"] == ["broker"]
    assert response.json()["checks"]["database"] == "ok"


def test_it_tells_visitors_the_state_and_keeps_the_error_for_the_log(client, settings, caplog):
    from infra.celery import app

    settings.CELERY_BROKER_URL = "redis://:s3cret@127.0.0.1:1/0"
    app.conf.broker_url = settings.CELERY_BROKER_URL
    try:
        response = client.get("/healthz")
    finally:
        app.conf.broker_url = None

    assert response.json()["checks"]["broker"] == "error"
    assert "127.0.0.1" not in response.content.decode()
    assert "the broker check failed" in caplog.text


def test_it_checks_the_redis_layer_and_broker(client, settings, redis_channel_layer, redis_url):
    from infra.celery import app

    settings.CELERY_BROKER_URL = redis_url
    app.conf.broker_url = redis_url
    try:
        response = client.get("/healthz")
    finally:
        app.conf.broker_url = None

    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "channel_layer": "ok", "broker": "ok"}

"""A Celery worker process and a daphne's setup for De l'Orc tests (imported by spawn before
Django is set up, so it imports nothing of the site at the top)."""


def worker_main(redis_url: str) -> None:
    """A Celery worker (it watches for deals nobody pushes) on the test database and Redis."""
    import django

    django.setup()
    from channels.testing.live import set_database_connection
    from django.conf import settings

    from ctg_site.settings import redis_channel_layer
    from infra.celery import app
    from tests.conftest import _point_celery_at

    set_database_connection()
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(redis_url)}
    settings.CELERY_BROKER_URL = redis_url
    _point_celery_at(app, redis_url)
    quiet = ["--loglevel=WARNING", "--without-mingle", "--without-gossip", "--without-heartbeat"]
    app.worker_main(["worker", "--pool=solo", *quiet])


def pausing_on_redis(seconds: int, deal_speed: float) -> None:
    """Setup of a daphne for De l'Orc's stories: sockets of other processes through Redis,
    reveals and rounds' ends that wait `seconds` for the people to continue, and the deal at
    the test's speed (every process that deals or takes a card must count them alike)."""
    from django.conf import settings

    from tests.conftest import use_redis_layer

    use_redis_layer()
    settings.REVEAL_PAUSE_SECONDS = settings.ROUND_PAUSE_SECONDS = seconds
    settings.DEAL_SPEED = deal_speed

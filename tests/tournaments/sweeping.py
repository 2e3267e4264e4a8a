"""A live server's setup for stories that need the sweeps (imported by the server process
before Django is set up: no model imports here)."""


def sweeping_server() -> None:
    """The test database, and the sweeps run from a thread, as in the embedded default."""
    from channels.testing.live import set_database_connection
    from django.conf import settings

    set_database_connection()
    settings.BACKGROUND_SWEEPS = True
    from infra.background import start_sweeps

    start_sweeps()


def fast_deal_sweeping_server() -> None:
    """As `sweeping_server`, with De l'Orc's deal six times as fast as its pace: a story sees
    whole games, every card still dealt and raced for, within minutes."""
    from django.conf import settings

    settings.DEAL_SPEED = 6.0
    sweeping_server()


def shared_redis() -> None:
    """A server whose sockets and cache are in Redis, as every process's are when scaled out."""
    from django.conf import settings

    from ctg_site.settings import redis_cache
    from tests import services
    from tests.conftest import use_redis_layer

    use_redis_layer()
    settings.CACHES = {"default": redis_cache(services.REDIS_URL)}

import asyncio
import contextlib
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ctg_site.settings")
# Django must be set up before the routing imports consumers and models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from ctg_site.routing import websocket_urlpatterns  # noqa: E402
from games import registry  # noqa: E402
from infra.background import collect_less, serving_on, start_sweeps  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)


async def application(scope, receive, send):
    """The router, with what daphne does on SIGTERM made graceful.

    Daphne then cancels everything under way and waits for it before it stops. A move being
    saved would be saved and never answered, so a request finishes its answer first; a socket
    closes at once (its page reconnects to another daphne). Neither raises the cancellation:
    daphne waits for all of them together, and one that raised would end its wait early.
    """
    serving_on(asyncio.get_running_loop())
    task = asyncio.ensure_future(router(scope, receive, send))
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        if scope["type"] != "http":
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


# The periodic sweeps (lost clock checks, AI moves, rating jobs), when no beat runs them.
start_sweeps()
# What the games keep running: real-time deals (De l'Orc) whose pushing process died are taken
# up by any that lives.
if settings.BACKGROUND_SWEEPS:
    registry.keep_running()

collect_less()

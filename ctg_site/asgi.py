import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ctg_site.settings")
# Django must be set up before the routing imports consumers and models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from ctg_site.background import start_sweeps  # noqa: E402
from ctg_site.routing import websocket_urlpatterns  # noqa: E402
from games.orc.dealer import ensure_watching  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# The periodic sweeps (lost clock checks, AI moves, rating jobs), when no beat runs them.
start_sweeps()
# Real-time deals (De l'Orc) whose pushing process died are taken up by any that lives.
if settings.BACKGROUND_SWEEPS:
    ensure_watching()

# Every push renders boards that allocate many short-lived objects. With the default
# thresholds a full collection runs every few renders and scans every long-lived object
# (Django itself, cached game states), which measured as three quarters of render time.
# Freeze what start-up built and collect less often.
gc.freeze()
gc.set_threshold(50_000, 50, 100)

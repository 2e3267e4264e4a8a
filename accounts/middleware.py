import functools
import zoneinfo

from django.conf import settings
from django.utils import timezone, translation

from accounts import limits


class PreferredLanguageMiddleware:
    """Use a signed-in user's preferred language unless the browser chose one with the switcher."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = request.user
        if (
            user.is_authenticated
            and user.preferred_language
            and settings.LANGUAGE_COOKIE_NAME not in request.COOKIES
        ):
            translation.activate(user.preferred_language)
            request.LANGUAGE_CODE = user.preferred_language
        return self.get_response(request)


TIME_ZONE_COOKIE = "tz"


@functools.cache
def _zone(name: str) -> zoneinfo.ZoneInfo | None:
    if name not in zoneinfo.available_timezones():
        return None
    return zoneinfo.ZoneInfo(name)


class BrowserTimeZoneMiddleware:
    """Show times in the visitor's own time zone, which the page's script puts in a cookie;
    without it (or with a zone we do not know) the site's TIME_ZONE applies."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        zone = _zone(request.COOKIES.get(TIME_ZONE_COOKIE, "")[:64])
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        return self.get_response(request)


class PostRateLimitMiddleware:
    """Refuse writes (moves, chat, seats, forms) beyond a rate no honest player reaches, per
    signed-in user and per address, with a 429 before the view runs: a refused move is not
    applied. Reading stays unbounded here; GETs change nothing."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in ("GET", "HEAD", "OPTIONS") and not limits.post_allowed(request):
            return limits.too_many_posts(request)
        return self.get_response(request)

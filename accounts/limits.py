"""Bounds on floods: who a request comes from, fixed-window counters, and the 429 answers.

Counters live in the default cache: per process in memory without REDIS_URL, shared by all
processes in Redis with it (see settings). A window is a fixed slice of time named in the key,
so a counter never outlives its slice even if the cache keeps it a little longer.

The counts only assist: while Redis cannot be reached (a restart), requests are let through
uncounted rather than failed, and /healthz shows how many were (`failed_open`).
"""

import logging
import threading
import time

from axes.models import AccessAttempt
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# Seconds during which counting is not tried again after Redis failed: a POST meanwhile does
# not wait for a Redis that is away (up to its connect timeout, for each of its counts).
AWAY_FOR = 1.0
# Seconds between log lines while counts keep failing open.
LOG_EVERY = 10.0


class FailOpen:
    """Counts not made because Redis could not be reached, in this process."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.count = 0
        self.last = 0.0  # time.time() of the latest
        self.away_until = 0.0  # time.monotonic()
        self.logged_at = -LOG_EVERY

    def away(self) -> bool:
        return time.monotonic() < self.away_until

    def note(self, error: Exception | None) -> None:
        now = time.monotonic()
        with self.lock:
            self.count += 1
            self.last = time.time()
            if error is not None:
                self.away_until = now + AWAY_FOR
            log = now - self.logged_at >= LOG_EVERY
            if log:
                self.logged_at = now
            count = self.count
        if log:
            logger.warning(
                "rate limits fail open: Redis cannot be reached (%d requests let through "
                "uncounted so far)",
                count,
                exc_info=error,
            )

    def metric(self) -> dict:
        """For /healthz: how many requests went uncounted, and how long ago the latest."""
        with self.lock:
            count, last = self.count, self.last
        ago = round(max(time.time() - last, 0.0), 1) if count else None
        return {"failed_open": count, "seconds_since_failed_open": ago}


failed_open = FailOpen()


def client_address(request: HttpRequest) -> str:
    """The visitor's address: REMOTE_ADDR, or the header a trusted proxy sets (CLIENT_IP_HEADER)."""
    value = request.META.get(settings.CLIENT_IP_HEADER, "") or request.META.get("REMOTE_ADDR", "")
    # A proxy appends the address it saw to X-Forwarded-For; what comes before it is whatever
    # the client chose to send, so only the last entry can be trusted.
    return value.split(",")[-1].strip()[:64]


def attempted_username(request: HttpRequest, credentials: dict | None = None) -> str | None:
    """The username a login tried, as the lockout counts it: no longer than the column that
    keeps failed logins, which no username can be, so a longer one is simply a wrong guess."""
    data = credentials if credentials else getattr(request, "data", request.POST)
    username = data.get("username")
    if username is None:
        return None
    return str(username)[: AccessAttempt._meta.get_field("username").max_length]


# Seconds of the window that counts sign-ups from one address.
SIGNUP_WINDOW = 3600


def hit(scope: str, who: str, limit: int, window: int) -> bool:
    """Count one hit for `who` in the current window; True while within `limit`, or while
    the counts cannot be reached."""
    if failed_open.away():
        failed_open.note(None)
        return True
    try:
        return _count(scope, who, limit, window)
    except RedisError as error:
        failed_open.note(error)
        return True


def _count(scope: str, who: str, limit: int, window: int) -> bool:
    slot = int(time.time()) // window
    key = f"limit:{scope}:{who}:{slot}"
    counters = caches["default"]
    if isinstance(counters, RedisCache):
        # One round trip: Django's incr takes two (EXISTS, then INCRBY), on every POST.
        full_key = counters.make_and_validate_key(key)
        pipe = counters._cache.get_client(full_key, write=True).pipeline()
        pipe.incr(full_key)
        pipe.expire(full_key, window + 1, nx=True)
        return pipe.execute()[0] <= limit
    try:
        count = counters.incr(key)
    except ValueError:
        # The window's first hit. add() is a no-op when the key exists, so two first hits
        # at once cannot reset each other: the one that loses counts on.
        count = 1 if counters.add(key, 1, timeout=window + 1) else counters.incr(key)
    return count <= limit


def post_allowed(request: HttpRequest) -> bool:
    """Count a POST against its user and its address; False once either is over its rate."""
    window = settings.RATE_LIMIT_WINDOW
    by_address = hit(
        "post-address", client_address(request), settings.RATE_LIMIT_POSTS_PER_ADDRESS, window
    )
    by_user = True
    if request.user.is_authenticated:
        by_user = hit("post-user", str(request.user.pk), settings.RATE_LIMIT_POSTS_PER_USER, window)
    return by_address and by_user


def signup_allowed(request: HttpRequest) -> bool:
    """Count an account about to be created from this address; False once over the hourly rate."""
    return hit(
        "signup", client_address(request), settings.RATE_LIMIT_SIGNUPS_PER_ADDRESS, SIGNUP_WINDOW
    )


def too_many_requests(request: HttpRequest, message: str, retry_after: int) -> HttpResponse:
    """429 in the shape the caller reads: JSON for the API, a fragment for htmx, else a page."""
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"error": message}, status=429)
    elif getattr(request, "htmx", False):
        response = render(
            request, "limits/too_many_fragment.html", {"message": message}, status=429
        )
    else:
        response = render(request, "limits/too_many.html", {"message": message}, status=429)
    response["Retry-After"] = str(retry_after)
    return response


def too_many_posts(request: HttpRequest) -> HttpResponse:
    message = _(
        "You are sending requests faster than anyone plays. Please wait a minute and try again."
    )
    return too_many_requests(request, message, settings.RATE_LIMIT_WINDOW)


def too_many_signups(request: HttpRequest) -> HttpResponse:
    message = _(
        "Too many accounts were created from your network in the last hour. Please try again later."
    )
    return too_many_requests(request, message, SIGNUP_WINDOW)


def lockout_minutes() -> int:
    return max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """django-axes' answer to a login while locked: the same page whether the account exists."""
    return render(
        request,
        "registration/locked_out.html",
        {"minutes": lockout_minutes()},
        status=getattr(settings, "AXES_HTTP_RESPONSE_CODE", 429),
    )


def locked_usernames(usernames) -> set[str]:
    """Which of these usernames cannot log in now, from at least one address."""
    # Counted as axes counts: failures per username and address, over all user agents.
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    return set(
        AccessAttempt.objects.filter(username__in=list(usernames), attempt_time__gte=since)
        .values("username", "ip_address")
        .annotate(failures=Sum("failures_since_start"))
        .filter(failures__gte=settings.AXES_FAILURE_LIMIT)
        .values_list("username", flat=True)
    )

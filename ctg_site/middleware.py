"""Refuse request data that no column can store, before any view or query trusts it; answer
a view that needed Redis while it was away with a request to try again."""

import logging
import re

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.html import format_html
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# Seconds a visitor is asked to wait before trying again: about a Redis restart.
RETRY_AFTER = 5

# NUL, which PostgreSQL refuses in text, and UTF-16 surrogates, which no UTF-8 text can hold
# (a lone one fails the database driver's encoding).
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def unstorable(text: str) -> bool:
    return UNSTORABLE.search(text) is not None


def _texts(request: HttpRequest):
    yield request.path_info
    for data in (request.GET, request.POST):
        for key, values in data.lists():
            yield key
            yield from values


class ForgetUnstorableCookiesMiddleware:
    """Drop a cookie holding NUL or a lone surrogate before the session reads it.

    The session key goes into a query; a forged one is no session, as a key of the wrong
    length already is. Placed before SessionMiddleware.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        for name, value in list(request.COOKIES.items()):
            if unstorable(value):
                del request.COOKIES[name]
        return self.get_response(request)


class RefuseUnstorableMiddleware:
    """A 400 with a message for a path, query or form holding NUL or a lone surrogate."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not any(unstorable(text) for text in _texts(request)):
            return self.get_response(request)
        message = _(
            "The request contains a character that cannot be stored: a NUL byte or a "
            "broken character. Remove it and try again."
        )
        if request.path_info.startswith("/api/"):
            # The read API's error shape: which query parameters are at fault.
            errors = {
                UNSTORABLE.sub("\ufffd", key): [message]
                for key, values in request.GET.lists()
                if unstorable(key) or any(unstorable(value) for value in values)
            }
            return JsonResponse({"detail": message, "errors": errors}, status=400)
        if request.headers.get("HX-Request") == "true":
            html = format_html('<div class="notice error" role="alert">{}</div>', message)
            return HttpResponse(html, status=400)
        return render(request, "400.html", {"message": message}, status=400)


class RedisAwayMiddleware:
    """A view that needed Redis (the cache, the channel layer, the broker) while it was away
    answers 503 asking to try again in a few seconds, in the shape the caller reads, not 500.

    Nothing a request does needs Redis to answer: counts fail open (accounts.limits) and
    post-commit work waits in the background (infra.background). This is the answer for
    whatever still does.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, RedisError | BrokerError):
            return None
        logger.warning("%s needed Redis, which is away: 503", request.path, exc_info=exception)
        message = _(
            "The site could not reach one of its services just now. "
            "Please try again in a few seconds."
        )
        response: HttpResponse
        if request.path_info.startswith("/api/"):
            response = JsonResponse({"detail": message}, status=503)
        elif request.headers.get("HX-Request") == "true":
            html = format_html('<div class="notice error" role="alert">{}</div>', message)
            response = HttpResponse(html, status=503)
        else:
            response = render(request, "503.html", {"message": message}, status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        return response

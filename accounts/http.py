"""Request types for views: what the middleware and login_required guarantee, said to mypy."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class MemberRequest(HtmxHttpRequest):
    """A request behind login_required: the user is signed in."""

    user: User

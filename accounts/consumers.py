"""The bases of every socket that shows a club's object: who may listen, and to which group.

Clubs are private, so only members of the object's club join; anyone else is closed before
accept, as for an object that does not exist. A projector screen joins through its object's
link instead. The pages only listen: commands travel over HTTP. Each subclass names its
model (or how its link finds it), the URL keyword, and its group (the app's `live` module is
the one place that spells the group name). A person's own socket, open on every page,
hears the notices meant for him alone.
"""

import logging
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.conf import settings
from django.db import models
from django.template.loader import render_to_string
from django.utils import translation

from accounts.access import is_member
from accounts.live import kept, person_group

logger = logging.getLogger(__name__)


def _join(consumer: WebsocketConsumer, group: str) -> None:
    consumer.groups.append(group)
    async_to_sync(consumer.channel_layer.group_add)(group, consumer.channel_name)
    consumer.accept()


class ClubObjectConsumer(WebsocketConsumer):
    model: type[models.Model]
    url_kwarg: str
    group_name: Callable[[int], str]

    def connect(self) -> None:
        user = self.scope["user"]
        self.object_id = int(self.scope["url_route"]["kwargs"][self.url_kwarg])
        club_id = (
            self.model._default_manager.filter(pk=self.object_id)
            .values_list("club_id", flat=True)
            .first()
        )
        if club_id is None or not is_member(user, club_id):
            self.close()
            return
        _join(self, type(self).group_name(self.object_id))

    def receive(self, text_data=None, bytes_data=None) -> None:
        pass

    def send_part(self, template: str, context: dict) -> None:
        """Send a part of the page, drawn in this socket's viewer's language."""
        with translation.override(language_of(self.scope)):
            html = render_to_string(template, context)
        self.send(text_data=html)


class ScreenConsumer(WebsocketConsumer):
    """A projector screen: what anyone in the room sees, for as long as its link is valid.

    The link's token is looked up again at every push: a reset link ends the screens that
    opened it with the `gone` partial. Each subclass names how a token finds its object, the
    object's group, and how the screen draws it; its group's handler calls `redraw`.
    """

    by_token: Callable[[str], models.Model | None]
    group_name: Callable[[int], str]
    gone: str  # the partial a screen shows once its link is reset

    def connect(self) -> None:
        self.token = self.scope["url_route"]["kwargs"]["token"]
        found = type(self).by_token(self.token)
        if found is None:
            self.close()
            return
        _join(self, type(self).group_name(found.pk))

    def receive(self, text_data=None, bytes_data=None) -> None:
        pass

    def redraw(self) -> None:
        found = type(self).by_token(self.token)
        with translation.override(language_of(self.scope)):
            html = render_to_string(self.gone) if found is None else self.draw(found)
        self.send(text_data=html)
        if found is None:
            self.close()

    def draw(self, found) -> str:
        """The screen's live part for `found`, swapped in out of band."""
        raise NotImplementedError


class PersonConsumer(WebsocketConsumer):
    """A signed-in person's socket, open on every page: notices meant for him alone
    (accounts.live). Anyone else is closed before accept; it only listens."""

    def connect(self) -> None:
        user = self.scope["user"]
        if not user.is_authenticated:
            self.close()
            return
        _join(self, person_group(user.pk))
        # A page opened after a notice was sent still shows it while it is kept.
        try:
            pending = kept(user.pk)
        except Exception:  # the cache (Redis) away: the pushes still come
            logger.warning("the notices kept for %s could not be read", user.pk, exc_info=True)
            pending = []
        for message in pending:
            self.person_notice(message)

    def receive(self, text_data=None, bytes_data=None) -> None:
        pass

    def person_notice(self, event) -> None:
        with translation.override(language_of(self.scope)):
            html = render_to_string(event["template"], event["context"] | {"tag": event["tag"]})
        self.send(text_data=html)


def language_of(scope) -> str:
    """The viewer's language: the switcher's cookie, the profile's choice, then the browser."""
    user = scope["user"]
    cookies = scope.get("cookies", {})
    if settings.LANGUAGE_COOKIE_NAME not in cookies and getattr(user, "preferred_language", None):
        return user.preferred_language
    return translation.get_language_from_request(_ScopeRequest(scope))  # type: ignore[arg-type]


class _ScopeRequest:
    """Enough of a request for Django's language negotiation (cookie, then Accept-Language)."""

    def __init__(self, scope):
        headers = dict(scope.get("headers", []))
        self.COOKIES = scope.get("cookies", {})
        self.META = {"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode()}
        self.path_info = scope.get("path", "/")

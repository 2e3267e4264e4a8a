"""The bases of every socket that shows a club's object: who may listen, and to which group.

Clubs are private, so only members of the object's club join; anyone else is closed before
accept, as for an object that does not exist. A projector screen joins through its object's
link instead. The pages only listen: commands travel over HTTP. Each subclass names its
model (or how its link finds it), the URL keyword, and its group (the app's `live` module is
the one place that spells the group name).
"""

from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.db import models
from django.template.loader import render_to_string

from accounts.access import is_member


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
        if found is None:
            self.send(text_data=render_to_string(self.gone))
            self.close()
            return
        self.send(text_data=self.draw(found))

    def draw(self, found) -> str:
        """The screen's live part for `found`, swapped in out of band."""
        raise NotImplementedError

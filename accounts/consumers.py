"""The base of every socket that shows a club's object: who may listen, and to which group.

Clubs are private, so only members of the object's club join; anyone else is closed before
accept, as for an object that does not exist. The pages only listen: commands travel over
HTTP. Each subclass names its model, the URL keyword of the id, and its group (the app's
`live` module is the one place that spells the group name).
"""

from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.db import models

from accounts.access import is_member


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
        group = type(self).group_name(self.object_id)
        self.groups.append(group)
        async_to_sync(self.channel_layer.group_add)(group, self.channel_name)
        self.accept()

    def receive(self, text_data=None, bytes_data=None) -> None:
        pass

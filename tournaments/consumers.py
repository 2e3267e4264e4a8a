"""Live tournament pages. Thin: authorise, join the tournament's group, render per viewer."""

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.template.loader import render_to_string

from accounts.models import Membership
from tournaments.live import tournament_group
from tournaments.models import Tournament


class TournamentConsumer(WebsocketConsumer):
    def connect(self):
        user = self.scope["user"]
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        club_id = Tournament.objects.filter(pk=self.tournament_id).values_list("club_id", flat=True)
        if not (
            user.is_authenticated
            and Membership.objects.filter(club_id__in=club_id, user_id=user.pk).exists()
        ):
            self.close()
            return
        group = tournament_group(self.tournament_id)
        self.groups.append(group)
        async_to_sync(self.channel_layer.group_add)(group, self.channel_name)
        self.accept()

    def receive(self, text_data=None, bytes_data=None):
        # The page only listens; commands travel over HTTP.
        pass

    def tournament_changed(self, event):
        from tournaments.views import live_context

        found = Tournament.objects.select_related("club").filter(pk=self.tournament_id)
        tournament = found.first()
        if tournament is None:
            return
        context = {**live_context(tournament, self.scope["user"]), "oob": True}
        self.send(text_data=render_to_string("tournaments/live.html#live", context))

"""Live league tables. Thin: authorise, join the league's group, render per viewer."""

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.template.loader import render_to_string

from accounts.models import Membership
from leagues.live import league_group
from leagues.models import League


class LeagueTableConsumer(WebsocketConsumer):
    def connect(self):
        user = self.scope["user"]
        self.league_id = int(self.scope["url_route"]["kwargs"]["league_id"])
        club_id = League.objects.filter(pk=self.league_id).values_list("club_id", flat=True)
        if not (
            user.is_authenticated
            and Membership.objects.filter(club_id__in=club_id, user_id=user.pk).exists()
        ):
            self.close()
            return
        self.group = league_group(self.league_id)
        self.groups.append(self.group)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()

    def receive(self, text_data=None, bytes_data=None):
        # The page only listens; commands travel over HTTP.
        pass

    def league_table(self, event):
        league = League.objects.filter(pk=self.league_id).first()
        if league is None:
            return
        user = self.scope["user"]
        html = render_to_string(
            "leagues/league.html#table",
            {"league": league, "rows": league.table, "viewer_key": f"u{user.pk}", "oob": True},
        )
        self.send(text_data=html)

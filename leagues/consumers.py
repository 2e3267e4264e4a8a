"""Live league tables: members of the league's club listen, each table rendered per viewer;
the projector screen listens through the league's link instead of a login."""

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.template.loader import render_to_string

from accounts.consumers import ClubObjectConsumer
from leagues.actions import by_projector_token
from leagues.live import league_group
from leagues.models import League


class LeagueTableConsumer(ClubObjectConsumer):
    model = League
    url_kwarg = "league_id"
    group_name = staticmethod(league_group)

    def league_table(self, event):
        league = League.objects.filter(pk=self.object_id).first()
        if league is None:
            return
        user = self.scope["user"]
        html = render_to_string(
            "leagues/league.html#table",
            {"league": league, "rows": league.table, "viewer_key": f"u{user.pk}", "oob": True},
        )
        self.send(text_data=html)


class LeagueScreenConsumer(WebsocketConsumer):
    """The projector screen: what anyone in the room sees, for as long as its link is valid."""

    def connect(self) -> None:
        self.token = self.scope["url_route"]["kwargs"]["token"]
        league = by_projector_token(self.token)
        if league is None:
            self.close()
            return
        group = league_group(league.pk)
        self.groups.append(group)
        async_to_sync(self.channel_layer.group_add)(group, self.channel_name)
        self.accept()

    def receive(self, text_data=None, bytes_data=None) -> None:
        pass

    def league_table(self, event):
        from leagues.views import screen_context

        # Checked at every push: a reset link ends the screens that opened it.
        league = by_projector_token(self.token)
        if league is None:
            self.send(text_data=render_to_string("leagues/screen.html#gone"))
            self.close()
            return
        context = screen_context(league) | {"oob": True}
        self.send(text_data=render_to_string("leagues/screen.html#live", context))

"""Live league tables: members of the league's club listen, each table rendered per viewer;
the projector screen listens through the league's link instead of a login."""

from django.template.loader import render_to_string

from accounts.consumers import ClubObjectConsumer, ScreenConsumer
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
        self.send_part(
            "leagues/league.html#table",
            {
                "league": league,
                "rows": league.table_with_ratings(),
                "viewer_key": f"u{user.pk}",
                "oob": True,
            },
        )


class LeagueScreenConsumer(ScreenConsumer):
    by_token = staticmethod(by_projector_token)
    group_name = staticmethod(league_group)
    gone = "leagues/screen.html#gone"

    def draw(self, found) -> str:
        from leagues.views import screen_context

        context = screen_context(found) | {"oob": True}
        return render_to_string("leagues/screen.html#live", context)

    def league_table(self, event):
        self.redraw()

"""Live league tables: members of the league's club listen, each table rendered per viewer."""

from django.template.loader import render_to_string

from accounts.consumers import ClubObjectConsumer
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
            {
                "league": league,
                "rows": league.table_with_ratings(),
                "viewer_key": f"u{user.pk}",
                "oob": True,
            },
        )
        self.send(text_data=html)

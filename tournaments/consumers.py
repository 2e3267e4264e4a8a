"""Live tournament pages: members of the tournament's club listen, rendered per viewer."""

from django.template.loader import render_to_string

from accounts.consumers import ClubObjectConsumer
from tournaments.live import tournament_group
from tournaments.models import Tournament


class TournamentConsumer(ClubObjectConsumer):
    model = Tournament
    url_kwarg = "tournament_id"
    group_name = staticmethod(tournament_group)

    def tournament_changed(self, event):
        from tournaments.views import live_context

        found = Tournament.objects.select_related("club").filter(pk=self.object_id)
        tournament = found.first()
        if tournament is None:
            return
        context = {**live_context(tournament, self.scope["user"]), "oob": True}
        self.send(text_data=render_to_string("tournaments/live.html#live", context))

"""Live tournament pages: members of the tournament's club listen, rendered per viewer; the
projector screen listens through the event's link instead of a login."""

from urllib.parse import parse_qs

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string

from accounts import presence
from accounts.consumers import ClubObjectConsumer, ScreenConsumer
from tournaments.actions import by_projector_token
from tournaments.live import tournament_group
from tournaments.models import Tournament


class TournamentConsumer(ClubObjectConsumer):
    model = Tournament
    url_kwarg = "tournament_id"
    group_name = staticmethod(tournament_group)

    # The event knows who waits on its page, as a player's open page tells it: the page
    # marks him present when it connects and at each heartbeat it sends. A page's socket
    # opens after the page was drawn, often just after it reloaded for a change: what changed
    # in between is sent at once (an event's end is pushed only once).
    def connect(self) -> None:
        super().connect()
        if self.groups:
            self._mark()
            self.tournament_changed(None)

    def receive(self, text_data=None, bytes_data=None) -> None:
        self._mark()

    def disconnect(self, code) -> None:
        user = self.scope["user"]
        if getattr(self, "object_id", None) and user.is_authenticated:
            presence.forget(tournament_group(self.object_id), user.pk)

    def _mark(self) -> None:
        user = self.scope["user"]
        if self.groups and user.is_authenticated:
            presence.mark(tournament_group(self.object_id), user.pk)

    def tournament_changed(self, event):
        from tournaments.views import live_context

        found = Tournament.objects.select_related("club").filter(pk=self.object_id)
        tournament = found.first()
        if tournament is None:
            return
        # The event's page shows each table's links; its projector page does not.
        links = parse_qs(self.scope["query_string"].decode()).get("links") == ["1"]
        context = {**live_context(tournament, self.scope["user"]), "oob": True}
        context["organiser_links"] = links
        self.send_part("tournaments/live.html#live", context)


class ProjectorConsumer(ScreenConsumer):
    by_token = staticmethod(by_projector_token)
    group_name = staticmethod(tournament_group)
    gone = "tournaments/screen.html#gone"

    def draw(self, found) -> str:
        from tournaments.views import live_context

        context = {**live_context(found, AnonymousUser()), "oob": True}
        return render_to_string("tournaments/live.html#live", context)

    def tournament_changed(self, event):
        self.redraw()

from django.urls import path

from leagues import consumers, tournament_consumers

websocket_urlpatterns = [
    path("ws/leagues/<int:league_id>/", consumers.LeagueTableConsumer.as_asgi()),
    path(
        "ws/tournaments/<int:tournament_id>/",
        tournament_consumers.TournamentConsumer.as_asgi(),
    ),
]

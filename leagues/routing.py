from django.urls import path

from leagues import consumers

websocket_urlpatterns = [
    path("ws/leagues/<int:league_id>/", consumers.LeagueTableConsumer.as_asgi()),
    path("ws/projector/league/<str:token>/", consumers.LeagueScreenConsumer.as_asgi()),
]

from django.urls import path

from tournaments import consumers

websocket_urlpatterns = [
    path("ws/tournaments/<int:tournament_id>/", consumers.TournamentConsumer.as_asgi()),
    path("ws/projector/tournament/<str:token>/", consumers.ProjectorConsumer.as_asgi()),
]

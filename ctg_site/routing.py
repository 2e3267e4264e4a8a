"""Websocket routes of every app, gathered in one list for asgi.py."""

from accounts.routing import websocket_urlpatterns as accounts_routes
from games.routing import websocket_urlpatterns as games_routes
from leagues.routing import websocket_urlpatterns as leagues_routes
from tournaments.routing import websocket_urlpatterns as tournaments_routes

websocket_urlpatterns: list = [
    *accounts_routes,
    *games_routes,
    *leagues_routes,
    *tournaments_routes,
]

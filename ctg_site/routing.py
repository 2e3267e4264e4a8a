"""Websocket routes of every app, gathered in one list for asgi.py."""

from games.routing import websocket_urlpatterns as games_routes

websocket_urlpatterns: list = [*games_routes]

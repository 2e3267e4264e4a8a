"""Websocket routes of every app, gathered in one list for asgi.py."""

websocket_urlpatterns: list = []

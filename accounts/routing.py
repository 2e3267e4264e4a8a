from django.urls import path

from accounts import consumers

websocket_urlpatterns = [
    path("ws/me/", consumers.PersonConsumer.as_asgi()),
]

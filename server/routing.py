"""Websocket routes: a game's socket and the echo socket (the benchmark's baseline)."""
from django.urls import path

from games.consumers import EchoConsumer, GameConsumer

websocket_urlpatterns: list = [
    path("ws/game/<str:game_id>/", GameConsumer.as_asgi()),
    path("ws/echo/", EchoConsumer.as_asgi()),
]

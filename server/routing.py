"""Websocket routes: a game's socket and the echo socket (the benchmark's baseline)."""

from typing import Any

from django.urls import path

from games.consumers import GameConsumer
from games.socket_plumbing import EchoConsumer

# Channels routes ASGI applications with Django's path(); django-stubs types path() for views only, and
# types-channels' URLRouter wants its own private pattern type: the list is left untyped.
websocket_urlpatterns: list[Any] = [
    path("ws/game/<str:game_id>/", GameConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/echo/", EchoConsumer.as_asgi()),  # type: ignore[arg-type]
]

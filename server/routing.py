"""Websocket routes: a game's socket and the echo socket (the benchmark's baseline)."""

from django.urls import path

from games.consumers import EchoConsumer, GameConsumer

# Channels routes ASGI applications with Django's path(); django-stubs types path() for views only.
websocket_urlpatterns: list = [
    path("ws/game/<str:game_id>/", GameConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/echo/", EchoConsumer.as_asgi()),  # type: ignore[arg-type]
]

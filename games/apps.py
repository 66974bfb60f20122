"""The games app: the rules engine, the bots, the rooms and the websocket consumer."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

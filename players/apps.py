"""The players app: who is at the site — the anonymous player, their session, network and
personal link — and the rate limits counted against them.

The base app: games and leaderboards build on it, and it imports neither (.importlinter).
"""

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    default_auto_field = "django.db.models.BigAutoField"

"""The leaderboards app: daily deals, players, ranked entries and moderation."""
from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    name = "leaderboards"
    default_auto_field = "django.db.models.BigAutoField"

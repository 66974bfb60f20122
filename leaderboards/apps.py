"""The leaderboards app: daily deals, players, ranked entries and moderation.

It builds on games and games never imports it: `ready` adds the daily mode to the room service,
listens for the end of a game (games.signals.game_finished) to rank a finished daily, notes who
started each daily (games.signals.game_created, for the scouting flag), and keeps
the players with a ranked entry when purge_games clears out idle players (games.keepers).
"""

from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    name = "leaderboards"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here: models and the room service are usable only once the apps are loaded.
        from games.keepers import register_player_keeper
        from games.models import Game
        from games.rooms.creation import register_mode
        from games.signals import game_created, game_finished
        from leaderboards.daily import daily_game, ranked_players, record_finished_daily
        from leaderboards.flags import record_daily_start

        register_mode(Game.DAILY, daily_game)
        game_finished.connect(record_finished_daily, dispatch_uid="leaderboards.record_finished_daily")
        register_player_keeper("leaderboards", ranked_players)
        game_created.connect(record_daily_start, dispatch_uid="leaderboards.record_daily_start")

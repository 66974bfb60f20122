"""purge_games: delete abandoned unfinished games, lobbies nobody started within a day, and
players who never played (games.rooms.purge decides and deletes; this parses and prints).

Meant for a daily cron job; --dry-run only counts.
"""

import datetime

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from games.rooms.purge import purge


class Command(BaseCommand):
    help = (
        "Delete unfinished games (lobby or playing) not changed for --game-days days (default 30) "
        "with their moves, and anonymous players created more than --player-days days ago "
        "(default 30) who have no game and no leaderboard entry. Finished games are kept. "
        "Closed-socket presence rows older than a day go too, and friends lobbies nobody started "
        "within --lobby-hours hours (default 24)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game-days",
            type=int,
            default=30,
            help="age in days since the last change of an unfinished game (default 30)",
        )
        parser.add_argument(
            "--player-days", type=int, default=30, help="age in days of a player with no game to delete (default 30)"
        )
        parser.add_argument(
            "--lobby-hours",
            type=float,
            default=24,
            help="age in hours since the last change of a friends lobby nobody started (default 24)",
        )
        parser.add_argument("--dry-run", action="store_true", help="count only, delete nothing")

    def handle(
        self, *args: object, game_days: int, player_days: int, lobby_hours: float, dry_run: bool, **options: object
    ) -> None:
        purged = purge(
            timezone.now(),
            game_age=datetime.timedelta(days=game_days),
            lobby_age=datetime.timedelta(hours=lobby_hours),
            player_age=datetime.timedelta(days=player_days),
            dry_run=dry_run,
        )
        verb = "would delete" if dry_run else "deleted"
        self.stdout.write(
            f"{verb} {purged.games} abandoned games and {purged.players} players without games; "
            f"{purged.lobbies} lobbies nobody started within {lobby_hours:g} hours"
        )

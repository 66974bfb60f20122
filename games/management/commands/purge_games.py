"""purge_games: delete abandoned unfinished games, lobbies nobody started within a day, and
players who never played.

Finished games are kept (they back the leaderboards and replays). A player with a seat in a game
is kept, and so is one another app still needs: the apps built on games register in the
games.keepers hook (leaderboards keeps a player with a ranked entry). Meant for a daily cron
job; --dry-run only counts.
"""

import datetime

from django.core.management.base import BaseCommand
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.keepers import without_kept
from games.models import Game, Presence
from players.models import Player

CLOSED_SOCKET_ROWS_AGE = datetime.timedelta(days=1)


class Command(BaseCommand):
    help = (
        "Delete unfinished games (lobby or playing) not changed for --game-days days (default 30) "
        "with their moves, and anonymous players created more than --player-days days ago "
        "(default 30) who have no game and no leaderboard entry. Finished games are kept. "
        "Closed-socket presence rows older than a day go too, and friends lobbies nobody started "
        "within --lobby-hours hours (default 24)."
    )

    def add_arguments(self, parser):
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

    def handle(self, *args, game_days, player_days, lobby_hours, dry_run, **options):
        now = timezone.now()
        lobbies = Game.objects.filter(status=Game.LOBBY, updated__lt=now - datetime.timedelta(hours=lobby_hours))
        games = Game.objects.exclude(status=Game.FINISHED).filter(updated__lt=now - datetime.timedelta(days=game_days))
        games = games.exclude(pk__in=lobbies.values("pk"))
        presence = Presence.objects.filter(connected=False, last_seen__lt=now - CLOSED_SOCKET_ROWS_AGE)
        with transaction.atomic():
            game_count, lobby_count = games.count(), lobbies.count()
            if not dry_run:
                lobbies.delete()
                games.delete()
                presence.delete()
            gone = (
                Game.objects.filter(Q(pk__in=games.values("pk")) | Q(pk__in=lobbies.values("pk"))) if dry_run else None
            )
            players = players_without_games(now - datetime.timedelta(days=player_days), exclude_games=gone)
            player_count = players.count()
            if not dry_run:
                players.delete()
        verb = "would delete" if dry_run else "deleted"
        self.stdout.write(
            f"{verb} {game_count} abandoned games and {player_count} players without games; "
            f"{lobby_count} lobbies nobody started within {lobby_hours:g} hours"
        )


def players_without_games(
    created_before: datetime.datetime, exclude_games: QuerySet[Game] | None = None
) -> QuerySet[Player]:
    """Players made before `created_before` with no seat in any game and none of the apps
    registered in games.keepers needs."""
    remaining = Game.objects.all()
    if exclude_games:  # a dry run counts as if the abandoned games were gone already
        remaining = remaining.exclude(pk__in=exclude_games.values("pk"))
    seated: set[str] = set()
    for seats in remaining.values_list("seats", flat=True).iterator():
        seated.update(spec["player"] for spec in (seats or {}).values() if spec and "player" in spec)
    # A host always sits in their game, so the seats cover hosted games too.
    candidates = Player.objects.filter(created_at__lt=created_before)
    keep = [player_id for player_id in candidates.values_list("id", flat=True) if str(player_id) in seated]
    return without_kept(candidates.exclude(pk__in=keep))

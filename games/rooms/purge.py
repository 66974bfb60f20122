"""Purging what nobody plays any more: abandoned unfinished games, lobbies nobody started, old
closed-socket presence rows, and players who never played (the command purge_games calls it).

Finished games are kept (they back the leaderboards and replays). A player with a seat in a game
is kept, and so is one another app still needs: the apps built on games register in the
games.keepers hook (leaderboards keeps a player with a ranked entry).

May call games.models and games.keepers; it calls no other room module.
"""

import datetime
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q, QuerySet

from games.keepers import without_kept
from games.models import Game, Presence
from players.models import Player

CLOSED_SOCKET_ROWS_AGE = datetime.timedelta(days=1)


@dataclass(frozen=True)
class Purged:
    games: int
    lobbies: int
    players: int


def purge(
    now: datetime.datetime,
    game_age: datetime.timedelta,
    lobby_age: datetime.timedelta,
    player_age: datetime.timedelta,
    dry_run: bool = False,
) -> Purged:
    """Delete (or with `dry_run` only count) the unfinished games not changed for `game_age` with
    their moves, the lobbies not changed for `lobby_age`, and the players made before `player_age`
    ago who have no seat and whom no app keeps."""
    lobbies = Game.objects.filter(status=Game.LOBBY, updated__lt=now - lobby_age)
    games = Game.objects.exclude(status=Game.FINISHED).filter(updated__lt=now - game_age)
    games = games.exclude(pk__in=lobbies.values("pk"))
    presence = Presence.objects.filter(connected=False, last_seen__lt=now - CLOSED_SOCKET_ROWS_AGE)
    with transaction.atomic():
        game_count, lobby_count = games.count(), lobbies.count()
        if not dry_run:
            lobbies.delete()
            games.delete()
            presence.delete()
        gone = Game.objects.filter(Q(pk__in=games.values("pk")) | Q(pk__in=lobbies.values("pk"))) if dry_run else None
        players = players_without_games(now - player_age, exclude_games=gone)
        player_count = players.count()
        if not dry_run:
            players.delete()
    return Purged(games=game_count, lobbies=lobby_count, players=player_count)


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

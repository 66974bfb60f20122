"""The games a player sits in, as GET /api/games and the home page list them: the unfinished ones
(lobbies and games under way) newest first, then a short history of finished ones, newest first.

Each entry is read from the stored row alone (the position's deal and deal scores): no engine
game is rebuilt, and the whole list is two queries however many games it holds.

May call the engine's scoring, games.models and games.rooms.seat_views.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

from django.conf import settings
from django.db.models import Q, QuerySet
from django.db.models.fields.json import KeyTransform

from games.engine.scoring import totals, winner
from games.engine.seats import TEAM_OF
from games.models import SEATS, Game, PlayerId
from games.rooms.seat_views import seat_labels
from players.models import Player

if TYPE_CHECKING:  # django_stubs_ext is a development tool, not installed with the server
    from django_stubs_ext import WithAnnotations

GameT = TypeVar("GameT", bound=Game)

# Only what an entry needs: of the position (tens of KB late in a game) just its deal and its scores.
ENTRY_FIELDS = (
    "id",
    "mode",
    "status",
    "level",
    "rules",
    "ranked",
    "daily_date",
    "invite_code",
    "seats",
    "host_id",
    "updated",
)


class PositionSummary(TypedDict):
    """What games_of reads of each game's position."""

    deal_number: int | None  # None in a lobby (no position yet)
    deal_scores: list[Any] | None


def games_of(player_id: PlayerId) -> QuerySet[WithAnnotations[Game, PositionSummary]]:
    """Every game with the player in one of its seats (a seat holds {"player": "<uuid>"}).

    A solo or daily game's one player is its host, found through the host's index; only friends
    games, where a player may have joined someone else's table, have their seats read (through
    the mode's index). Read every game's seats instead and the list costs a scan of the whole table.
    """
    wanted = str(player_id)
    seated = Q()
    for seat in SEATS:
        seated |= Q(**{f"seats__{seat}__player": wanted})
    return (
        Game.objects.filter(Q(host_id=player_id) | (Q(mode=Game.FRIENDS) & seated))
        .only(*ENTRY_FIELDS)
        .annotate(deal_number=KeyTransform("deal", "position"), deal_scores=KeyTransform("scores", "position"))
    )


def player_games(player: Player | None) -> list[dict[str, Any]]:
    """The player's games, unfinished first, newest first; at most FOOT_MY_GAMES_UNFINISHED of
    them and FOOT_MY_GAMES_FINISHED finished ones. No player (a new browser): none."""
    if player is None:
        return []
    mine = games_of(player.id).order_by("-updated", "-created")
    unfinished = newest_lesson_only(list(mine.exclude(status=Game.FINISHED)[: settings.FOOT_MY_GAMES_UNFINISHED]))
    finished = mine.filter(status=Game.FINISHED)[: settings.FOOT_MY_GAMES_FINISHED]
    return [entry(game, player) for game in [*unfinished, *finished]]


def newest_lesson_only(games: list[GameT]) -> list[GameT]:
    """The unfinished games with one lesson at most, the newest (`games` come newest first): a
    lesson started again, or its next part, takes the place of the one before, so Home does not
    list two rows that both read "Learn to play"."""
    lessons = [game for game in games if game.mode == Game.LESSON]
    return [game for game in games if game.mode != Game.LESSON or game is lessons[0]]


def entry(game: WithAnnotations[Game, PositionSummary], player: Player) -> dict[str, Any]:
    """One game as the list shows it to this player (who sits in it)."""
    seat = game.seat_of(player.id)
    deal_scores = game.deal_scores or []
    return {
        "id": str(game.id),
        "url": f"/g/{game.id}/",
        "mode": game.mode,
        "status": game.status,
        "level": game.level,
        "ranked": game.ranked,
        "daily_date": game.daily_date.isoformat() if game.daily_date else None,
        "code": game.invite_code if game.mode == Game.FRIENDS else None,
        "host": game.host_id == player.id,
        "seat": seat,
        "team": TEAM_OF.get(seat or ""),
        "seats": seat_labels(game, seat),
        "deal": game.deal_number if game.status != Game.LOBBY else None,
        "deals": game.engine_rules().deals,
        "scores": totals(deal_scores),
        "winner": winner(deal_scores) if game.status == Game.FINISHED and deal_scores else None,
        "updated": game.updated.isoformat(),
    }

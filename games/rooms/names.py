"""What the table calls each person at it: the nickname of every human seat's player, or None when
they chose none (the page then says "Friend"), for the state and presence messages; and the open
friends tables a player sits at, which must hear at once when that player's nickname changes.

May call games.models only. The players' rows belong to the app built on games; the game's `host`
field names that model, so the room reads nicknames without importing the app.
"""

import uuid
from typing import TYPE_CHECKING, cast

from django.db.models import Q

from games.models import SEATS, Game, PlayerId

if TYPE_CHECKING:  # the model is read from Game's host field at run time (see above)
    from players.models import Player


def player_model() -> "type[Player]":
    return cast("type[Player]", Game._meta.get_field("host").related_model)


def seat_names(game: Game) -> dict[str, str | None]:
    """{seat: nickname or None} for the human seats (a banned player's nickname is not shown)."""
    wanted = {seat: spec["player"] for seat, spec in game.seats.items() if spec and "player" in spec}
    if not wanted:
        return {}
    rows = player_model().objects.filter(pk__in=wanted.values(), banned=False).values_list("pk", "nickname")
    nicknames = {str(pk): nickname or None for pk, nickname in rows}
    return {seat: nicknames.get(player_id) for seat, player_id in wanted.items()}


def open_tables_of(player_id: PlayerId) -> list[uuid.UUID]:
    """The ids of the friends games, in their lobby or under way, where `player_id` has a seat."""
    seated = Q()
    for seat in SEATS:
        seated |= Q(**{f"seats__{seat}__player": str(player_id)})
    games = Game.objects.filter(seated, mode=Game.FRIENDS, status__in=[Game.LOBBY, Game.PLAYING])
    return list(games.values_list("pk", flat=True))

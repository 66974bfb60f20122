"""Play again: at the end of a friends game a seated player opens a new lobby with the same seats.

The first "Play again" makes the lobby (its host is whoever pressed it, in their old seat) and
offers it to every seated socket of the finished game (`play_again`, games.rooms.broadcast); each
player who accepts joins it and gets their old seat back (games.rooms.creation.seat_kept). A
later "Play again" by another player of the game joins that same lobby: one game has at most one.
Seats of players who do not come stay free for anyone with the invite; the host starts when ready.

May call games.models and of the room service errors, creation and broadcast.
"""

from typing import Any

from django.db import transaction

from games.models import Game, GameId
from games.rooms.broadcast import broadcast_play_again_sync
from games.rooms.creation import join_game, save_with_invite_code
from games.rooms.errors import RoomError
from players.models import Player


def play_again(game_id: GameId, player: Player) -> Game:
    """The lobby that follows the finished friends game `game_id`, with `player` seated in it."""
    with transaction.atomic():
        finished = Game.objects.select_for_update().filter(pk=game_id).first()
        if finished is None:
            raise RoomError("not_found", status=404)
        seat = refuse_play_again(finished, player)
        lobby = Game.objects.filter(rematch_of=finished).first()
        if lobby is None:
            lobby = Game(
                mode=Game.FRIENDS,
                level=finished.level,
                rules=finished.rules,  # Play again keeps the table's house rules
                seats={seat: {"player": str(player.id)}},
                host=player,
                rematch_of=finished,
            )
            save_with_invite_code(lobby)
            made = True
        else:
            made = False
    if made:
        broadcast_play_again_sync(finished.id, offer(lobby, seat))
        return lobby
    joined, _seat = join_game(lobby.id, player)  # its own refusals: the lobby may have started or filled up
    return joined


def refuse_play_again(game: Game, player: Player | None) -> str:
    """The player's seat in the finished friends game, or why they cannot play it again."""
    if game.mode != Game.FRIENDS:
        raise RoomError("not_friends", status=409)
    seat = game.seat_of(player.id) if player is not None else None
    if seat is None:
        raise RoomError("not_seated", status=403)
    if game.status != Game.FINISHED:
        raise RoomError("not_finished", status=409)
    return seat


def offer(lobby: Game, seat: str) -> dict[str, Any]:
    """What a seated player of the finished game is offered: the lobby `seat` opened (docs/PROTOCOL.md)."""
    return {"game": str(lobby.id), "url": f"/g/{lobby.id}/", "code": lobby.invite_code, "by": seat}


def standing_offer(game: Game, seat: str | None) -> dict[str, Any] | None:
    """For the `state` of a finished friends game: the lobby Play again opened after it, if any, to a
    seated player (a page that opens after the offer was sent still gets it)."""
    if seat is None or game.mode != Game.FRIENDS or game.status != Game.FINISHED:
        return None
    lobby = Game.objects.filter(rematch_of=game).only("id", "invite_code", "host_id").first()
    if lobby is None:
        return None
    return offer(lobby, game.seat_of(lobby.host_id) or seat)

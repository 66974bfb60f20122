"""The computer standing in for an absent friend: the seats it has moved for in the current turn
(games.models.StandIn). Once it moved for a seat it finishes that turn, even if the player came
back meanwhile; the player takes the seat back at their next turn.

May call games.models only.
"""

from games.models import GameId, StandIn


def has_moved_for(game_id: GameId, seat: str) -> bool:
    return StandIn.objects.filter(game_id=game_id, seat=seat).exists()


def after_stand_in_move(game_id: GameId, seat: str, turn_goes_on: bool) -> bool:
    """Record the computer's move for `seat`: kept while the seat's turn goes on, gone when it
    ended. Answers whether the record changed (the sockets are then told)."""
    if turn_goes_on:
        _row, created = StandIn.objects.get_or_create(game_id=game_id, seat=seat)
        return created
    return forget(game_id, seat)


def forget(game_id: GameId, seat: str) -> bool:
    deleted, _ = StandIn.objects.filter(game_id=game_id, seat=seat).delete()
    return bool(deleted)

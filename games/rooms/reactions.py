"""Reactions, not chat: a seated player sends one of a few fixed reactions ("Nice!", "Oops", …) by
its code, and every socket of the game shows it at that seat for a few seconds. No free text ever
crosses: the client says the code's words in its own language, so there is nothing to moderate.

One reaction per seat every FOOT_REACTION_SECONDS, counted in players.limits (Redis when set, so a
second tab on another process is held to the same pace); a refused reaction sends nothing.

May call players.limits and games.rooms.errors and broadcast; it changes nothing stored.
"""

from asgiref.sync import sync_to_async
from django.conf import settings

from games.models import GameId
from games.rooms.broadcast import broadcast_reaction
from games.rooms.errors import RoomError
from players import limits

# The codes a client may send, in the order the page offers them (their words: static/foot/reactions.js).
REACTIONS = ("nice", "oops", "well_played", "thanks_partner", "good_game")


def check_reaction(code: object) -> str:
    """The code if it is one of REACTIONS; anything else (free text, a number, a list) is refused."""
    if not isinstance(code, str) or code not in REACTIONS:
        raise RoomError("bad_reaction")
    return code


def seconds_until_allowed(game_id: GameId, seat: str) -> float:
    """0 and the seat's pause starts now, or the seconds left of its pause (sync: Redis or the cache)."""
    return limits.cooldown(f"reaction:{game_id}:{seat}", float(settings.FOOT_REACTION_SECONDS))


async def react(game_id: GameId, seat: str, code: object) -> None:
    """Show `code` at `seat` on every socket of the game, unless the seat reacted too recently."""
    code = check_reaction(code)
    left = await sync_to_async(seconds_until_allowed, thread_sensitive=False)(game_id, seat)
    if left > 0:
        raise RoomError("reaction_too_soon", status=429, params={"seconds": max(1, round(left))})
    await broadcast_reaction(game_id, seat, code)

"""Sending to a game's sockets through the channel layer (the group `game.<id>`): a move's
update (each consumer forwards its own seat's part), a "fetch a fresh state" refresh after a
lobby change or a move that unranked a daily past its deadline, who is present, a seat's
reaction, the new lobby that Play again opened, and a new nickname to the tables its player sits at.

May call games.rooms.presence, names and database_threads; it changes nothing stored.
"""

import logging
from typing import Any, Protocol

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer
from django.core.exceptions import ImproperlyConfigured

from games.models import GameId, PlayerId
from games.rooms.database_threads import database_call
from games.rooms.names import open_tables_of
from games.rooms.presence import presence_message

log = logging.getLogger(__name__)


def group_name(game_id: GameId) -> str:
    return f"game.{game_id}"


def channel_layer() -> BaseChannelLayer:
    """The channel layer of CHANNEL_LAYERS (server/settings.py always configures one)."""
    layer = get_channel_layer()
    if layer is None:
        raise ImproperlyConfigured("CHANNEL_LAYERS has no default layer: game sockets cannot be told anything")
    return layer


class CommittedMove(Protocol):
    """What a move's broadcast reads of games.rooms.moves.MoveResult (a tier above this one)."""

    game_id: str
    lapsed: bool

    def message(self, origin: str | None, ref: object) -> dict[str, Any]: ...


async def broadcast(result: CommittedMove, origin: str | None, ref: object) -> None:
    """Send a committed move (a games.rooms.moves.MoveResult) to every socket of its game."""
    await channel_layer().group_send(group_name(result.game_id), result.message(origin, ref))
    if result.lapsed:  # the game no longer counts: every socket gets a state that says so
        await broadcast_refresh(result.game_id)


async def broadcast_refresh(game_id: GameId) -> None:
    await channel_layer().group_send(group_name(game_id), {"type": "room.refresh"})


def broadcast_refresh_sync(game_id: GameId) -> None:
    """From sync code (HTTP views): tell every open socket of the game to fetch a fresh state."""
    try:
        async_to_sync(broadcast_refresh)(game_id)
    except Exception:  # the lobby change is stored; sockets also refresh on their heartbeat
        log.exception("could not broadcast a refresh of game %s", game_id)


def refresh_tables_of(player_id: PlayerId) -> None:
    """A player chose a nickname: each open friends table they sit at fetches a fresh state, so the
    others see the name at once (the state's `names`)."""
    for game_id in open_tables_of(player_id):
        broadcast_refresh_sync(game_id)


async def broadcast_presence(game_id: GameId, unless: dict[str, Any] | None = None) -> None:
    """Send every socket of the game who is there (not when it equals `unless`, already known)."""
    message = await database_call(presence_message)(game_id)
    if message is None or message["seats"] == unless:
        return
    await send_presence(game_id, message)


async def send_presence(game_id: GameId, message: dict[str, Any] | None) -> None:
    """Send every socket of the game the presence message already read (None: the game is gone)."""
    if message is None:
        return
    try:
        await channel_layer().group_send(group_name(game_id), message)
    except Exception:  # the layer is down (Redis restarting): presence is sent again on the next change
        log.warning("could not send the presence of game %s", game_id, exc_info=True)


async def broadcast_reaction(game_id: GameId, seat: str, code: str) -> None:
    """A seat's reaction (a code of games.rooms.reactions.REACTIONS) to every socket of the game."""
    await channel_layer().group_send(group_name(game_id), {"type": "room.reaction", "seat": seat, "reaction": code})


def broadcast_play_again_sync(game_id: GameId, offer: dict[str, Any]) -> None:
    """From sync code: offer the finished game's sockets the lobby Play again opened (games.rooms.rematch)."""
    try:
        async_to_sync(channel_layer().group_send)(group_name(game_id), {"type": "room.again", "offer": offer})
    except Exception:  # the lobby is made; a page that reloads finds it in its state (`play_again`)
        log.exception("could not offer the new lobby of game %s", game_id)

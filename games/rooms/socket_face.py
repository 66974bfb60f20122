"""The room service's face to a websocket: one async call per thing a socket does (open, state,
act, check, hint, look back, leave, …; its heartbeat is games.rooms.heartbeats', one for all the
sockets of a process). Every decision is here or below: who the socket is, whether it may watch,
which seat it holds, what its `state` holds; each call makes its own hops to the database
threads, so the consumer (games/consumers.py) keeps only the envelope, the limits and the delivery.

May call every other room module (the top of the rooms' order, docs/ROOMS.md).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from channels.db import database_sync_to_async
from django.contrib.sessions.backends.base import SessionBase

from games import protocol
from games.engine import normalise_action
from games.engine.records import Action
from games.messages import render_error
from games.models import Game
from games.recent_events import recent_events
from games.rooms import away, creation, lookback, moves, presence, reactions, rematch, turns
from games.rooms.broadcast import broadcast_presence, send_presence
from games.rooms.database_threads import database_call, with_db_retries
from games.rooms.errors import RoomError
from games.rooms.presence import presence_of
from games.rooms.recap import recap_for
from games.rooms.seat_views import state_message, watchable
from games.rooms.stored import load
from players.identity import player_for_session


@dataclass
class Opening:
    """Who opens a socket on a game: `refusal` is the error code to close it with (None: let in)."""

    refusal: str | None
    player_id: str | None = None
    seat: str | None = None
    friends: bool = False  # only in a friends game can a seat's presence change for someone else


def identify(game_id: str, session: SessionBase | None) -> tuple[Game | None, str | None, bool]:
    """(game, player id, banned) from the URL and the session; runs in a database thread."""
    game = load(game_id)
    player = player_for_session(session) if session is not None else None
    if game is not None and game.status == Game.FINISHED:
        moves.announce_finished(game)  # in case the process died between the last move and its entry
    return game, (str(player.id) if player else None), bool(player and player.banned)


async def open_socket(game_id: str, session: SessionBase | None) -> Opening:
    game, player_id, banned = await database_call(identify)(game_id, session)
    if game is None:
        return Opening("not_found")
    if banned:
        return Opening("banned", player_id)
    seat = game.seat_of(player_id)
    if seat is None and not watchable(game):
        return Opening("watch_daily_later", player_id)
    return Opening(None, player_id, seat, game.mode == Game.FRIENDS)


@dataclass
class Arrival:
    """A socket at the table, from one database hop: its first `state` (None: the game is gone), the
    seat it holds, whether that seat is open elsewhere too, since when the seat was away (friends
    games: for the recap) and the room's presence to send once the state is out."""

    state: protocol.StateMessage | None
    seat: str | None
    second_tab: bool = False
    away_since: datetime.datetime | None = None
    presence: dict[str, Any] | None = None
    game: Game | None = None


async def join(game_id: str, player_id: str | None, seat: str | None, channel_name: str, friends: bool) -> Arrival:
    """The socket is at the table: its presence row, its first state (with the recap of a friends
    seat back after an absence) and the room's presence, from one hop. After a restart every table
    of the process opens at once, and each hop queues behind all of theirs (issue 26)."""
    arrival = await with_db_retries(at_table, game_id, player_id, seat, channel_name)
    if arrival.game is not None and arrival.state is not None and friends and arrival.away_since is not None:
        # Replays the move log: in a database thread, never on the event loop.
        recap = await database_call(recap_for)(arrival.game, arrival.seat, arrival.away_since)
        if recap is not None:
            arrival.state["recap"] = recap
    return arrival


def at_table(game_id: str, player_id: str | None, seat: str | None, channel_name: str) -> Arrival:
    """One database hop: the game read once for the seat the player now holds (taken or changed
    since the socket opened), its presence row, state and presence message."""
    game = load(game_id)
    if game is None:
        return Arrival(None, seat)
    seat = game.seat_of(player_id)
    second_tab, absent_since = presence.arrive(game_id, seat, channel_name)
    state = full_state(game, seat)
    return Arrival(state, seat, second_tab, absent_since, presence_of(game, state["names"]), game)


async def arrived(game_id: str, message: dict[str, Any] | None) -> None:
    """After the new socket's first state: the room hears of it, and moves due may go on."""
    await send_presence(game_id, message)
    turns.advance_soon(game_id)


async def seat_state(
    game_id: str, player_id: str | None, seat: str | None, channel_name: str
) -> tuple[protocol.StateMessage | None, str | None]:
    """(the whole `state` for the socket, the seat it now holds); None when the game is gone.
    A seat taken or changed in the lobby since the last state moves the socket's presence."""
    state, game, now_seat = await with_db_retries(state_of, game_id, player_id, seat, channel_name)
    if state is None or game is None:
        return None, seat
    if now_seat != seat:
        await broadcast_presence(game_id)
    return state, now_seat


def state_of(
    game_id: str, player_id: str | None, seat: str | None, channel_name: str
) -> tuple[protocol.StateMessage | None, Game | None, str | None]:
    """One database hop: (the state, the game, the seat the player now holds); the presence row
    follows a seat taken or changed since the socket's last state."""
    game = load(game_id)
    if game is None:
        return None, None, seat
    now_seat = game.seat_of(player_id)
    if now_seat != seat:
        presence.touch_presence(game_id, now_seat, channel_name)
    return full_state(game, now_seat), game, now_seat


def full_state(game: Game, seat: str | None) -> protocol.StateMessage:
    """The `state` of the game for the seat, with the deal's recent events and a standing rematch."""
    state = state_message(game, seat)
    state["recent"] = recent_events(game, seat)
    if game.status == Game.FINISHED and game.mode == Game.FRIENDS and seat:
        state["play_again"] = rematch.standing_offer(game, seat)
    return state


async def leave(game_id: str, channel_name: str, announce: bool = True) -> None:
    """The socket closed: its presence row marks when. `announce`: tell the game's other sockets;
    not when a restart closes it: every socket of the process leaves at once, and its player
    connects again through another, which announces the return (in a friends game, the others'
    heartbeats tell them if it does not come)."""
    await database_call(presence.drop_presence)(channel_name)
    if announce:
        await broadcast_presence(game_id)


def seated(seat: str | None) -> str:
    """The socket's seat; a spectator is refused."""
    if not seat:
        raise RoomError("not_seated", status=403)
    return seat


def engine_action(action: object) -> Action:
    """A client's action with only the fields the engine reads (anything else: `bad_field`)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise RoomError("bad_action")
    return normalise_action(action)


async def act(game_id: str, seat: str | None, action: object, version: object, origin: str, ref: object) -> None:
    seat, action = seated(seat), engine_action(action)
    if not isinstance(version, int) or isinstance(version, bool):
        raise RoomError("stale_version", status=409)
    await turns.act(game_id, seat, action, version, origin=origin, ref=ref)


def refusal_of(answer: Mapping[str, Any], language: str) -> protocol.Refusal | None:
    """An engine refusal's code, rule, params and message (in the socket's language); None if ok."""
    if answer.get("ok"):
        return None
    code, params = answer.get("code"), answer.get("params") or {}
    message = render_error(code or "", language, answer.get("message", ""), params)
    return protocol.Refusal(code=code, rule=answer.get("rule"), params=params, message=message)


async def check(
    game_id: str, seat: str | None, action: object, ref: protocol.Ref, language: str
) -> protocol.CheckedMessage:
    """A dry run of the action: its points, or why the engine refuses it."""
    seat, action = seated(seat), engine_action(action)
    answer = await database_sync_to_async(moves.check_action)(game_id, seat, action)
    return protocol.checked(ref, answer.get("points"), refusal_of(answer, language))


async def take_choice(game_id: str, seat: str | None, ref: protocol.Ref, language: str) -> protocol.TakeChoiceAnswer:
    """A take that works now for Take pile with nothing selected, or why none works."""
    answer = await database_sync_to_async(moves.take_choice)(game_id, seated(seat))
    return protocol.take_choice(ref, answer.get("action"), answer.get("points"), refusal_of(answer, language))


async def change_seat(game_id: str, player_id: str | None, seat: str | None, wanted: object) -> None:
    seated(seat)
    await database_sync_to_async(creation.change_seat)(game_id, player_id, wanted)


async def next_deal(game_id: str, seat: str | None) -> None:
    await database_sync_to_async(moves.next_deal)(game_id, seated(seat))
    turns.advance_soon(game_id)


async def react(game_id: str, seat: str | None, code: object) -> None:
    await reactions.react(game_id, seated(seat), code)


async def hint(game_id: str, seat: str | None) -> dict[str, Any]:
    return await turns.hint(game_id, seated(seat))


async def look_back(game_id: str, seat: str | None, deal: object) -> list[Any]:
    return await lookback.look_back(game_id, seated(seat), deal)


def refreshed(game_id: str) -> None:
    """The room changed for everyone (a lobby, a lapse): a state was sent; moves may be due."""
    turns.advance_soon(game_id)


def presence_heard(game_id: str, deadlines: dict[str, Any] | None) -> None:
    """A presence went out: wake this process when a friend's grace runs out."""
    away.wake_at_deadlines(game_id, deadlines)

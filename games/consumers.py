"""The websocket consumers: thin. Session, envelope and limits here; every decision in games.rooms.

`GameConsumer` serves `/ws/game/<id>/`: it finds the player from the Django session, takes the
seat the game gives that player (a spectator otherwise), forwards the room's per-seat updates
and turns client messages into room calls. A client value never names a handler: client types
are looked up in a fixed table, and channel-layer message types are set by the server alone.
`EchoConsumer` (`/ws/echo/`) answers each text frame with itself: the benchmark's baseline, open
only with the test hooks on (FOOT_TEST_HOOKS).
Close codes and messages: docs/PROTOCOL.md.
"""

import asyncio
import json
import logging
import time
from collections.abc import Mapping
from typing import Any, cast

from asgiref.sync import sync_to_async
from asgiref.typing import ASGIReceiveCallable
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from games import params
from games.engine import RuleError, normalise_action
from games.inbox import MAX_FRAME_BYTES, Inbox, TokenBucket
from games.messages import language_of_scope, render_error
from games.models import Game
from games.recent_events import recent_events
from games.rooms.away import wake_at_deadlines
from games.rooms.broadcast import broadcast_presence, group_name
from games.rooms.config import heartbeat_seconds
from games.rooms.creation import change_seat
from games.rooms.database_threads import database_call
from games.rooms.errors import RoomError
from games.rooms.lookback import look_back
from games.rooms.moves import announce_finished, check_action, next_deal, take_choice
from games.rooms.presence import drop_presence, seat_has_live_socket, touch_presence
from games.rooms.reactions import react
from games.rooms.recap import recap_for
from games.rooms.rematch import standing_offer
from games.rooms.seat_views import PUBLIC, state_message, watchable
from games.rooms.stored import load
from games.rooms.turns import act, advance_soon, hint
from players import limits
from players.identity import player_for_session, socket_limit_keys

log = logging.getLogger(__name__)

# Daphne (autobahn) lets a server close only with 1000 or 3000-4999, so the standard 1008 (policy)
# and 1009 (too big) are sent as 4008 and 4009: the same last digits, in the application range.
CLOSE_POLICY = 4008  # rate limit exceeded
CLOSE_TOO_BIG = 4009  # frame over 64 KB
CLOSE_NOT_FOUND = 4404  # no such game
CLOSE_BANNED = 4403  # the player is banned, or may not watch this game (yet)
# As HTTP's 408 and 429: silent too long (FOOT_WS_IDLE_SECONDS), or too many sockets held.
CLOSE_IDLE = 4408
CLOSE_TOO_MANY = 4429
GAP_WAIT_SECONDS = 1.0  # how long a version gap may wait for the late message before a resync


async def forget_channel(channel_layer, channel_name: str) -> None:
    """Drop a leaving consumer's channel from channels-redis's pub/sub layer.

    That layer forgets a channel (its queue and its Redis subscription) only when a receive
    waiting on it is cancelled; a receive task made but not yet started when the consumer stops
    is cancelled before it runs, so the channel stays for the life of the process (27 of 30
    connect/disconnect cycles left one; channels-redis issue #276). This reaches into the layer
    of the pinned channels-redis 4.3 (`_get_layer`, `channels`, `_get_shard`); other layers have
    no such attribute and are left alone.
    """
    get_layer = getattr(channel_layer, "_get_layer", None)
    if get_layer is None:
        return
    layer = get_layer()
    if getattr(layer, "channels", {}).pop(channel_name, None) is None:
        return
    try:
        await layer._get_shard(channel_name).unsubscribe(channel_name)
    except Exception:  # Redis unreachable: the subscription goes with the connection
        log.warning("could not unsubscribe %s", channel_name, exc_info=True)


class DirectDispatch:
    """Dispatch without Channels' per-message `aclose_old_connections()`.

    Channels runs close_old_connections in its one database thread before every message a
    consumer handles — also for each room update forwarded to a socket, which touches no
    database. Every database call of these consumers goes through database_sync_to_async,
    which closes stale connections itself, in the thread that uses them; the extra hop cost a
    thread round trip per frame.
    """

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class EchoConsumer(DirectDispatch, AsyncWebsocketConsumer):
    """The benchmark's baseline, a test hook: with FOOT_TEST_HOOKS off the handshake is refused."""

    async def connect(self):
        if settings.FOOT_TEST_HOOKS:
            await self.accept()
        else:
            await self.close()

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is not None and len(text_data) <= MAX_FRAME_BYTES:
            await self.send(text_data=text_data)

    async def disconnect(self, code):
        await forget_channel(self.channel_layer, self.channel_name)


class GameConsumer(DirectDispatch, AsyncWebsocketConsumer):
    game_id: str  # set once the URL names a game; a socket that names none is closed at once
    seat: str | None  # None: a spectator
    player_id: str | None
    version: int | None  # the version this socket's view is at; None until its first state
    pending: dict[int, dict]  # version -> room update that arrived ahead of a missing one
    gap_task: asyncio.Task | None
    heartbeat_task: asyncio.Task | None
    lease: limits.SocketLease | None
    last_presence: dict | None  # the seats of the last presence this socket forwarded
    away_since: Any  # when this seat lost its last socket, for the recap of the first state (then None)
    side_tasks: set[asyncio.Task]

    # client message type -> handler; nothing else a client sends can reach a method
    CLIENT_TYPES = {
        "action": "on_action",
        "check": "on_check",
        "sync": "on_sync",
        "next_deal": "on_next_deal",
        "hint": "on_hint",
        "take_choice": "on_take_choice",
        "look_back": "on_look_back",
        "heartbeat": "on_heartbeat",
        "react": "on_react",
        "seat": "on_seat",
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.version = None
        self.pending = {}
        self.gap_task = None
        self.heartbeat_task = None
        self.joined = False
        self.closed = False  # the socket is closed, or closing: nothing more is sent or handled
        self.released = False
        self.last_presence = None
        self.lease = None
        self.side_tasks = set()  # answers still being worked out (look backs), cancelled on release
        self.seat = self.player_id = None
        self.away_since = None

    async def __call__(self, scope, receive, send):
        """The consumer's whole life. Whatever ends it releases what it holds: the socket closing,
        an error, or Daphne cancelling it for a backlog older than its application_close_timeout
        (then `disconnect` never runs, and the heartbeat went on renewing the socket's place)."""
        bucket = TokenBucket(settings.FOOT_WS_RATE, settings.FOOT_WS_BURST)
        self.inbox = Inbox(receive, self.refuse, bucket, backlog=settings.FOOT_WS_BACKLOG)
        try:
            # The inbox hands on Daphne's own messages: typed as plain dicts, they are ASGI events.
            await super().__call__(scope, cast(ASGIReceiveCallable, self.inbox.receive), self.unless_closed(send))
        finally:
            self.inbox.stop()
            # Shielded: Daphne cancels a slow application again every second until it is done.
            await asyncio.shield(self.release())

    async def refuse(self, reason: str) -> None:
        """The inbox refused a frame as it arrived: over 64 KB, or a flood (docs/PROTOCOL.md)."""
        await self.close(CLOSE_TOO_BIG if reason == "too_big" else CLOSE_POLICY)

    def unless_closed(self, send):
        """Daphne's `send`, dropping whatever comes after the socket closed (or began to)."""

        async def send_while_open(message):
            if self.closed:
                return
            if message["type"] == "websocket.close":
                self.closed = True
            await send(message)

        return send_while_open

    async def connect(self):
        self.language = language_of_scope(self.scope)
        # One spelling of a game id from here on (group name, presence, loads): upper case is the
        # same game and gets its own patches; any other spelling ({…}, urn:uuid:) is no game.
        game_id = params.game_id(self.scope["url_route"]["kwargs"]["game_id"])
        if game_id is None:
            await self.accept()
            await self.close(CLOSE_NOT_FOUND)
            return
        self.game_id = game_id
        game, self.player_id, banned = await database_sync_to_async(self.identify)()
        await self.accept()
        if game is None:
            await self.close(CLOSE_NOT_FOUND)
            return
        if banned:
            await self.send_error("banned")  # else the table stays empty with no word of why
            await self.close(CLOSE_BANNED)
            return
        self.seat = game.seat_of(self.player_id)
        if self.seat is None and not watchable(game):
            await self.send_error("watch_daily_later")
            await self.close(CLOSE_BANNED)
            return
        lease = await self.take_socket_place(str(game.id), watching=self.seat is None)
        if lease is None:
            await self.close(CLOSE_TOO_MANY)
            return
        # Only in a friends game can a seat's presence change for someone else (its grace running out).
        self.watch_presence = game.mode == Game.FRIENDS
        await self.channel_layer.group_add(group_name(self.game_id), self.channel_name)
        self.joined = True
        second_tab = await database_sync_to_async(seat_has_live_socket)(self.game_id, self.seat)
        absent_since = await database_sync_to_async(touch_presence)(self.game_id, self.seat, self.channel_name, True)
        if game.mode == Game.FRIENDS:
            self.away_since = absent_since
        await self.send_state()
        if second_tab:
            await self.send_notice("seat_open_elsewhere")
        await broadcast_presence(self.game_id)
        advance_soon(self.game_id)
        self.heartbeat_task = asyncio.create_task(self.heartbeat(lease))

    async def take_socket_place(self, game_id: str, watching: bool) -> limits.SocketLease | None:
        """This socket's lease on a place in the socket caps of its session, network and game
        (players.limits; a spectator's in the spectators' own caps); None when one of them is full."""
        # Kept on the socket even when refused: disconnect releases whatever it holds.
        self.lease = lease = limits.SocketLease(
            self.channel_name, game=game_id, watching=watching, **socket_limit_keys(self.scope)
        )
        full = await sync_to_async(lease.claim, thread_sensitive=False)()
        if full:
            log.info("socket refused on game %s: too many per %s", game_id, full)
            return None
        return lease

    def identify(self):
        """(game, player id, banned) from the URL and the session; runs in the DB thread."""
        game = load(self.game_id)
        session = self.scope.get("session")
        player = player_for_session(session) if session is not None else None
        if game is not None and game.status == Game.FINISHED:
            announce_finished(game)  # in case the process died between the last move and its entry
        return game, (str(player.id) if player else None), bool(player and player.banned)

    async def disconnect(self, code):
        await self.release()

    async def release(self):
        """Give back the socket's place, presence and group, once, whatever ended the socket."""
        if self.released:
            return
        self.released = self.closed = True
        if self.heartbeat_task:
            self.heartbeat_task.cancel()
        if self.lease is not None:  # also held by a socket refused at connect: release says so
            await sync_to_async(self.lease.release, thread_sensitive=False)()
        if self.gap_task:
            self.gap_task.cancel()
        for task in self.side_tasks:
            task.cancel()  # the search itself goes on and stores its answer (games.rooms.lookback)
        if self.joined:
            await self.channel_layer.group_discard(group_name(self.game_id), self.channel_name)
            await database_sync_to_async(drop_presence)(self.channel_name)
            await broadcast_presence(self.game_id)
        await forget_channel(self.channel_layer, self.channel_name)

    async def heartbeat(self, lease: limits.SocketLease):
        """Keep this socket's presence and its `lease` fresh, close it when idle, and run the room's
        watchdog (absent friends, timeouts)."""
        while not self.closed:
            await asyncio.sleep(heartbeat_seconds())
            if self.closed:
                return
            if time.monotonic() - self.inbox.last_heard > limits.idle_seconds():
                await self.close(CLOSE_IDLE)
                return
            try:
                await sync_to_async(lease.renew, thread_sensitive=False)()
                await database_sync_to_async(touch_presence)(self.game_id, self.seat, self.channel_name)
                if self.watch_presence:
                    # Tell the room only when something changed (e.g. a friend's grace ran out).
                    await broadcast_presence(self.game_id, unless=self.last_presence)
                advance_soon(self.game_id)
            except Exception:
                log.exception("heartbeat of game %s failed", self.game_id)

    # ------------------------------------------------------------ client -> server

    async def receive(self, text_data=None, bytes_data=None):
        if self.closed or not self.joined:  # refused at connect, or closed: the backlog is dropped
            return
        # Size and flood were judged as the frame arrived (games.inbox).
        if text_data is None:
            await self.send_error("bad_message")
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: nesting deeper than the parser goes
            await self.send_error("bad_json")
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.send_error("bad_message")
            return
        ref = message.get("ref")
        if not isinstance(ref, (str, int)) or isinstance(ref, bool):
            ref = None
        handler = self.CLIENT_TYPES.get(message["type"])
        if handler is None:
            await self.send_error("unknown_type", ref)
            return
        try:
            await getattr(self, handler)(message, ref)
        except RoomError as refusal:
            await self.send_error(refusal.code, ref, params=refusal.params)
            if refusal.code == "stale_version":
                await self.send_state()
        except Exception as error:
            await self.answer_exception(error, ref)

    async def answer_exception(self, error, ref):
        if isinstance(error, RuleError):
            await self.send_error(
                error.code, ref, fallback=error.message, params=error.params, rule=getattr(error, "rule", None)
            )
            return
        log.error("message on game %s failed", self.game_id, exc_info=error)
        await self.send_error("busy", ref)

    def require_seat(self) -> str:
        """This socket's seat; a spectator is refused."""
        if not self.seat:
            raise RoomError("not_seated", status=403)
        return self.seat

    @staticmethod
    def action_of(message) -> dict:
        """The message's action with only the fields the engine reads (anything else: `bad_field`)."""
        action = message.get("action")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise RoomError("bad_action")
        return normalise_action(action)

    async def on_action(self, message, ref):
        seat = self.require_seat()
        action = self.action_of(message)
        version = message.get("v")
        if not isinstance(version, int) or isinstance(version, bool):
            raise RoomError("stale_version", status=409)
        await act(self.game_id, seat, action, version, origin=self.channel_name, ref=ref)

    async def on_check(self, message, ref):
        seat = self.require_seat()
        answer = await database_sync_to_async(check_action)(self.game_id, seat, self.action_of(message))
        reply = {"type": "checked", "ref": ref, "ok": bool(answer.get("ok"))}
        if reply["ok"]:
            reply["points"] = answer.get("points", 0)
        else:
            reply.update(self.refusal_fields(answer))
        await self.send_json(reply)

    async def on_take_choice(self, message, ref):
        """Take pile with nothing selected: the cards the server found for it, to confirm, or why none works."""
        seat = self.require_seat()
        answer = await database_sync_to_async(take_choice)(self.game_id, seat)
        reply = {"type": "take_choice", "ref": ref, "ok": bool(answer.get("ok"))}
        if reply["ok"]:
            reply.update(action=answer["action"], points=answer.get("points", 0))
        else:
            reply.update(self.refusal_fields(answer))
        await self.send_json(reply)

    def refusal_fields(self, answer: Mapping[str, Any]) -> dict:
        """An engine refusal's code, rule, params and message (in the socket's language) for a reply."""
        return {
            "code": answer.get("code"),
            "rule": answer.get("rule"),
            "params": answer.get("params") or {},
            "message": self.translate(answer.get("code"), answer.get("message", ""), answer.get("params")),
        }

    async def on_heartbeat(self, message, ref):
        """The page is open and looked at (static/foot/net.js): receiving it was the point."""

    async def on_seat(self, message, ref):
        """Move to another free seat of the lobby (the room refuses when it is taken or started)."""
        self.require_seat()
        await database_sync_to_async(change_seat)(self.game_id, self.player_id, message.get("seat"))

    async def on_sync(self, message, ref):
        await self.send_state()

    async def on_next_deal(self, message, ref):
        seat = self.require_seat()
        await database_sync_to_async(next_deal)(self.game_id, seat)
        advance_soon(self.game_id)

    async def on_react(self, message, ref):
        seat = self.require_seat()
        await react(self.game_id, seat, message.get("reaction"))

    async def on_hint(self, message, ref):
        seat = self.require_seat()
        step = await hint(self.game_id, seat)
        first = step["actions"][0] if step["actions"] else None
        await self.send_json({"type": "hint", "action": first, "step": step, "ref": ref})

    async def on_look_back(self, message, ref):
        """After a deal: the seat's decisions the hard search would have played otherwise. Answered
        by a task of its own: a socket handles one message at a time, and the search takes seconds,
        during which the player's next_deal and moves must go on."""
        seat = self.require_seat()
        task = asyncio.create_task(self.answer_look_back(seat, message.get("deal"), ref))
        self.side_tasks.add(task)
        task.add_done_callback(self.side_tasks.discard)

    async def answer_look_back(self, seat, deal, ref):
        try:
            items = await look_back(self.game_id, seat, deal)
        except RoomError as refusal:
            await self.send_error(refusal.code, ref, params=refusal.params)
        except Exception as error:
            await self.answer_exception(error, ref)
        else:
            await self.send_json({"type": "look_back", "deal": deal, "items": items, "ref": ref})

    # ------------------------------------------------------------ server -> client

    async def send_json(self, content):
        await self.send(text_data=json.dumps(content, separators=(",", ":")))

    def translate(self, code, fallback="", params=None):
        return render_error(code or "", self.language, fallback, params)

    async def send_error(self, code, ref=None, fallback="", params=None, rule=None):
        reply = {"type": "error", "code": code, "message": self.translate(code, fallback, params), "ref": ref}
        if rule:
            reply["rule"] = rule
        if params:
            reply["params"] = params
        await self.send_json(reply)

    async def send_notice(self, code):
        """Something the player should know that refuses nothing (e.g. the seat is open twice)."""
        await self.send_json({"type": "notice", "code": code, "message": self.translate(code)})

    async def send_state(self):
        game = await database_sync_to_async(load)(self.game_id)
        if game is None:
            await self.close(CLOSE_NOT_FOUND)
            return
        seat = game.seat_of(self.player_id)
        if seat != self.seat and self.joined:  # joined or moved in the lobby: presence follows the seat
            await database_sync_to_async(touch_presence)(self.game_id, seat, self.channel_name)
            self.seat = seat
            await broadcast_presence(self.game_id)
        self.seat = seat
        state = await database_sync_to_async(state_message)(game, self.seat)
        state["recent"] = await database_sync_to_async(recent_events)(game, self.seat)
        if game.status == Game.FINISHED and game.mode == Game.FRIENDS and self.seat:
            state["play_again"] = await database_sync_to_async(standing_offer)(game, self.seat)
        if self.away_since is not None:
            # Replays the move log: in a database thread, never on the event loop.
            recap = await database_call(recap_for)(game, self.seat, self.away_since)
            self.away_since = None
            if recap is not None:
                state["recap"] = recap
        self.version = state["v"]
        self.pending = {v: update for v, update in self.pending.items() if v > self.version}
        await self.send_json(state)
        await self.flush_pending()

    # ------------------------------------------------------------ channel layer -> client (server-set types)

    async def room_update(self, update):
        v = update["v"]
        if self.version is None or v <= self.version:
            return  # already covered by a state sent after it was made
        self.pending[v] = update
        await self.flush_pending()
        if self.pending and self.gap_task is None:
            self.gap_task = asyncio.create_task(self.resync_if_gap_stays())

    async def flush_pending(self):
        while self.version is not None and self.version + 1 in self.pending:
            update = self.pending.pop(self.version + 1)
            part = update["parts"].get(self.seat or PUBLIC)
            if part is None:
                # Made before this socket's seat had a part (e.g. the seat was taken meanwhile): the
                # spectators' part would desync the seat's view without a word, so it gets a fresh state.
                await self.send_state()
                return
            await self.send_patch(update, part)

    async def send_patch(self, update, part):
        patch = {"type": "patch", "v": update["v"], "ops": part["ops"], "events": part["events"]}
        if update.get("origin") == self.channel_name and update.get("ref") is not None:
            patch["ref"] = update["ref"]
        self.version = update["v"]
        await self.send_json(patch)

    async def resync_if_gap_stays(self):
        """Channel layers deliver at most once: a gap still open after a moment is a lost message."""
        try:
            await asyncio.sleep(GAP_WAIT_SECONDS)
            if self.pending:
                await self.send_state()
        finally:
            self.gap_task = None

    async def room_refresh(self, message):
        await self.send_state()
        advance_soon(self.game_id)

    async def room_again(self, message):
        """Play again: the new lobby is offered to the seated players only (a spectator was not at the table)."""
        if self.seat:
            await self.send_json({"type": "play_again", **message["offer"]})

    async def room_reaction(self, message):
        await self.send_json({"type": "reaction", "seat": message["seat"], "reaction": message["reaction"]})

    async def room_presence(self, message):
        self.last_presence = message["seats"]
        wake_at_deadlines(self.game_id, message.get("deadlines"))
        await self.send_json(
            {
                "type": "presence",
                "seats": message["seats"],
                "names": message.get("names", {}),
                "deadlines": message.get("deadlines", {}),
                "stand_ins": message.get("stand_ins", []),
                "now": message.get("now"),
            }
        )

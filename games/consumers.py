"""The websocket consumers: thin. The envelope, the limits and the delivery here; every decision in
the room service's socket face (games.rooms.socket_face), every message in games.protocol.

`GameConsumer` serves `/ws/game/<id>/`: it opens the socket as the room says (a seat, a spectator,
or a refusal), forwards the room's per-seat updates in version order and turns client messages
into room calls. A client value never names a handler (they are derived from games.protocol's
client messages; channel-layer types are the server's). Frames are weighed and counted as they
arrive (games.inbox). docs/PROTOCOL.md."""

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from asgiref.sync import sync_to_async
from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from games import params, protocol
from games.engine import RuleError
from games.inbox import Inbox, Message, TokenBucket
from games.messages import language_of_scope, render_error
from games.protocol import CLOSE_BANNED, CLOSE_IDLE, CLOSE_NOT_FOUND, CLOSE_POLICY, CLOSE_TOO_BIG, CLOSE_TOO_MANY
from games.rooms import heartbeats
from games.rooms import socket_face as room
from games.rooms.broadcast import group_name
from games.rooms.errors import RoomError
from games.rooms.seat_views import PUBLIC
from games.socket_plumbing import (
    DirectDispatch,
    SendsUntilClosed,
    claim_socket_place,
    forget_channel,
    no_front,
    no_restart,
)
from players import limits

if TYPE_CHECKING:  # types-channels names the scope its consumers take only in its stubs
    from channels.consumer import _ChannelScope

log = logging.getLogger(__name__)

GAP_WAIT_SECONDS = 1.0  # how long a version gap may wait for the late message before a resync


class GameConsumer(DirectDispatch, SendsUntilClosed, AsyncWebsocketConsumer):
    game_id: str  # set once the URL names a game; a socket that names none is closed at once
    seat: str | None = None  # None: a spectator
    player_id: str | None = None
    version: int | None = None  # the version this socket's view is at; None until its first state
    pending: dict[int, dict[str, Any]]  # version -> room update that arrived ahead of a missing one
    gap_task: asyncio.Task[None] | None = None
    lease: limits.SocketLease | None = None
    last_presence: dict[str, Any] | None = None  # the seats of the last presence this socket forwarded
    side_tasks: set[asyncio.Task[None]]  # answers still being worked out (look backs), cancelled on release
    joined = False  # in the game's group, with a presence row
    released = False
    watch_presence = False  # a friends game: a seat's presence may change for someone else

    async def __call__(self, scope: "_ChannelScope", receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        """The consumer's whole life. Whatever ends it releases what it holds: the socket closing,
        an error, or Daphne cancelling it for a backlog older than its application_close_timeout
        (then `disconnect` never runs, and the heartbeat would go on renewing the socket's place)."""
        self.pending, self.side_tasks = {}, set()
        bucket = TokenBucket(settings.FOOT_WS_RATE, settings.FOOT_WS_BURST)
        # Daphne's ASGI events, which the inbox reads as the plain dicts they are (and hands on below).
        events = cast(Callable[[], Awaitable[Message]], receive)
        # The front's busy callback (server.front): its graceful restart waits for the inbox.
        busy = cast(Callable[[bool], None], scope.get("foot.busy", no_front))
        self.inbox = Inbox(events, self.refuse, bucket, settings.FOOT_WS_BACKLOG, busy)
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

    async def connect(self) -> None:
        self.language = language_of_scope(self.scope)
        # One spelling of a game id from here on (group name, presence, loads): upper case is the
        # same game and gets its own patches; any other spelling ({…}, urn:uuid:) is no game.
        game_id = params.game_id(self.scope["url_route"]["kwargs"]["game_id"])
        # Accepted before any lookup: Daphne drops a handshake not completed in 5 s (a 502 behind
        # nginx), and when a restarted process's tables all reconnect at once the lookups queue.
        # The state follows the lookup; a refusal closes the socket with its code, as it did.
        await self.accept()
        opening = await room.open_socket(game_id, self.scope.get("session")) if game_id else None
        if opening is None or opening.refusal == "not_found":
            await self.close(CLOSE_NOT_FOUND)
            return
        self.game_id, self.player_id, self.seat = str(game_id), opening.player_id, opening.seat
        if opening.refusal is not None:  # banned, or a daily not to be watched yet
            await self.send_error(opening.refusal)  # else the table stays empty with no word of why
            await self.close(CLOSE_BANNED)
            return
        # Kept on the socket even when refused: release gives back whatever it holds.
        self.lease = lease = await claim_socket_place(self.channel_name, self.scope, self.game_id, self.seat is None)
        if not lease.held:
            await self.close(CLOSE_TOO_MANY)
            return
        self.watch_presence = opening.friends
        await self.channel_layer.group_add(group_name(self.game_id), self.channel_name)
        self.joined = True
        arrival = await room.join(self.game_id, self.player_id, self.seat, self.channel_name, opening.friends)
        self.seat = arrival.seat
        if arrival.state is None:
            await self.close(CLOSE_NOT_FOUND)
            return
        await self.deliver_state(arrival.state)
        if arrival.second_tab:
            await self.send_notice("seat_open_elsewhere")
        await room.arrived(self.game_id, arrival.presence)
        heartbeats.register(self)

    async def disconnect(self, code: int) -> None:
        await self.release()

    async def release(self) -> None:
        """Give back the socket's place, presence and group, once, whatever ended the socket."""
        if self.released:
            return
        self.released = self.closed = True
        heartbeats.unregister(self)
        for task in (self.gap_task, *self.side_tasks):
            if task is not None:
                task.cancel()  # a look back's search goes on and stores its answer (games.rooms.lookback)
        if self.lease is not None:  # also held by a socket refused at connect: release says so
            await sync_to_async(self.lease.release, thread_sensitive=False)()
        if self.joined:
            await self.channel_layer.group_discard(group_name(self.game_id), self.channel_name)
            restarting = cast(Callable[[], bool], self.scope.get("foot.draining", no_restart))
            await room.leave(self.game_id, self.channel_name, announce=not restarting())
        await forget_channel(self.channel_layer, self.channel_name)

    async def still_open(self) -> bool:
        """The process's heartbeat asks (games.rooms.heartbeats): False once the socket is closed; a
        socket that sent nothing, not even a heartbeat, for the idle limit is closed first."""
        if self.closed:
            return False
        if time.monotonic() - self.inbox.last_heard > limits.idle_seconds():
            await self.close(CLOSE_IDLE)
            return False
        return True

    # ------------------------------------------------------------ client -> server

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closed or not self.joined:  # refused at connect, or closed: the backlog is dropped
            return
        # Size and flood were judged as the frame arrived (games.inbox).
        message, ref, refusal = protocol.read_client_frame(text_data)
        if refusal is not None:
            await self.send_error(refusal, ref)
            return
        try:
            await getattr(self, f"on_{message['type']}")(message, ref)
        except Exception as error:
            await self.answer_exception(error, ref)

    async def answer_exception(self, error: Exception, ref: protocol.Ref) -> None:
        if isinstance(error, RoomError):
            await self.send_error(error.code, ref, params=error.params)
            if error.code == "stale_version":
                await self.send_state()
        elif isinstance(error, RuleError):
            await self.send_error(error.code, ref, error.message, error.params, getattr(error, "rule", None))
        else:
            log.error("message on game %s failed", self.game_id, exc_info=error)
            await self.send_error("busy", ref)

    async def on_action(self, message: dict[str, Any], ref: protocol.Ref) -> None:
        await room.act(self.game_id, self.seat, message.get("action"), message.get("v"), self.channel_name, ref)

    async def on_check(self, message: dict[str, Any], ref: protocol.Ref) -> None:
        await self.send_json(await room.check(self.game_id, self.seat, message.get("action"), ref, self.language))

    async def on_take_choice(self, message: dict[str, Any], ref: protocol.Ref) -> None:
        """Take pile with nothing selected: the cards the server found for it, to confirm, or why none works."""
        await self.send_json(await room.take_choice(self.game_id, self.seat, ref, self.language))

    async def on_heartbeat(self, message: dict[str, Any], ref: protocol.Ref) -> None:
        """The page is open and looked at (static/foot/net.js): receiving it was the point."""

    async def on_seat(self, message: dict[str, Any], ref: protocol.Ref) -> None:
        """Move to another free seat of the lobby (the room refuses when it is taken or started)."""
        await room.change_seat(self.game_id, self.player_id, self.seat, message.get("seat"))

    async def on_sync(self, message: dict[str, Any], ref: protocol.Ref) -> None:
        await self.send_state()

    async def on_next_deal(self, message: dict[str, Any], ref: protocol.Ref) -> None:
        await room.next_deal(self.game_id, self.seat)

    async def on_react(self, message: dict[str, Any], ref: protocol.Ref) -> None:
        await room.react(self.game_id, self.seat, message.get("reaction"))

    async def on_hint(self, message: dict[str, Any], ref: protocol.Ref) -> None:
        await self.send_json(protocol.hint(await room.hint(self.game_id, self.seat), ref))

    async def on_look_back(self, message: dict[str, Any], ref: protocol.Ref) -> None:
        """After a deal: the seat's decisions the hard search would have played otherwise. Answered
        by a task of its own: a socket handles one message at a time, and the search takes seconds,
        during which the player's next_deal and moves must go on."""
        room.seated(self.seat)
        task = asyncio.create_task(self.answer_look_back(message.get("deal"), ref))
        self.side_tasks.add(task)
        task.add_done_callback(self.side_tasks.discard)

    async def answer_look_back(self, deal: object, ref: protocol.Ref) -> None:
        try:
            items = await room.look_back(self.game_id, self.seat, deal)
        except Exception as error:
            await self.answer_exception(error, ref)
        else:
            await self.send_json(protocol.look_back(deal, items, ref))

    # ------------------------------------------------------------ server -> client

    async def send_json(self, content: Mapping[str, Any]) -> None:
        await self.send(text_data=json.dumps(content, separators=(",", ":")))

    async def send_error(
        self,
        code: str,
        ref: protocol.Ref = None,
        fallback: str = "",
        params: dict[str, Any] | None = None,
        rule: str | None = None,
    ) -> None:
        message = render_error(code, self.language, fallback, params)
        await self.send_json(protocol.error(code, message, ref, rule, params))

    async def send_notice(self, code: str) -> None:
        """Something the player should know that refuses nothing (e.g. the seat is open twice)."""
        await self.send_json(protocol.notice(code, render_error(code, self.language)))

    async def send_state(self) -> None:
        state, self.seat = await room.seat_state(self.game_id, self.player_id, self.seat, self.channel_name)
        if state is None:
            await self.close(CLOSE_NOT_FOUND)
            return
        await self.deliver_state(state)

    async def deliver_state(self, state: protocol.StateMessage) -> None:
        """A whole state out; the updates that arrived ahead of it follow in order."""
        self.version = state["v"]
        self.pending = {v: update for v, update in self.pending.items() if v > self.version}
        await self.send_json(state)
        await self.flush_pending()

    # ------------------------------------------------------------ channel layer -> client (server-set types)

    async def room_update(self, update: dict[str, Any]) -> None:
        v = update["v"]
        if self.version is None or v <= self.version:
            return  # already covered by a state sent after it was made
        self.pending[v] = update
        await self.flush_pending()
        if self.pending and self.gap_task is None:
            self.gap_task = asyncio.create_task(self.resync_if_gap_stays())

    async def flush_pending(self) -> None:
        while self.version is not None and self.version + 1 in self.pending:
            update = self.pending.pop(self.version + 1)
            part = update["parts"].get(self.seat or PUBLIC)
            if part is None:
                # Made before this socket's seat had a part (e.g. the seat was taken meanwhile): the
                # spectators' part would desync the seat's view without a word, so it gets a fresh state.
                await self.send_state()
                return
            ref = update.get("ref") if update.get("origin") == self.channel_name else None
            self.version = update["v"]
            await self.send_json(protocol.patch(update["v"], part["ops"], part["events"], ref))

    async def resync_if_gap_stays(self) -> None:
        """Channel layers deliver at most once: a gap still open after a moment is a lost message."""
        try:
            await asyncio.sleep(GAP_WAIT_SECONDS)
            if self.pending:
                await self.send_state()
        finally:
            self.gap_task = None

    async def room_refresh(self, message: dict[str, Any]) -> None:
        await self.send_state()
        room.refreshed(self.game_id)

    async def room_again(self, message: dict[str, Any]) -> None:
        """Play again: the new lobby is offered to the seated players only (a spectator was not at the table)."""
        if self.seat:
            await self.send_json(protocol.play_again(message["offer"]))

    async def room_reaction(self, message: dict[str, Any]) -> None:
        await self.send_json(protocol.reaction(message["seat"], message["reaction"]))

    async def room_presence(self, message: dict[str, Any]) -> None:
        self.last_presence = message["seats"]
        room.presence_heard(self.game_id, message.get("deadlines"))
        await self.send_json(protocol.presence(message))

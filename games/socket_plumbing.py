"""Channels plumbing of the websocket consumers (games/consumers.py): a dispatch without Channels'
per-message database hop, a `send` that stops once the socket closed, the clean-up of a leaving
consumer's channel in channels-redis, `claim_socket_place` (a socket's lease in the caps of
players.limits), and `EchoConsumer` (`/ws/echo/`), which answers each text frame with itself: the
benchmark's baseline, open only with the test hooks on (FOOT_TEST_HOOKS)."""

import logging
from collections.abc import Mapping
from typing import Any

from asgiref.sync import sync_to_async
from asgiref.typing import ASGISendCallable, ASGISendEvent
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import BaseChannelLayer
from django.conf import settings

from games.inbox import MAX_FRAME_BYTES
from players import limits
from players.identity import socket_limit_keys

log = logging.getLogger(__name__)


async def forget_channel(channel_layer: BaseChannelLayer | None, channel_name: str) -> None:
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


async def claim_socket_place(
    channel_name: str, scope: Mapping[str, Any], game_id: str, watching: bool
) -> limits.SocketLease:
    """A socket's lease on a place in the socket caps of its session, network and game (a
    spectator's in the spectators' own caps); not `held` when one of them is full."""
    lease = limits.SocketLease(channel_name, game=game_id, watching=watching, **socket_limit_keys(scope))
    full = await sync_to_async(lease.claim, thread_sensitive=False)()
    if full:
        log.info("socket refused on game %s: too many per %s", game_id, full)
    return lease


class DirectDispatch:
    """Dispatch without Channels' per-message `aclose_old_connections()`.

    Channels runs close_old_connections in its one database thread before every message a
    consumer handles — also for each room update forwarded to a socket, which touches no
    database. Every database call of these consumers goes through database_sync_to_async,
    which closes stale connections itself, in the thread that uses them; the extra hop cost a
    thread round trip per frame.
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


def no_front(_busy: bool) -> None:
    """No front to tell that a socket is busy (a test's consumer without server.front)."""


def no_restart() -> bool:
    """No front to say that a restart is closing the socket (a test's consumer without server.front)."""
    return False


class SendsUntilClosed:
    """A consumer whose `send` drops whatever comes after its socket closed (or began to): a
    socket cut under it must not make a late answer raise, nor a close be sent twice."""

    closed = False  # the socket is closed, or closing: nothing more is sent or handled

    def unless_closed(self, send: ASGISendCallable) -> ASGISendCallable:
        """Daphne's `send`, dropping whatever comes after the socket closed (or began to)."""

        async def send_while_open(message: ASGISendEvent) -> None:
            if self.closed:
                return
            if message["type"] == "websocket.close":
                self.closed = True
            await send(message)

        return send_while_open


class EchoConsumer(DirectDispatch, AsyncWebsocketConsumer):
    """The benchmark's baseline, a test hook: with FOOT_TEST_HOOKS off the handshake is refused."""

    async def connect(self) -> None:
        if settings.FOOT_TEST_HOOKS:
            await self.accept()
        else:
            await self.close()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is not None and len(text_data) <= MAX_FRAME_BYTES:
            await self.send(text_data=text_data)

    async def disconnect(self, code: int) -> None:
        await forget_channel(self.channel_layer, self.channel_name)

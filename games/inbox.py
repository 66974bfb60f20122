"""A socket's inbound frames, weighed and counted when they arrive, not when they are handled.

A consumer handles one message at a time; under contention the frames a client sends wait in
Daphne's unbounded queue, so a flood counted only when handled was never refused while the server
held everything the clients uploaded (issue 24, finding 3). `Inbox` reads the socket's ASGI
messages in a task of its own as they come and hands them to the consumer in order:

- a frame over `MAX_FRAME_BYTES`, one past the token bucket, or one more than `backlog` waiting
  frames: the socket is refused (`refuse("too_big")` or `refuse("flood")`) and the frames still
  waiting are dropped;
- a `sync` that arrives while another waits is merged into it (the state sent answers both);
- the socket closing (`websocket.disconnect`) drops the waiting frames: nobody reads the answers.
"""

from __future__ import annotations

import asyncio
import collections
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

MAX_FRAME_BYTES = 64 * 1024
SYNC_FRAME_BYTES = 200  # a `sync` is `{"type":"sync"}` and perhaps a ref: a longer frame is not looked at

Message = dict[str, Any]


class TokenBucket:
    """Allow `burst` messages at once and `rate` per second after that."""

    def __init__(self, rate: float, burst: float):
        self.rate, self.capacity = rate, burst
        self.tokens, self.stamp = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def frame_size(message: Message) -> int:
    text = message.get("text")
    return len(text.encode()) if text is not None else len(message.get("bytes") or b"")


def is_sync(message: Message) -> bool:
    """Whether a frame is a `sync` request (only short frames naming it are parsed)."""
    text = message.get("text")
    if text is None or len(text) > SYNC_FRAME_BYTES or "sync" not in text:
        return False
    try:
        parsed = json.loads(text)
    except ValueError:
        return False
    return isinstance(parsed, dict) and parsed.get("type") == "sync"


class Inbox:
    """The consumer's `receive`: the socket's messages, read as they arrive by a task of its own."""

    def __init__(
        self,
        receive: Callable[[], Awaitable[Message]],
        refuse: Callable[[str], Awaitable[None]],
        bucket: TokenBucket,
        backlog: int,
        busy: Callable[[bool], None] = lambda _busy: None,
    ):
        """`busy(True/False)`: client frames are waiting or being handled, or none (server.front's
        graceful restart closes the socket only once none is: a move in flight gets its answer)."""
        self.source, self.refuse, self.bucket, self.backlog = receive, refuse, bucket, backlog
        self.busy = busy
        self.waiting: collections.deque[Message] = collections.deque()
        self.frames_waiting = 0
        self.sync_waiting = False
        self.refused = False
        self.arrived = asyncio.Event()
        self.reader: asyncio.Task[None] | None = None
        self.last_heard = time.monotonic()

    async def receive(self) -> Message:
        """The next message to handle, in the order they came."""
        if self.reader is None:
            self.reader = asyncio.create_task(self.read())
        self.busy(self.frames_waiting > 0)  # the last message is handled
        while not self.waiting:
            self.arrived.clear()
            await self.arrived.wait()
        message = self.waiting.popleft()
        if message["type"] == "websocket.receive":
            self.busy(True)
            self.frames_waiting -= 1
            if message.get("sync"):
                self.sync_waiting = False
        return message

    def stop(self) -> None:
        if self.reader is not None:
            self.reader.cancel()

    async def read(self) -> None:
        while True:
            message = await self.source()
            kind = message["type"]
            if kind == "websocket.receive":
                await self.take_frame(message)
            else:
                if kind == "websocket.disconnect":
                    self.drop_frames()
                self.put(message)
                if kind == "websocket.disconnect":
                    return

    async def take_frame(self, message: Message) -> None:
        if self.refused:
            return  # the socket is being closed: nothing more is read into memory
        self.last_heard = time.monotonic()
        if frame_size(message) > MAX_FRAME_BYTES:
            await self.refuse_with("too_big")
        elif not self.bucket.take() or self.frames_waiting >= self.backlog:
            await self.refuse_with("flood")
        elif is_sync(message):
            if not self.sync_waiting:  # else the sync waiting answers this one too
                self.sync_waiting = True
                self.put({**message, "sync": True})
        else:
            self.put(message)

    async def refuse_with(self, reason: str) -> None:
        self.refused = True
        self.drop_frames()
        await self.refuse(reason)

    def put(self, message: Message) -> None:
        if message["type"] == "websocket.receive":
            self.frames_waiting += 1
            self.busy(True)
        self.waiting.append(message)
        self.arrived.set()

    def drop_frames(self) -> None:
        kept = [message for message in self.waiting if message["type"] != "websocket.receive"]
        self.waiting = collections.deque(kept)
        self.frames_waiting, self.sync_waiting = 0, False

"""The ASGI front of every request and socket, before Django and Channels: the service routes
(/healthz, /readyz, /metrics), the request id of the log lines, the counts of answers, open
sockets and limit hits, and the drain of a graceful restart.

A restart (server.serve on SIGTERM) calls `drain()`: from then on no client message reaches a
socket's consumer; each socket is closed with 1012 ("service restart") as soon as the message
it is handling (a move in flight) is done and its answer sent, and `drain` returns when every
socket and request has ended or the time is up. The page then connects again, to any process,
and resumes at the version it had (static/foot/net.js).
"""

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from games.rooms.log_context import GAME_ID
from server import health, metrics
from server.logs import REQUEST_ID, log_request, log_socket, request_id_from

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CLOSE_SERVICE_RESTART = 1012
ANSWER_GRACE = 0.25  # seconds: a move's patch travels back through Redis in a few milliseconds
GAME_SOCKET_PREFIX = "/ws/game/"


class OpenSocket:
    """One websocket as the front sees it: accepted yet, whether its consumer is handling a
    message now, closed."""

    def __init__(self, send: Send):
        self.send = send
        self.idle = asyncio.Event()
        self.idle.set()
        self.accepted = self.closed = False

    def set_busy(self, busy: bool) -> None:
        """Told by the game socket's inbox (games.inbox): client frames waiting or being handled."""
        if busy:
            self.idle.clear()
        else:
            self.idle.set()

    async def close_when_idle(self, deadline: float) -> None:
        # A move that takes longer is cut off: its transaction commits or rolls back whole.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.quiet(), max(0.0, deadline - time.monotonic()))
        if not self.closed:
            self.closed = True
            await self.send({"type": "websocket.close", "code": CLOSE_SERVICE_RESTART})

    async def quiet(self) -> None:
        """Until no client frame is waiting or handled, and has not been for ANSWER_GRACE: a
        move's own patch comes back to its socket through the channel layer just after the move."""
        while True:
            await self.idle.wait()
            await asyncio.sleep(ANSWER_GRACE)
            if self.idle.is_set():
                return


class Front:
    def __init__(self, inner: ASGIApp, access_log: bool = False):
        """`access_log`: write a record per request and socket (LOG_FORMAT=json: server.logs)."""
        self.inner, self.access_log = inner, access_log
        self.sockets: set[OpenSocket] = set()
        self.requests = 0
        self.draining = False
        self.all_ended = asyncio.Event()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self.http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self.websocket(scope, receive, send)
        else:
            await self.inner(scope, receive, send)

    # ---------------------------------------------------------------- HTTP

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"]
        if path in ("/healthz", "/readyz", "/metrics"):
            await self.service_route(path, scope, send)
            return
        REQUEST_ID.set(request_id_from(header(scope, b"x-request-id")))
        self.requests += 1
        started, status = time.perf_counter(), 0

        async def counted_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                metrics.HTTP_ANSWERS.labels(f"{status // 100}xx").inc()
                if status == 429:
                    metrics.LIMITS.labels("http_rate").inc()
            await send(message)

        try:
            await self.inner(scope, receive, counted_send)
        finally:
            self.requests -= 1
            self.note_end()
            seconds = time.perf_counter() - started
            metrics.HTTP_SECONDS.observe(seconds)
            if self.access_log:
                log_request(scope.get("method", ""), path, status, seconds)

    async def service_route(self, path: str, scope: Scope, send: Send) -> None:
        if path == "/healthz":
            status, body = health.liveness()
            await answer(send, status, json.dumps(body).encode(), b"application/json")
        elif path == "/readyz":
            draining: dict[str, object] = {"status": "draining"}
            status, body = (503, draining) if self.draining else await health.readiness()
            await answer(send, status, json.dumps(body).encode(), b"application/json")
        else:
            client = scope.get("client") or (None, None)
            forwarded = [part for value in headers(scope, b"x-forwarded-for") for part in value.split(",")]
            if metrics.may_read(client[0], forwarded):
                await answer(send, 200, metrics.exposition(), metrics.CONTENT_TYPE.encode())
            else:
                await answer(send, 404, b"Not Found", b"text/plain")

    def is_draining(self) -> bool:
        return self.draining

    # ---------------------------------------------------------------- websockets

    async def websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        REQUEST_ID.set(request_id_from(header(scope, b"x-request-id")))
        path = scope["path"]
        if path.startswith(GAME_SOCKET_PREFIX):
            GAME_ID.set(path[len(GAME_SOCKET_PREFIX) :].strip("/")[:64])
        socket = OpenSocket(send)
        accepted = False

        async def watched_receive() -> Message:
            while True:
                message = await receive()
                if message["type"] != "websocket.receive" or not self.draining:
                    return message  # after the drain began a client message is not taken: its socket closes

        async def watched_send(message: Message) -> None:
            nonlocal accepted
            if socket.closed:
                return  # closed for the restart: what the consumer still sends has nowhere to go
            if message["type"] == "websocket.accept":
                accepted = socket.accepted = True
                metrics.WEBSOCKETS_OPEN.inc()
                if self.access_log:
                    log_socket("open", path)
                if self.draining:  # its handshake began before the drain: open, then closed as the others
                    await send(message)
                    await socket.close_when_idle(time.monotonic())
                    return
            elif message["type"] == "websocket.close":
                socket.closed = True
                code = int(message.get("code") or 1000)
                if self.access_log:
                    log_socket("closed by the server", path, code)
                kind = metrics.LIMIT_CLOSES.get(code)
                if kind:
                    metrics.LIMITS.labels(kind).inc()
            await send(message)

        self.sockets.add(socket)
        try:
            # The game socket's inbox says when its client frames are handled (OpenSocket.set_busy);
            # its consumer asks whether a restart is closing it (its leaving is then not announced).
            inner_scope = {**scope, "foot.busy": socket.set_busy, "foot.draining": self.is_draining}
            await self.inner(inner_scope, watched_receive, watched_send)
        finally:
            self.sockets.discard(socket)
            if accepted:
                metrics.WEBSOCKETS_OPEN.dec()
                if self.access_log:
                    log_socket("ended", path)
            self.note_end()

    # ---------------------------------------------------------------- graceful restart

    def note_end(self) -> None:
        if self.draining and not self.sockets and self.requests == 0:
            self.all_ended.set()

    async def drain(self, seconds: float) -> bool:
        """Close every socket with 1012 once its message in flight is handled; True when every
        socket and request ended within `seconds`."""
        self.draining = True
        deadline = time.monotonic() + seconds
        # A socket still in its handshake is closed as soon as its consumer accepts it (watched_send).
        opened = [socket for socket in self.sockets if socket.accepted]
        await asyncio.gather(*(socket.close_when_idle(deadline) for socket in opened))
        self.note_end()
        try:
            await asyncio.wait_for(self.all_ended.wait(), max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            return False
        finally:
            metrics.process_ended(os.getpid())
        return True


def headers(scope: Scope, name: bytes) -> list[str]:
    return [value.decode("latin-1") for key, value in scope.get("headers", []) if key.lower() == name]


def header(scope: Scope, name: bytes) -> bytes | None:
    key: bytes
    value: bytes
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value
    return None


async def answer(send: Send, status: int, body: bytes, content_type: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", content_type), (b"cache-control", b"no-store")],
        }
    )
    await send({"type": "http.response.body", "body": body})

"""The one websocket test player of the tests and the benchmarks: one socket of one browser on one
game, following its seat's view the way the page does.

`WsPlayer` opens /ws/game/<id>/ with the cookie of a `testsupport.clients.Browser` and the origin of
the server the socket reaches (the Origin check is exact, and in the tests each Daphne has its own
port), keeps the view by applying each patch to the one before, and plays with `simple_action`
(draw, then discard the first card) or any action it is given. The options are what its users need:

- `on_gap`: what a patch that skips a version does. "fail" (the default) raises AssertionError: the
  tests of the patch order. "resync" asks for the whole view instead, as the page does, and goes
  on: the fault tests and the benchmarks, where a lost message is the subject or is counted
  (`gaps`).
- `keep_frames`: every frame as (the version after it, the message) in `frames`, its patches in
  `patches` (the hidden-card and order checks read them); off for a benchmark, whose soak would
  keep every frame of an hour.
- `keepalive`: False sends no pings of its own (a browser sends none; the server's pings are still
  answered): the benchmarks, whose hundreds of sockets each pinged every 20 s.
- `in_place`: patch the view in place, with testsupport.json_patch's plain applier: a copy of the
  whole view per patch, then jsonpatch's objects per op, made the load generator (which shares the
  machine with the servers) the dearest part of a benchmark after the servers. Without it the
  view is patched by jsonpatch, the reference, into a new view.

`received_at` is when the last state or patch arrived (time.perf_counter), before this client
parsed it, and `frame_at` when any last frame did: the benchmarks' round trips end there.
`awaited` holds refs of questions sent with `send` whose answers the caller collects later from
`replies` (ref -> (message, received_at)), whatever `until` was waiting for when they came.
`applied` counts the patches applied (a benchmark's moves). `deal_ended` is set by a patch that ends a deal
(the bots then wait for this seat's "next_deal") until the caller clears it; `ended_deal` is that deal's number.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import time
from collections.abc import Callable

import jsonpatch
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from testsupport.clients import Browser
from testsupport.json_patch import apply_in_place


def simple_action(view: dict) -> dict:
    """Draw when the seat must draw, else discard its first card (in sorted order)."""
    if view["options"]["draw"]:
        return {"type": "draw"}
    return {"type": "discard", "card": sorted(view["hand"])[0]}


class WsPlayer:
    """One websocket of one browser on one game: follows its view and plays when asked."""

    def __init__(
        self,
        browser: Browser,
        ws_base: str,
        game_id: str,
        *,
        on_gap: str = "fail",
        keep_frames: bool = True,
        in_place: bool = False,
        ref_prefix: str = "c",
        keepalive: bool = True,
    ):
        if on_gap not in ("fail", "resync"):
            raise ValueError(f"on_gap is 'fail' or 'resync', not {on_gap!r}")
        self.browser, self.game_id = browser, game_id
        self.url = f"{ws_base}/ws/game/{game_id}/"
        self.on_gap, self.keep_frames, self.in_place, self.ref_prefix = on_gap, keep_frames, in_place, ref_prefix
        self.keepalive = keepalive
        self.view: dict | None = None
        self.version: int | None = None
        self.seat: str | None = None
        self.frames: list[tuple[int | None, dict]] = []  # (version after the frame, message)
        self.patches: list[dict] = []
        self.socket: ClientConnection | None = None
        self.refs = 0
        self.gaps = 0  # patches that skipped a version (resynced)
        self.received_at = self.frame_at = 0.0
        self.applied = 0
        self.deal_ended = False
        self.ended_deal = 0
        self.awaited: set[str] = set()
        self.replies: dict[str, tuple[dict, float]] = {}

    async def open(self, ws_base: str | None = None, open_timeout: float = 20) -> dict:
        """Connect (to another server's `ws_base` if given, the same game); the first state."""
        if ws_base:
            self.url = f"{ws_base}/ws/game/{self.game_id}/"
        page_origin = self.url.split("/ws/", 1)[0].replace("ws://", "http://", 1)
        self.socket = await connect(
            self.url,
            additional_headers={"Cookie": self.browser.cookie_header()},
            origin=Origin(page_origin),
            max_size=None,
            open_timeout=open_timeout,
            ping_interval=20 if self.keepalive else None,  # 20: websockets' own default
        )
        return await self.next_message("state")

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()

    async def send(self, message: dict) -> None:
        assert self.socket is not None, "open() first"
        await self.socket.send(json.dumps(message))

    async def next_message(self, *types: str, timeout: float = 20) -> dict:
        """Read frames (keeping the view up to date) until one of `types` arrives (any, without)."""
        return await self.until(lambda message: not types or message["type"] in types, timeout)

    async def until(self, wanted: Callable[[dict], bool], timeout: float = 20) -> dict:
        """Read frames until one that `wanted` accepts; TimeoutError when none came in `timeout` s."""
        assert self.socket is not None, "open() first"
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no wanted frame in {timeout:g} s")
            async with asyncio.timeout(left):  # no task per frame, as wait_for makes
                frame = await self.socket.recv()
            received_at = self.frame_at = time.perf_counter()
            message = json.loads(frame)
            if not self.take(message, received_at):
                await self.send({"type": "sync"})  # a lost message: the whole view, as the page does
                continue
            if wanted(message):
                return message

    def take(self, message: dict, received_at: float = 0.0) -> bool:
        """Follow one message; False for a patch after a gap (resync it), which changes nothing."""
        if message.get("ref") in self.awaited:
            self.awaited.discard(message["ref"])
            self.replies[message["ref"]] = (message, received_at)
        if message["type"] == "state":
            self.view, self.version, self.seat = message["view"], message["v"], message["seat"]
            self.received_at = received_at
        elif message["type"] == "patch":
            assert self.version is not None, "a patch before the first state"
            if message["v"] != self.version + 1:
                if self.on_gap == "fail":
                    raise AssertionError(f"version gap: had {self.version}, got {message['v']}")
                self.gaps += 1
                self.remember(message)
                return False
            if self.in_place:
                self.view = apply_in_place(self.view, message["ops"])
            else:
                self.view = jsonpatch.apply_patch(self.view, message["ops"])
            self.version = message["v"]
            self.received_at = received_at
            self.applied += 1
            for event in message["events"]:
                if event["type"] == "deal_end":
                    self.deal_ended, self.ended_deal = True, event["deal"]
            if self.keep_frames:
                self.patches.append(message)
        self.remember(message)
        return True

    def remember(self, message: dict) -> None:
        if self.keep_frames:
            self.frames.append((self.version, message))

    def opened_view(self) -> dict:
        """The view, once `open()` had the first state (an error before)."""
        if self.view is None:
            raise RuntimeError("no view before open()")
        return self.view

    def opened_version(self) -> int:
        """The version of the view, once `open()` had the first state (an error before)."""
        if self.version is None:
            raise RuntimeError("no version before open()")
        return self.version

    def my_turn(self) -> bool:
        return self.view is not None and self.view["turn"] == self.seat and self.view["phase"] != "over"

    def deal_ended_in_last_patch(self) -> bool:
        return bool(self.patches) and any(e["type"] == "deal_end" for e in self.patches[-1]["events"])

    async def act(self, action: dict, timeout: float = 20) -> dict:
        """Send one action; the patch that carries its ref, or a refusal (of it, or of nothing named)."""
        self.refs += 1
        ref = f"{self.ref_prefix}{self.refs}"
        await self.send({"type": "action", "action": action, "v": self.version, "ref": ref})

        def answer(message: dict) -> bool:
            if message["type"] == "error":
                return message.get("ref") in (ref, None)
            return message["type"] == "patch" and message.get("ref") == ref

        return await self.until(answer, timeout)

    async def play_turn(self) -> dict:
        """When it is our turn: act once with `simple_action`; its patch (a refusal fails the test)."""
        assert self.view is not None
        answer = await self.act(simple_action(self.view))
        if answer["type"] == "error":
            raise AssertionError(f"refused: {answer}")
        return answer

    async def play_until(self, version: int, timeout: float = 60) -> None:
        """Play our turns and follow the bots' until the game reaches `version`."""

        async def loop():
            while self.version is not None and self.version < version:
                if self.my_turn():
                    await self.play_turn()
                else:
                    await self.next_message("patch")

        await asyncio.wait_for(loop(), timeout)

    async def sync_matches(self) -> dict:
        """Ask for the whole view and check that the patched view equals it."""
        mine = (self.version, self.view)
        await self.send({"type": "sync"})
        state = await self.next_message("state")
        assert (state["v"], state["view"]) == mine, "the patched view differs from a fresh sync"
        return state


def run(coroutine):
    """asyncio.run in a thread of its own: the calling thread may already run an event loop
    (Playwright's sync API, used by the browser tests on the same worker, leaves one running)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as runner:
        return runner.submit(asyncio.run, coroutine).result()

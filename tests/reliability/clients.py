"""Clients for the reliability tests: a browser-like HTTP session and a websocket player on a real server.

`Tab` keeps its seat's view by applying each patch to the previous view, records every frame it
got (for the hidden-card checks) and resyncs on a version gap, as the page does.
"""

import asyncio
import json
import re

import jsonpatch
from websockets.asyncio.client import connect

from testsupport.clients import Browser

CARD = re.compile(r"^(?:[4-9TJQKA23][CDHS]|JK)$")
TOTAL_CARDS = 270  # R1: five 54-card decks


def simple_action(view: dict) -> dict:
    """Draw when the seat must, else discard its first card (as tests/rooms' simple player)."""
    if view["options"]["draw"]:
        return {"type": "draw"}
    return {"type": "discard", "card": sorted(view["hand"])[0]}


class Tab:
    """One websocket of one browser on one game, following its view."""

    def __init__(self, browser: Browser, ws_base: str, game_id: str):
        self.browser, self.game_id = browser, game_id
        self.url = f"{ws_base}/ws/game/{game_id}/"
        self.view = self.version = self.seat = None
        self.frames: list[dict] = []
        self.socket = None
        self.refs = 0

    async def open(self, ws_base: str | None = None) -> dict:
        if ws_base:
            self.url = f"{ws_base}/ws/game/{self.game_id}/"
        # The page's origin is the server the socket reaches: in production every process sits
        # behind one origin, here each has its own port, and the Origin check is exact.
        page_origin = self.url.split("/ws/", 1)[0].replace("ws://", "http://", 1)
        self.socket = await connect(
            self.url,
            additional_headers={"Cookie": self.browser.cookie_header()},
            origin=page_origin,
            max_size=None,
            open_timeout=20,
        )
        return await self.next_message("state")

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()

    async def send(self, message: dict) -> None:
        await self.socket.send(json.dumps(message))

    async def next_message(self, *types, timeout: float = 20) -> dict:
        while True:
            message = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
            self.frames.append(message)
            if message["type"] == "state":
                self.view, self.version, self.seat = message["view"], message["v"], message["seat"]
            elif message["type"] == "patch":
                if message["v"] != self.version + 1:  # a lost message: resync, as the page does
                    await self.send({"type": "sync"})
                    continue
                self.view = jsonpatch.apply_patch(self.view, message["ops"])
                self.version = message["v"]
            if not types or message["type"] in types:
                return message

    def my_turn(self) -> bool:
        return self.view["turn"] == self.seat and self.view["phase"] != "over"

    async def play_turn(self) -> dict:
        """Act once with the simple policy; the patch that answers it (or the refusal)."""
        self.refs += 1
        ref = f"r{self.refs}"
        await self.send({"type": "action", "action": simple_action(self.view), "v": self.version, "ref": ref})
        while True:
            message = await self.next_message("patch", "error")
            if message.get("ref") == ref:
                return message

    async def play_until(self, version: int, timeout: float = 60) -> None:
        """Play South's turns and follow the bots' until the game reaches `version`."""

        async def loop():
            while self.version < version:
                if self.my_turn():
                    answer = await self.play_turn()
                    assert answer["type"] == "patch", answer
                else:
                    await self.next_message("patch")

        await asyncio.wait_for(loop(), timeout)

    async def sync_matches(self) -> None:
        mine = (self.version, self.view)
        await self.send({"type": "sync"})
        state = await self.next_message("state")
        assert (state["v"], state["view"]) == mine, "the patched view differs from a fresh sync"


def run(coroutine):
    """asyncio.run in a thread of its own: the calling thread may already run an event loop
    (Playwright's sync API, used by the browser tests on the same worker, leaves one running)."""
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as runner:
        return runner.submit(asyncio.run, coroutine).result()


def cards_in_position(position: dict) -> int:
    """How many cards a stored position holds, wherever they are (must be 270, R1)."""

    def count(text) -> int:
        return len(text.split()) if text else 0

    total = count(position["stock"]) + count(position["discard"])
    total += sum(count(cards) for cards in position["hands"].values())
    total += sum(count(cards) for cards in position["feet"].values() if cards)
    total += sum(count(meld) for melds in position["melds"].values() for meld in melds)
    total += sum(count(cards) for cards in position["red_threes"].values())
    return total


def cards_named(value) -> set[str]:
    """Every card code a JSON value names: in strings, keys and patch paths."""
    found = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if CARD.match(str(key)):
                found.add(key)
            found |= cards_named(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_named(item)
    elif isinstance(value, str):
        for part in value.replace("/", " ").split():
            if CARD.match(part):
                found.add(part)
    return found

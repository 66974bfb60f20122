"""Clients for a real Daphne server: the HTTP session (testsupport.clients.Browser) and a websocket player.

`Player` keeps its seat's view by applying every patch to the previous view, records every frame
it got, and checks that versions come one by one.
"""

import asyncio
import json
import re
import sqlite3

import jsonpatch
from websockets.asyncio.client import connect

from testsupport.clients import Browser

from .simple_player import simple_action

CARD = re.compile(r"^(?:[2-9TJQKA][CDHS]|JK)$")


class LivePlayer:
    """One websocket of one browser on one game: follows its view and plays with a simple policy."""

    def __init__(self, browser: Browser, ws_base: str, game_id: str):
        self.browser, self.url = browser, f"{ws_base}/ws/game/{game_id}/"
        self.view, self.version, self.seat = None, None, None
        self.frames: list[tuple[int | None, dict]] = []  # (version after the frame, message)
        self.patches: list[dict] = []
        self.socket = None
        self.refs = 0

    async def open(self):
        self.socket = await connect(
            self.url,
            additional_headers={"Cookie": self.browser.cookie_header()},
            origin=self.browser.base,
            max_size=None,
            open_timeout=20,
        )
        state = await self.next_message("state")
        return state

    async def close(self):
        if self.socket is not None:
            await self.socket.close()

    async def send(self, message: dict):
        await self.socket.send(json.dumps(message))

    async def next_message(self, *types, timeout: float = 20) -> dict:
        """Read frames (keeping the view up to date) until one of `types` arrives."""
        while True:
            message = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
            self.take(message)
            if not types or message["type"] in types:
                return message

    def take(self, message: dict):
        if message["type"] == "state":
            self.view, self.version, self.seat = message["view"], message["v"], message["seat"]
        elif message["type"] == "patch":
            assert message["v"] == self.version + 1, f"version gap: had {self.version}, got {message['v']}"
            self.view = jsonpatch.apply_patch(self.view, message["ops"])
            self.version = message["v"]
            self.patches.append(message)
        self.frames.append((self.version, message))

    async def sync_matches(self) -> dict:
        """Ask for the whole view and check the patched view equals it."""
        mine = (self.version, self.view)
        await self.send({"type": "sync"})
        state = await self.next_message("state")
        assert (state["v"], state["view"]) == mine, "patched view differs from a fresh sync"
        return state

    async def play_turn(self) -> None:
        """When it is our turn: act once (simple legal policy) and wait for our patch."""
        self.refs += 1
        ref = f"c{self.refs}"
        await self.send({"type": "action", "action": simple_action(self.view), "v": self.version, "ref": ref})
        while True:
            message = await self.next_message("patch", "error")
            if message["type"] == "error":
                raise AssertionError(f"refused: {message}")
            if message.get("ref") == ref:
                return

    def my_turn(self) -> bool:
        return self.view["turn"] == self.seat and self.view["phase"] != "over"

    def deal_ended_in_last_patch(self) -> bool:
        return bool(self.patches) and any(e["type"] == "deal_end" for e in self.patches[-1]["events"])


def cards_in(value) -> set[str]:
    """Every card code a JSON value names: in strings, keys and patch paths."""
    found = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if CARD.match(str(key)):
                found.add(key)
            found |= cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in(item)
    elif isinstance(value, str):
        for part in value.replace("/", " ").split():
            if CARD.match(part):
                found.add(part)
    return found


def stored_game(sqlite_path: str, game_id: str) -> tuple[dict, list[tuple[int, str, dict]]]:
    """(initial position, [(seq, seat, action)]) read straight from a server's SQLite file."""
    with sqlite3.connect(sqlite_path) as db:
        hex_id = game_id.replace("-", "")
        (initial,) = db.execute("select initial_position from games_game where id = ?", (hex_id,)).fetchone()
        moves = db.execute(
            "select seq, seat, action from games_move where game_id = ? order by seq", (hex_id,)
        ).fetchall()
    return json.loads(initial), [(seq, seat, json.loads(action)) for seq, seat, action in moves]


def stored_version(sqlite_path: str, game_id: str) -> tuple[int, dict]:
    with sqlite3.connect(sqlite_path) as db:
        version, position = db.execute(
            "select version, position from games_game where id = ?", (game_id.replace("-", ""),)
        ).fetchone()
    return version, json.loads(position)


def run(coroutine):
    """asyncio.run in a thread of its own: the calling thread may already run an event loop
    (Playwright's sync API, used by the browser tests on the same worker, leaves one running)."""
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as runner:
        return runner.submit(asyncio.run, coroutine).result()

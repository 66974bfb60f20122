"""Bad input against a real Daphne: oversized frames, malformed JSON, unknown types and floods get an
error or the documented close code (docs/PROTOCOL.md), and the server stays healthy."""

import asyncio
import json

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games.inbox import MAX_FRAME_BYTES
from games.protocol import CLOSE_POLICY
from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer, run


async def close_code_after(socket, frames) -> int | None:
    try:
        for frame in frames:
            await socket.send(frame)
        while True:
            await asyncio.wait_for(socket.recv(), 10)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


def test_bad_input_is_refused_and_the_server_stays_healthy(daphne, sqlite_url):
    server = daphne(sqlite_url, FOOT_WS_RATE=5, FOOT_WS_BURST=20)
    browser = Browser(server.http)
    game = browser.post("/api/games", {"mode": "solo", "level": "easy"})
    url = f"{server.ws}/ws/game/{game['id']}/"
    headers = {"Cookie": browser.cookie_header()}

    async def scenario():
        player = WsPlayer(browser, server.ws, game["id"])
        await player.open()
        for frame, code in [
            ("{oops", "bad_json"),
            ("42", "bad_message"),
            ('{"type": "room.refresh"}', "unknown_type"),
            ('{"type": "action", "action": {"type": "draw"}}', "stale_version"),
        ]:
            assert player.socket is not None  # open() connected it
            await player.socket.send(frame)
            assert (await player.next_message("error"))["code"] == code
        await player.sync_matches()
        await player.close()
        async with connect(url, additional_headers=headers, origin=server.http, max_size=None) as big:
            oversized = json.dumps({"type": "sync", "pad": "x" * MAX_FRAME_BYTES})
            # server.serve limits messages to 64 KB: Daphne drops the connection before the consumer
            # (whose own answer, in process, is 4009: tests/rooms/test_consumer.py).
            assert await close_code_after(big, [oversized]) in (1009, None)
        async with connect(url, additional_headers=headers, origin=server.http) as flood:
            assert await close_code_after(flood, ['{"type": "sync"}'] * 200) == CLOSE_POLICY
        async with connect(f"{server.ws}/ws/echo/", origin=server.http) as echo:
            await echo.send("still there?")
            assert await echo.recv() == "still there?"
        again = WsPlayer(browser, server.ws, game["id"])
        assert (await again.open())["seat"] == "S"
        await again.close()

    run(scenario())
    assert server.alive()
    assert browser.get(f"/api/games/{game['id']}")["seat"] == "S"

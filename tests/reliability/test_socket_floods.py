"""Cheap socket attacks against a real Daphne (issue 24, findings 1-3): sockets that flood and cut
their TCP connections leave no place behind, spectators never lock the seated players out, and a
flood is counted when it arrives, not when the server gets round to it."""

import asyncio
import json
import time

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer, run

SYNC = json.dumps({"type": "sync"})


async def open_cookieless(server, game_id: str) -> ClientConnection:
    return await connect(f"{server.ws}/ws/game/{game_id}/", origin=Origin(server.http), max_size=None)


async def first_answer(socket: ClientConnection) -> str | int | None:
    """ "state" when the socket was let in, else its close code."""
    try:
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), 20))
            if message["type"] == "state":
                return "state"
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


async def flood_and_cut(server, game_id: str, frames: int) -> None:
    """Open a cookie-less socket, send `frames` syncs and cut the TCP connection without a close."""
    socket = await open_cookieless(server, game_id)
    for _ in range(frames):
        await socket.send(SYNC)
    await asyncio.sleep(0.5)  # let the kernel hand the frames over before the cut
    socket.transport.abort()


async def admitted_within(server, browser: Browser, game_id: str, seconds: float) -> dict | int | None:
    """The owner's first state once it is let in within `seconds`, else the last close code."""
    deadline, code = time.monotonic() + seconds, None
    while time.monotonic() < deadline:
        owner = WsPlayer(browser, server.ws, game_id)
        try:
            return await owner.open()
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
        finally:
            await owner.close()
        await asyncio.sleep(1)
    return code


def test_flooding_sockets_that_cut_their_connection_leave_no_place_behind(daphne, sqlite_url):
    """Finding 1: the flood keeps each consumer busy past Daphne's application_close_timeout (10 s),
    which then kills it; its heartbeat went on renewing its place in the caps for minutes."""
    server = daphne(sqlite_url, FOOT_WS_RATE=1000, FOOT_WS_BURST=1000, FOOT_SOCKETS_PER_GAME=30)
    browser = Browser(server.http)
    game_id = browser.new_solo()

    async def scenario():
        await asyncio.gather(*(flood_and_cut(server, game_id, 300) for _ in range(30)))
        state = await admitted_within(server, browser, game_id, 25)
        assert isinstance(state, dict) and state["seat"] == "S", f"the owner was refused: {state}"
        again = [await open_cookieless(server, game_id) for _ in range(29)]
        assert [await first_answer(socket) for socket in again] == ["state"] * 29  # every place came back
        for socket in again:
            await socket.close()

    run(scenario())
    assert server.alive()

"""SIGTERM is a graceful restart (issue 26, item 4): a real Daphne (server.serve) stops accepting,
lets the move in flight finish, closes every socket with 1012 and exits within
FOOT_DRAIN_SECONDS; the player connects again to another process and resumes at the version of
its last acknowledged move. The rolling restart through nginx is tests/reliability/test_cluster.py.
"""

import os
import signal
import socket
import time

import pytest
from websockets.exceptions import ConnectionClosed

from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer, run, simple_action

from .conftest import SIMPLE_BOTS

pytestmark = pytest.mark.services


def refuses_connections(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return True
    return False


async def close_code(player: WsPlayer) -> int | None:
    """Reads frames until the server closes the socket: its close code."""
    try:
        while True:
            await player.next_message(timeout=10)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


def test_sigterm_closes_sockets_with_1012_and_the_player_resumes_elsewhere(daphne, postgres_url, redis_url):
    env = {**SIMPLE_BOTS, "REDIS_URL": redis_url, "FOOT_DRAIN_SECONDS": 5}
    leaving, staying = daphne(postgres_url, **env), daphne(postgres_url, **env)
    browser = Browser(leaving.http)
    game = browser.post("/api/games", {"mode": "solo", "level": "easy"})
    south = WsPlayer(browser, leaving.ws, game["id"])
    watcher = WsPlayer(Browser(leaving.http), leaving.ws, game["id"])  # a spectator's socket
    outcome: dict = {}

    async def scenario():
        await south.open()
        await watcher.open()
        await south.play_until(20, timeout=60)
        acknowledged = south.version
        os.kill(leaving.started().pid, signal.SIGTERM)  # the main process only, as systemd does
        signalled = time.monotonic()
        for player in (south, watcher):
            outcome.setdefault("codes", []).append(await close_code(player))
        outcome["closed_after"] = time.monotonic() - signalled
        state = await south.open(staying.ws)  # the page's reconnect, to another process
        outcome["resumed"] = (acknowledged, state["v"])
        await south.play_until(state["v"] + 8, timeout=60)
        await south.sync_matches()
        await south.close()

    run(scenario())
    code = leaving.wait_exit(timeout=15)
    assert outcome["codes"] == [1012, 1012]
    assert outcome["closed_after"] < 5
    assert code == 0
    acknowledged, resumed_at = outcome["resumed"]
    assert resumed_at >= acknowledged
    assert refuses_connections(leaving.port)


def test_a_move_in_flight_at_sigterm_is_answered_or_not_applied(daphne, postgres_url, redis_url):
    """SIGTERM right after a move is sent: either the move was taken, and its patch comes before
    the 1012, or it was not, and it is not applied: never a move stored that its player was not
    told of (the socket waits for its inbox to empty: server.front, games.inbox)."""
    env = {**SIMPLE_BOTS, "REDIS_URL": redis_url, "FOOT_DRAIN_SECONDS": 5}
    leaving, staying = daphne(postgres_url, **env), daphne(postgres_url, **env)
    browser = Browser(leaving.http)
    game = browser.post("/api/games", {"mode": "solo", "level": "easy"})
    south = WsPlayer(browser, leaving.ws, game["id"])
    seen: dict = {}

    async def scenario():
        await south.open()
        await south.play_until(12, timeout=60)
        while not south.my_turn():
            await south.next_message("patch")
        seen["before"] = south.version
        await south.send(
            {"type": "action", "action": simple_action(south.opened_view()), "v": south.version, "ref": "last"}
        )
        os.kill(leaving.started().pid, signal.SIGTERM)
        seen["code"] = await close_code(south)
        seen["answered"] = "last" in [message.get("ref") for _v, message in south.frames]
        seen["after"] = (await south.open(staying.ws))["v"]
        await south.close()

    run(scenario())
    assert seen["code"] == 1012
    if seen["answered"]:
        assert seen["after"] >= seen["before"] + 1
    else:
        assert seen["after"] == seen["before"]  # not taken, not applied (the bots wait for South)

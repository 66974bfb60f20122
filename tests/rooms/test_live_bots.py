"""A bot thinking hard in one room does not stall another room (`hard` thinks in a process pool:
the default FOOT_BOT_POOL=mixed; the quick levels think in threads)."""

import asyncio
import time

from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer, run

THINK_SECONDS = 2.0


def test_a_thinking_bot_does_not_stall_another_room(daphne, sqlite_url):
    server = daphne(
        sqlite_url,
        FOOT_BOT_FACTORY="tests.rooms.simple_player:make_slow_bot",
        FOOT_TEST_THINK_SECONDS=THINK_SECONDS,
        FOOT_BOT_WORKERS=1,
        FOOT_WS_RATE=1000,
        FOOT_WS_BURST=1000,
    )
    first, second = Browser(server.http), Browser(server.http)
    busy_game = first.post("/api/games", {"mode": "solo", "level": "hard"})
    calm_game = second.post("/api/games", {"mode": "solo", "level": "hard"})
    busy, calm = WsPlayer(first, server.ws, busy_game["id"]), WsPlayer(second, server.ws, calm_game["id"])

    async def scenario():
        await busy.open()
        await calm.open()
        await busy.play_turn()  # South draws
        await busy.play_turn()  # South discards: West starts thinking for THINK_SECONDS of CPU
        await asyncio.sleep(0.3)
        started = time.perf_counter()
        await calm.play_turn()  # the other room's South draws meanwhile
        calm_round_trip = time.perf_counter() - started
        await calm.sync_matches()
        west_moved = await busy.next_message("patch", timeout=30)
        await busy.close()
        await calm.close()
        return calm_round_trip, west_moved

    calm_round_trip, west_moved = run(scenario())
    assert calm_round_trip < THINK_SECONDS / 2, f"the other room waited {calm_round_trip:.2f}s"
    assert west_moved["events"][0]["seat"] == "W"

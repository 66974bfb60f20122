"""Two Daphne processes sharing PostgreSQL and Redis tell one absent friend's deadline alike, and
the computer takes the seat at that deadline (issue 15, item 3).

The host (South) is on one process, the friend who leaves (West) and a second friend (North) on
the other. Every socket is told the same deadline, from the presence rows both processes share;
the heartbeats are far apart, so only the wake-up at the deadline can make the computer move.
"""

import time

import pytest

from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer, run

pytestmark = pytest.mark.services

GRACE = 2.0
ENV = {
    "FOOT_BOT_FACTORY": "tests.rooms.simple_player:make_bot",
    "FOOT_BOT_POOL": "thread",
    "FOOT_AWAY_GRACE_SECONDS": GRACE,
    "FOOT_HEARTBEAT_SECONDS": 60,
}


async def presence_where(player: WsPlayer, test, timeout: float = 10) -> dict:
    while True:
        message = await player.next_message("presence", timeout=timeout)
        if test(message):
            return message


def test_two_processes_send_one_deadline_and_the_computer_takes_the_seat_at_it(daphne, postgres_url, redis_url):
    first = daphne(postgres_url, REDIS_URL=redis_url, **ENV)
    second = daphne(postgres_url, REDIS_URL=redis_url, **ENV)
    host, leaver, other = Browser(first.http), Browser(second.http), Browser(second.http)
    game = host.post("/api/games", {"mode": "friends"})
    leaver.post(f"/api/games/{game['id']}/join", {"seat": "W"})
    other.post(f"/api/games/{game['id']}/join", {"seat": "N"})
    host.post(f"/api/games/{game['id']}/start", {})
    south = WsPlayer(host, first.ws, game["id"])
    west = WsPlayer(leaver, second.ws, game["id"])
    north = WsPlayer(other, second.ws, game["id"])

    async def scenario():
        for player in (south, west, north):
            await player.open()
        await presence_where(south, lambda m: all(m["seats"][s] == "connected" for s in "SWN"))
        await west.close()
        left = time.time()
        told = [await presence_where(player, lambda m: m["seats"]["W"] == "disconnected") for player in (south, north)]
        deadlines = [message["deadlines"]["W"] for message in told]
        assert deadlines[0] == deadlines[1], "both processes tell the same deadline"
        assert abs(deadlines[0] - (left + GRACE)) < 1.0
        while south.opened_view()["turn"] == "S":  # South's turn, then West's is due (R6)
            await south.play_turn()
        await presence_where(south, lambda m: m["seats"]["W"] == "away", timeout=GRACE + 5)
        while south.opened_view()["turn"] == "W":
            await south.next_message("patch", timeout=GRACE + 5)
        moved = time.time() - left
        await south.close()
        await north.close()
        return moved

    moved = run(scenario())
    assert GRACE - 0.1 <= moved < GRACE + 4, f"the computer played West {moved:.1f} s after West left"

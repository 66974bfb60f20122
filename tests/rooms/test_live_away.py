"""Two Daphne processes sharing PostgreSQL and Redis tell one absent friend's deadline alike, and
the computer takes the seat at that deadline, and a friend who comes back to the other process is
told what happened meanwhile (issue 15, item 3).

The host (South) is on one process, the friend who leaves (West) and a second friend (North) on
the other. Every socket is told the same deadline, from the presence rows both processes share;
the heartbeats are far apart, so only the wake-up at the deadline can make the computer move.
"""

import asyncio
import time

import pytest

from games.rooms.recap import RECAP_MOVES
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


def without_drawn_cards(events: list) -> list:
    return [{k: v for k, v in event.items() if not (event["type"] == "draw" and k == "cards")} for event in events]


def test_a_friend_back_on_another_process_is_told_every_move_since_he_left(daphne, postgres_url, redis_url):
    """West leaves a socket of one process and comes back to the other: the recap is read from
    the stored moves (more than the 60 versions the old in-memory list kept), the last RECAP_MOVES
    of them, each as West's patch would have told it (no other seat's drawn card)."""
    first = daphne(postgres_url, REDIS_URL=redis_url, **ENV)
    second = daphne(postgres_url, REDIS_URL=redis_url, **ENV)
    host, leaver = Browser(first.http), Browser(second.http)
    game = host.post("/api/games", {"mode": "friends"})
    leaver.post(f"/api/games/{game['id']}/join", {"seat": "W"})
    host.post(f"/api/games/{game['id']}/start", {})
    south, west = WsPlayer(host, first.ws, game["id"]), WsPlayer(leaver, second.ws, game["id"])

    async def scenario():
        await south.open()
        await west.open()
        await presence_where(south, lambda m: m["seats"]["W"] == "connected")
        await west.close()
        left = time.time()
        await presence_where(south, lambda m: m["seats"]["W"] == "disconnected")
        await south.play_until(70, timeout=60)  # South's turns; the computer plays West after the grace
        await south.close()
        await asyncio.sleep(max(0.0, left + 5.5 - time.time()))  # longer than a reload (RECAP_AFTER_SECONDS)
        back = WsPlayer(leaver, first.ws, game["id"])  # the other process
        state = await back.open()
        await back.close()
        return state, {patch["v"]: patch["events"] for patch in south.patches}

    state, south_told = run(scenario())
    recap = state["recap"]
    assert state["seat"] == "W" and recap["from"] == 1 and recap["v"] == state["v"] >= 70
    assert recap["earlier"] == recap["v"] - RECAP_MOVES
    assert [entry["v"] for entry in recap["moves"]] == list(range(recap["v"] - RECAP_MOVES + 1, recap["v"] + 1))
    movers = set()
    for entry in recap["moves"]:
        for event in entry["events"]:
            if event["type"] == "draw":
                movers.add(event["seat"])
                assert ("cards" in event) == (event["seat"] == "W"), f"v{entry['v']}: {event}"
        if entry["v"] in south_told:
            assert without_drawn_cards(entry["events"]) == without_drawn_cards(south_told[entry["v"]])
    assert movers == set("SWNE"), "the computer's moves for West are told too"

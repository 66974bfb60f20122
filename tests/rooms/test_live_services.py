"""Two Daphne processes sharing PostgreSQL and Redis serve one friends room.

The host is on one process, the friend on the other; both play their seats (South and North),
the bots play East and West, and both see every version, in order, with the same events.
"""

import asyncio

import pytest

from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer, run

pytestmark = pytest.mark.services

ENV = {
    "FOOT_BOT_FACTORY": "tests.rooms.simple_player:make_bot",
    "FOOT_BOT_POOL": "thread",
    "FOOT_WS_RATE": 1000,
    "FOOT_WS_BURST": 1000,
}
TARGET_VERSION = 60


async def play_up_to(player: WsPlayer, target: int) -> None:
    while player.opened_version() < target:
        if player.my_turn():
            await player.play_turn()
        else:
            await player.next_message("patch")


def public_events(patch: dict) -> list:
    return [(event["type"], event.get("seat"), event.get("card"), event.get("count")) for event in patch["events"]]


def test_two_daphnes_serve_one_friends_room(daphne, postgres_url, redis_url):
    first = daphne(postgres_url, REDIS_URL=redis_url, **ENV)
    second = daphne(postgres_url, REDIS_URL=redis_url, **ENV)
    host, friend = Browser(first.http), Browser(second.http)
    game = host.post("/api/games", {"mode": "friends"})
    joined = friend.post(f"/api/games/{game['id']}/join", {"seat": "N"})
    assert joined["seat"] == "N" and joined["id"] == game["id"]
    south, north = WsPlayer(host, first.ws, game["id"]), WsPlayer(friend, second.ws, game["id"])

    async def scenario():
        lobby = await south.open()
        assert lobby["status"] == "lobby" and lobby["view"] is None
        await north.open()
        started = await asyncio.to_thread(host.post, f"/api/games/{game['id']}/start", {})
        assert started["status"] == "playing"
        for player in (south, north):  # the start reaches both processes' sockets as a fresh state
            while player.view is None:
                await player.next_message("state")
        await asyncio.wait_for(
            asyncio.gather(play_up_to(south, TARGET_VERSION), play_up_to(north, TARGET_VERSION)), timeout=120
        )
        for player in (south, north):
            await player.sync_matches()
            await player.close()

    run(scenario())
    assert south.seat == "S" and north.seat == "N"
    for player in (south, north):
        assert [patch["v"] for patch in player.patches] == list(range(1, len(player.patches) + 1))
        states = [message for _v, message in player.frames if message["type"] == "state"]
        assert all(state["v"] in (0, player.version) for state in states)  # no resync was needed
    common = min(len(south.patches), len(north.patches))
    assert common >= TARGET_VERSION
    for mine, theirs in zip(south.patches[:common], north.patches[:common], strict=True):
        assert public_events(mine) == public_events(theirs)
    presence = [m["seats"] for _v, m in south.frames if m["type"] == "presence"]
    assert any(seats["S"] == "connected" and seats["N"] == "connected" for seats in presence)

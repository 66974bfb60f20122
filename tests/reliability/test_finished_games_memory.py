"""A finished game leaves nothing in a server's memory (issue 26, item 7: the soak's leak).

A real Daphne on PostgreSQL and Redis: a person opens several games in their last deal, each
socket getting the `state` a page gets (which replays the recent events and used to keep them),
and goes out (R49, R56: the game ends). The server's in-memory caches (games.rooms.live_games,
read through the /test/cached-games hook) then hold none of them; a game still being played is
kept, as the cache means it to be.
"""

import asyncio

import pytest

from tests.engine.helpers import GOING_OUT_ACTIONS, last_deal_position
from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer, run

from .conftest import SIMPLE_BOTS

pytestmark = pytest.mark.services

GAMES = 4


async def go_out(player: WsPlayer) -> dict:
    """Open the game's socket (its `state`), meld the queens and discard the last card: the view."""
    await player.open()
    for action in GOING_OUT_ACTIONS:
        answer = await player.act(action)
        assert answer["type"] == "patch", answer
    await player.close()
    return player.opened_view()


async def cached_while_playing(player: WsPlayer, browser: Browser) -> dict:
    """Play a few moves, then, the computers waiting for this player's turn, what the server keeps."""
    await player.open()
    await player.play_until(4, timeout=60)
    if not player.my_turn():
        await player.until(lambda message: player.my_turn(), timeout=20)
    cached = await asyncio.to_thread(browser.get, "/test/cached-games")
    await player.close()
    return cached


def test_finished_games_leave_no_cached_game_in_the_server(daphne, postgres_url, redis_url):
    server = daphne(postgres_url, **SIMPLE_BOTS, REDIS_URL=redis_url)
    browser = Browser(server.http)
    for _ in range(GAMES):
        game = browser.post("/test/start-position", {"position": last_deal_position(), "level": "easy"})
        view = run(go_out(WsPlayer(browser, server.ws, game["id"])))
        assert view["phase"] == "over" and view["winner"] == "NS"
    assert browser.get("/test/cached-games") == {"live": 0, "replayed": 0}

    going_on = browser.post("/api/games", {"mode": "solo", "level": "easy"})
    assert run(cached_while_playing(WsPlayer(browser, server.ws, going_on["id"]), browser)) == {
        "live": 1,
        "replayed": 1,
    }

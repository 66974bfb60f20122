"""An outsider never learns a friends game's invite code (issue 24, finding 11).

The socket's `state` gives the code only to a seated player; `GET /api/games/<id>` gave it to anyone
who knew the game's id (a spectator, a watcher), who could then take a free seat. On a real Daphne:
the host and the invited friend see the code in both, an outsider in neither.
"""

import asyncio

from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer


async def first_state(server, game_id: str, browser: Browser) -> dict:
    player = WsPlayer(browser, server.ws, game_id)
    try:
        return await player.open()
    finally:
        await player.close()


def test_the_invite_code_is_shown_to_the_seated_only_in_the_api_as_in_the_state(daphne, sqlite_url):
    server = daphne(sqlite_url)
    host, friend, outsider = Browser(server.http), Browser(server.http), Browser(server.http)
    lobby = host.post("/api/games", {"mode": "friends"})
    code = lobby["code"]
    assert len(code) == 6
    friend.post(f"/api/games/{lobby['id']}/join", {"seat": "N"})
    for seated in (host, friend):
        assert seated.get(f"/api/games/{lobby['id']}")["code"] == code
        assert asyncio.run(first_state(server, lobby["id"], seated))["code"] == code
    assert asyncio.run(first_state(server, lobby["id"], outsider))["code"] is None
    assert outsider.get(f"/api/games/{lobby['id']}")["code"] is None

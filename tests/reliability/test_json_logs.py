"""LOG_FORMAT=json (issue 26, item 3): a real Daphne at LOG_LEVEL=DEBUG writes one JSON object per
line, with time, level, process, game id, seat and request id, and its whole log of a game (a
personal link made and used, a solo game played for dozens of versions, a refused move) names
no personal link's token, no seed and no hand of any seat.
"""

import json
import sqlite3

import pytest

from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer, run

from .conftest import SIMPLE_BOTS

pytestmark = pytest.mark.services

TARGET_VERSION = 60
FIELDS = {"time", "level", "logger", "process", "game_id", "seat", "request_id", "message"}


def secrets_of(database: str, game_id: str) -> tuple[str, list[str]]:
    """The game's seed and the hands and feet (as stored: cards joined by spaces) at its last version."""
    with sqlite3.connect(database) as db:
        seed, position = db.execute(
            "select seed, position from games_game where id = ?", (game_id.replace("-", ""),)
        ).fetchone()
    stored = json.loads(position)
    hidden = [*stored["hands"].values(), *stored["feet"].values()]
    return str(seed), [cards for cards in hidden if cards and len(cards.split()) >= 3]


def test_json_log_of_a_whole_game_holds_no_secret(daphne, sqlite_url):
    server = daphne(sqlite_url, LOG_FORMAT="json", LOG_LEVEL="DEBUG", **SIMPLE_BOTS)
    owner = Browser(server.http)
    status, link = owner.call("/api/link", {})
    assert status == 200
    token = link["url"].split("/")[2]
    other = Browser(server.http)
    with other.opener.open(server.http + link["url"], timeout=30) as page:  # the confirmation page
        assert page.status == 200
    game = owner.post("/api/games", {"mode": "solo", "level": "easy"})
    south = WsPlayer(owner, server.ws, game["id"])

    async def scenario():
        await south.open()
        await south.play_until(TARGET_VERSION, timeout=120)
        await south.send({"type": "action", "action": {"type": "draw"}, "v": 0, "ref": "old"})
        await south.until(lambda message: message.get("ref") == "old")
        await south.close()

    run(scenario())
    server.stop()
    lines = [line for line in server.log_path.read_text().splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert all(set(record) >= FIELDS for record in records)
    moves = [r for r in records if r["message"].startswith("move v") and r["game_id"] == game["id"]]
    assert len(moves) >= TARGET_VERSION // 4 - 2 and all(r["seat"] == "S" for r in moves)
    assert all(r["request_id"] for r in moves)  # the socket's
    access = [r for r in records if r["logger"] == "foot.access"]  # the front's, with the request's id
    assert all(r["request_id"] for r in access)
    assert any(r["message"] == f"websocket open /ws/game/{game['id']}/" and r["game_id"] == game["id"] for r in access)
    assert any(r["message"].startswith("POST /api/games 201 ") for r in access)
    assert any(r["message"].startswith("GET /me/[redacted]/ 200 ") for r in access)

    whole = "\n".join(lines)
    seed, hidden = secrets_of(sqlite_url.removeprefix("sqlite:///"), game["id"])
    assert token not in whole
    assert seed not in whole
    for cards in hidden:
        assert cards not in whole
    for key in ('"hands"', '"feet"', '"stock"', "position"):
        assert key not in whole

"""A cached replay is sent as its compressed bytes; cookie-less callers get a tighter window
(issue 24, finding 6).

`/api/watch/<id>` from the cache still inflated the replay, parsed it and wrote it again (140–370
ms of the shared thread under load). Now the cache keeps the replay as a raw deflate part and the
answer is a `deflate` body made of the request's own fields around those bytes, sent as they are
(games.deflate_parts); a client that does not take `deflate` gets the same JSON plain. Callers
without a session cookie (scripts; the page always has one) also count against their network's
FOOT_LIMIT_REPLAY_COOKIELESS_NETWORK. On a real Daphne, with a game whose first deal was played.
"""

import json
import sqlite3
import time
import urllib.error
import urllib.request
import zlib

from tests.reliability.clients import a_finished_first_deal
from testsupport.clients import Browser


def fetch(url: str, headers: dict) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), refused.read()


def test_a_cached_replay_is_sent_compressed_as_it_is_and_cookieless_callers_are_held_tighter(daphne, sqlite_url):
    server = daphne(sqlite_url, FOOT_LIMIT_REPLAY_COOKIELESS_NETWORK="3/60")
    player = Browser(server.http)
    game_id = player.post("/test/start-position", a_finished_first_deal())["id"]
    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///")) as database:  # as the room does at a game's end
        database.execute("UPDATE games_game SET status = 'finished' WHERE id = ?", (game_id.replace("-", ""),))
    url = f"{server.http}/api/watch/{game_id}"
    cookie = {"Cookie": player.cookie_header()}
    status, _headers, plain = fetch(url, cookie)  # builds the replay and caches it
    assert status == 200
    expected = json.loads(plain)
    assert expected["seat"] == "S" and expected["total_steps"] == len(expected["steps"]) + 1 > 100
    started = time.perf_counter()
    for _ in range(10):
        status, headers, body = fetch(url, {**cookie, "Accept-Encoding": "gzip, deflate, br"})
        assert status == 200 and headers.get("Content-Encoding") == "deflate", headers
        assert json.loads(zlib.decompress(body)) == expected  # Adler-32 checked too
    per_call = (time.perf_counter() - started) / 10 * 1000
    print(f"cached, compressed: {per_call:.1f} ms a call, {len(body)} of {len(plain)} bytes")
    assert "Accept-Encoding" in headers.get("Vary", "")
    bare = [fetch(url, {})[0] for _ in range(5)]
    assert bare == [200, 200, 200, 429, 429], bare
    assert fetch(url, cookie)[0] == 200  # a caller with a cookie is not held by that window

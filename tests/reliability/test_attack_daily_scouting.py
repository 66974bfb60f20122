"""A ranked daily prepared by scouting is flagged for the moderators (issue 24, finding 4).

The deal and the bots of a date are the same for everyone, and a new cookie jar is a new player
whose first daily is ranked: a scout plays the first moves of the daily, drops the run
unfinished (it leaves no entry, so no flag saw it) and a fresh cookie jar then plays the ranked
run knowing what comes. Now each daily's start is kept as keyed hashes of its network and session
(leaderboards.models.DailyStart, never an address), and an entry whose network started another
player's daily of the date, or whose first moves are those of another daily of the date, finished
or not, is flagged "scouted" in the admin with the evidence. Nothing is unranked or hidden by it.

On a real Daphne: a scout starts the daily and plays ten moves, a second cookie jar of the same
network plays the whole ranked daily with the same moves (one seeded bot plays South for both).
A moderator sees the flag and its reasons in the admin.
"""

import asyncio
import re
import sqlite3
import subprocess
import sys
import urllib.parse
import urllib.request

import psycopg
import pytest

from games import bots
from testsupport.clients import Browser
from testsupport.daphne import ROOT
from testsupport.ws_player import WsPlayer

SCOUT_ACTIONS = 10
# A bot plays South here, faster than the socket's flood limit lets a person; one browser address.
SERVER = {"FOOT_LIMIT_NETWORK_FACTOR": 100, "FOOT_WS_RATE": 1000, "FOOT_WS_BURST": 1000}


async def play_daily(server, browser: Browser, game_id: str, actions: int | None) -> int:
    """Play South with a seeded normal bot: `actions` of its moves, or to the game's end."""
    player = WsPlayer(browser, server.ws, game_id, on_gap="resync")
    await player.open()
    south = bots.make_bot("normal", seed=7)
    played = 0
    try:
        while actions is None or played < actions:
            view = player.opened_view()
            if view["phase"] == "over":
                break
            if player.my_turn():
                answer = await player.act(south.act(view), timeout=60)
                assert answer["type"] == "patch", answer
                played += 1
                if any(event["type"] == "deal_end" for event in answer["events"]):
                    await player.send({"type": "next_deal"})
            else:
                message = await player.next_message("patch", "state", timeout=60)
                if message["type"] == "patch" and any(e["type"] == "deal_end" for e in message["events"]):
                    await player.send({"type": "next_deal"})
    finally:
        await player.close()
    return played


def moderator_page(server, env: dict, path: str) -> str:
    """The admin page at `path` as a new superuser sees it."""
    subprocess.run(
        [sys.executable, "manage.py", "createsuperuser", "--noinput", "--username", "mod", "--email", "m@x.org"],
        cwd=ROOT,
        env={**env, "DJANGO_SUPERUSER_PASSWORD": "a long moderator password 24"},
        check=True,
        capture_output=True,
        timeout=60,
    )
    moderator = Browser(server.http)
    login = server.http + "/admin/login/"
    with moderator.opener.open(login, timeout=30) as page:
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.read().decode())
        assert found, "the admin's login page has no CSRF token"
        token = found.group(1)
    form = {"username": "mod", "password": "a long moderator password 24", "csrfmiddlewaretoken": token, "next": path}
    request = urllib.request.Request(login, data=urllib.parse.urlencode(form).encode(), headers={"Referer": login})
    with moderator.opener.open(request, timeout=30) as answer:
        return answer.read().decode()


def test_a_ranked_daily_after_a_dropped_scouting_run_is_flagged_with_the_evidence(daphne, sqlite_url):
    server = daphne(sqlite_url, **SERVER)
    scout_then_rank(server)
    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///")) as database:
        check_evidence(database.execute)
    check_the_admin(server)


@pytest.mark.services
def test_the_scouting_flag_on_postgresql_and_redis(daphne, postgres_url, redis_url):
    server = daphne(postgres_url, REDIS_URL=redis_url, **SERVER)
    scout_then_rank(server)
    with psycopg.connect(postgres_url.replace("postgres://", "postgresql://")) as database:
        check_evidence(database.execute)
    check_the_admin(server)


def scout_then_rank(server) -> None:
    scout, ranked = Browser(server.http), Browser(server.http)
    scouting = scout.post("/api/games", {"mode": "daily"})
    assert scouting["ranked"] is True  # a new cookie jar: its first daily ranks
    assert asyncio.run(play_daily(server, scout, scouting["id"], SCOUT_ACTIONS)) == SCOUT_ACTIONS
    run = ranked.post("/api/games", {"mode": "daily"})
    assert run["ranked"] is True
    asyncio.run(play_daily(server, ranked, run["id"], None))


def check_evidence(execute) -> None:
    """The stored starts and the entry's evidence: keyed hashes, one network, two cookie jars."""
    starts = execute("SELECT network, session, ranked FROM leaderboards_dailystart").fetchall()
    entries = execute("SELECT game_id, start_network, scout_opening FROM leaderboards_entry").fetchall()
    assert len(starts) == 2 and len(entries) == 1
    for network, session, _ranked in starts:  # keyed hashes, never the address or the cookie
        assert re.fullmatch(r"[0-9a-f]{64}", network) and "127.0.0.1" not in network
        assert re.fullmatch(r"[0-9a-f]{32}", session)
    assert starts[0][0] == starts[1][0] and starts[0][1] != starts[1][1]  # one network, two cookie jars
    assert entries[0][1] == starts[0][0] and entries[0][2]


def check_the_admin(server) -> None:
    page = moderator_page(server, server.env, "/admin/leaderboards/entry/?flag=scouted")
    page = page.replace("&#x27;", "'")
    assert "scouted: 1 other players' dailies of" in page, page[-3000:]
    assert "started from its network" in page and "with its first 10 moves" in page
    assert "unfinished" in page

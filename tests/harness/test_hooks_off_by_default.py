"""The test hooks exist only when FOOT_TEST_HOOKS turns them on; the default settings expose none.

A real Daphne started with the default settings (no FOOT_TEST_HOOKS) but with FOOT_FAULT and
FOOT_BOT_FACTORY in its environment: the start-position and cached-games routes answer 404, the
echo socket is refused, a game is played through the point where FOOT_FAULT would kill the
process, the real bots play (the factory named would fail on import), and the table's page
carries no data-test-hooks (so static/foot/table.js sets no window.footTable).
"""

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from games import bots
from games.rooms import bot_runner
from testsupport.clients import Browser
from testsupport.daphne import DaphneServer, server_env
from testsupport.ws_player import WsPlayer, run

ROOT = Path(__file__).resolve().parents[2]
FOOT_VARIABLES = ("FOOT_TEST_HOOKS", "FOOT_FAULT", "FOOT_BOT_FACTORY")


def test_the_settings_default_to_no_hooks():
    clean = {key: value for key, value in os.environ.items() if not key.startswith(FOOT_VARIABLES)}
    clean["DJANGO_SETTINGS_MODULE"] = "server.settings"
    code = (
        "from django.conf import settings as s; print(s.FOOT_TEST_HOOKS, repr(s.FOOT_FAULT), repr(s.FOOT_BOT_FACTORY))"
    )
    run_ = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60, check=True
    )
    assert run_.stdout.split() == ["False", "''", "''"]


def test_with_the_hooks_off_the_bot_factory_setting_is_ignored(settings):
    settings.FOOT_TEST_HOOKS = False
    settings.FOOT_BOT_FACTORY = "tests.rooms.simple_player:make_bot"
    assert bot_runner.factory_setting() == ""
    assert bot_runner.bot_factory(bot_runner.factory_setting()) is bots.make_bot
    settings.FOOT_TEST_HOOKS = True
    assert bot_runner.factory_setting() == "tests.rooms.simple_player:make_bot"


@pytest.mark.django_db
def test_the_table_page_marks_the_hooks_only_when_they_are_on(settings):
    settings.FOOT_TEST_HOOKS = True
    client = Client()
    game = json.loads(
        client.post("/api/games", {"mode": "solo", "level": "easy"}, content_type="application/json").content
    )
    assert "data-test-hooks" in client.get(game["url"]).content.decode()
    settings.FOOT_TEST_HOOKS = False
    assert "data-test-hooks" not in client.get(game["url"]).content.decode()


def test_a_server_with_default_settings_exposes_no_hook(tmp_path, sqlite_url):
    env = server_env(
        sqlite_url,
        FOOT_FAULT="after_commit@2",
        FOOT_BOT_FACTORY="no_such_module:make_bot",
        FOOT_WS_RATE=1000,
        FOOT_WS_BURST=1000,
    )
    del env["FOOT_TEST_HOOKS"]
    server = DaphneServer(env, tmp_path / "daphne.log").start()
    try:
        browser = Browser(server.http)
        page = browser.opener.open(server.http + "/rules/", timeout=20)
        assert page.status == 200
        status, _answer = browser.call("/test/start-position", {"position": {}})
        assert status == 404
        assert browser.call("/test/cached-games")[0] == 404

        async def echo_is_refused():
            with pytest.raises(InvalidStatus):
                async with connect(f"{server.ws}/ws/echo/", origin=Origin(server.http), open_timeout=10):
                    pass

        run(echo_is_refused())
        game = browser.post("/api/games", {"mode": "solo", "level": "easy"})
        table = browser.opener.open(server.http + game["url"], timeout=20).read().decode()
        assert "data-test-hooks" not in table and 'id="table"' in table

        async def play_past_the_fault():
            south = WsPlayer(browser, server.ws, game["id"])
            await south.open()
            try:
                await south.play_turn()  # draw: v1
                await south.play_turn()  # discard: v2, where FOOT_FAULT would exit after the commit
                while not south.my_turn():  # West, North and East play: the real bots, not the factory
                    await south.next_message("patch")
                assert south.opened_version() >= 8  # each drew and discarded, at least
                await south.sync_matches()
            finally:
                await south.close()

        run(asyncio.wait_for(play_past_the_fault(), 60))
        assert server.alive()
    finally:
        server.stop()

"""Crashes: kill -9 a Daphne mid-game, or make it exit at a point inside a move (FOOT_FAULT).

After a restart the client reconnects and resyncs: every move it saw acknowledged is stored,
the stored moves are exactly versions 1..v with no half-applied one (the log replays to the
stored position), and the game goes on.
"""

import functools
from collections.abc import Callable

import pytest
from websockets.exceptions import ConnectionClosed

from games.engine import Game as EngineGame
from tests.reliability.stored import assert_log_is_whole as assert_whole_log
from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer, run

from .live import stored_game, stored_version

SIMPLE_BOTS = {
    "FOOT_BOT_FACTORY": "tests.rooms.simple_player:make_bot",
    "FOOT_BOT_POOL": "process",
    "FOOT_WS_RATE": 1000,
    "FOOT_WS_BURST": 1000,
}
# Versions of a solo game: S draws (1) and discards (2), W (3, 4), N (5, 6), E (7, 8), S draws (9).
CASES = [
    ("after_apply", 4, 3),  # W's discard applied in memory, nothing written: v3 stays
    ("before_commit", 9, 8),  # South's own draw written but not committed: rolled back
    ("after_commit", 4, 4),  # committed, never broadcast: stored, the client learns it on resync
    ("after_commit", 9, 9),
    ("bot_thinking", 5, 4),  # N's answer computed, the process dies before applying it
]


async def play_until_the_server_dies(south: WsPlayer, limit: int = 200) -> None:
    try:
        while south.opened_version() < limit:
            if south.my_turn():
                await south.play_turn()
            else:
                await south.next_message("patch")
    except (TimeoutError, ConnectionClosed, OSError):
        return
    raise AssertionError("the server did not die")


def assert_log_is_whole(database: str, game_id: str) -> int:
    """The stored moves are versions 1..v exactly and replay to the stored position; returns v."""
    initial, moves = stored_game(database, game_id)
    version, position = stored_version(database, game_id)
    assert [seq for seq, _, _ in moves] == list(range(1, version + 1))
    replayed = EngineGame.from_position(initial)
    for _seq, seat, action in moves:
        replayed.apply(seat, action)
    assert replayed.to_position() == position
    return version


async def resume_and_play_a_round(browser, server, game_id, acknowledged: int) -> WsPlayer:
    south = WsPlayer(browser, server.ws, game_id)
    state = await south.open()
    assert state["v"] >= acknowledged and state["seat"] == "S"
    target = state["v"] + 10
    while south.version < target:  # the bots were advanced on connect; South plays its turns
        if south.my_turn():
            await south.play_turn()
        else:
            await south.next_message("patch")
    while not south.my_turn():
        await south.next_message("patch")
    await south.sync_matches()
    await south.close()
    return south


@pytest.mark.parametrize("point,at,stored_after_crash", CASES)
def test_a_crash_inside_a_move_loses_no_acknowledged_move(daphne, sqlite_url, point, at, stored_after_crash):
    server = daphne(sqlite_url, **SIMPLE_BOTS, FOOT_FAULT=f"{point}@{at}")
    database = sqlite_url.removeprefix("sqlite:///")
    crash_then_resume(server, functools.partial(assert_log_is_whole, database), at, stored_after_crash)


def crash_then_resume(server, whole_log: Callable[[str], int], at: int, stored_after_crash: int) -> None:
    """A solo game played until the server exits at its fault (before version `at` is
    acknowledged); `whole_log(game_id)` checks the stored log and gives its version, then the
    server restarts without the fault and South plays a round."""
    browser = Browser(server.http)
    game = browser.post("/api/games", {"mode": "solo", "level": "easy"})
    south = WsPlayer(browser, server.ws, game["id"])

    async def until_crash():
        await south.open()
        await play_until_the_server_dies(south)

    run(until_crash())
    assert server.wait_exit() == 137
    acknowledged = south.opened_version()
    assert acknowledged < at  # the move at the fault was never acknowledged
    assert whole_log(game["id"]) == stored_after_crash >= acknowledged
    server.start(FOOT_FAULT=None)
    run(resume_and_play_a_round(browser, server, game["id"], acknowledged))
    whole_log(game["id"])


def test_kill_9_while_the_bots_play_loses_no_acknowledged_move(daphne, sqlite_url):
    server = daphne(sqlite_url, **SIMPLE_BOTS)
    browser = Browser(server.http)
    game = browser.post("/api/games", {"mode": "solo", "level": "easy"})
    database = sqlite_url.removeprefix("sqlite:///")
    south = WsPlayer(browser, server.ws, game["id"])

    async def until_kill():
        await south.open()
        while south.opened_version() < 30:
            if south.my_turn():
                await south.play_turn()
            else:
                await south.next_message("patch")
        await south.play_turn() if south.my_turn() else None
        server.kill()  # mid-stream: the bots are answering South's move
        try:
            while True:
                await south.next_message("patch", timeout=5)
        except (TimeoutError, ConnectionClosed, OSError):
            pass

    run(until_kill())
    acknowledged = south.opened_version()
    assert assert_log_is_whole(database, game["id"]) >= acknowledged
    server.start()
    run(resume_and_play_a_round(browser, server, game["id"], acknowledged))
    assert_log_is_whole(database, game["id"])


# PostgreSQL with the bots in threads: the computers' turns after South's (W: 3, 4; N: 5, 6; E: 7,
# 8) are one statement (games.rooms.computer_turns), so a crash inside them keeps all or none.
TURN_CASES = [
    ("bot_thinking", 4, 2),  # W's discard decided, nothing written: W's draw is not stored either
    ("after_apply", 6, 2),  # W's and N's moves applied in memory only
    ("before_commit", 3, 2),  # the statement (versions 3 to 8) never sent
    ("after_commit", 3, 8),  # all of it committed, never broadcast: the client learns it on resync
]


@pytest.mark.services
@pytest.mark.parametrize("point,at,stored_after_crash", TURN_CASES)
def test_a_crash_inside_the_computers_turns_keeps_all_of_them_or_none(
    daphne, postgres_url, point, at, stored_after_crash
):
    bots_in_threads = {**SIMPLE_BOTS, "FOOT_BOT_POOL": "thread"}
    server = daphne(postgres_url, **bots_in_threads, FOOT_FAULT=f"{point}@{at}")
    crash_then_resume(server, functools.partial(assert_whole_log, postgres_url), at, stored_after_crash)


@pytest.mark.services
def test_the_page_hears_of_computer_moves_whose_commit_answer_was_lost(daphne, postgres_url):
    """The computers' moves after South's are stored, but their commit's answer never comes back (a
    connection cut then): the retry finds them stored (a stale version) and none of them was
    broadcast. The sockets are then sent the game's state; else the page would show a computer's
    turn for ever while the game waits for South."""
    bots_in_threads = {**SIMPLE_BOTS, "FOOT_BOT_POOL": "thread"}
    server = daphne(postgres_url, **bots_in_threads, FOOT_FAULT="after_commit@3:lost")
    browser = Browser(server.http)
    game = browser.post("/api/games", {"mode": "solo", "level": "easy"})
    south = WsPlayer(browser, server.ws, game["id"], on_gap="resync")  # as the page: a gap asks for the view

    async def play():
        await south.open()
        while south.my_turn():
            await south.play_turn()
        while not south.my_turn():  # never asks for the view unprompted: a quiet page waits
            await south.next_message("patch", "state", timeout=10)
        await south.sync_matches()
        await south.close()

    run(play())
    assert assert_whole_log(postgres_url, game["id"]) == south.opened_version() > 2

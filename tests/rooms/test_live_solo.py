"""A solo game through a real Daphne process and a real websocket client: one whole deal by
default, the whole game (four deals) with `-m slow`.

South plays a simple legal policy; the real `easy` bots play the rest. Every patch is applied to the previous
view and compared with a fresh sync at each of South's turns; every frame South got is checked
against the stored positions for hidden cards (no card of another seat, a foot or the stock).
"""

import asyncio
from pathlib import Path

import pytest

from games.engine import Game as EngineGame
from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer, run

from .live import cards_in, stored_game, stored_version


async def play(south: WsPlayer, deals: int, max_versions: int = 5000) -> None:
    """Play until `deals` deals have ended (4: the whole game)."""
    ended = 0
    while south.opened_view()["phase"] != "over":
        assert south.opened_version() < max_versions
        if south.deal_ended_in_last_patch():
            ended += 1
            if ended >= deals:
                return
            await south.send({"type": "next_deal"})  # the score was seen; the bots may go on
        if south.my_turn():
            await south.sync_matches()
            await south.play_turn()
        else:
            await south.next_message("patch")


def visible_cards(position: dict, seat: str) -> set[str]:
    """What `seat` may see in a position: its own active cards and everything face up."""
    seen = set((position["hands"][seat] or "").split()) | set((position["discard"] or "").split())
    for team in ("NS", "EW"):
        for meld in position["melds"][team]:
            seen |= set(meld.split())
        seen |= set((position["red_threes"][team] or "").split())
    return seen


def positions_by_version(initial: dict, moves) -> list[dict]:
    game = EngineGame.from_position(initial)
    positions = [game.to_position()]
    for _seq, seat, action in moves:
        game.apply(seat, action)
        positions.append(game.to_position())
    return positions


def assert_no_hidden_card_in_frames(frames, positions, moves, seat: str) -> None:
    actions_by_version = {seq: action for seq, _seat, action in moves}
    for version, message in frames:
        if version is None:
            continue
        if message.get("recent"):
            # A state's recent events: each told as its own version's patch told it, so each is
            # held to what the seat could see at that version (a card shown face up then counts).
            assert_no_hidden_card_in_frames(
                [(entry["v"], entry) for entry in message["recent"]], positions, moves, seat
            )
        told = {key: value for key, value in message.items() if key != "recent"}
        allowed = visible_cards(positions[version], seat) | {"3H", "3D"}  # red threes are laid face up
        if version > 0:
            allowed |= visible_cards(positions[version - 1], seat) | cards_in(actions_by_version[version])
        leaked = cards_in(told) - allowed
        assert not leaked, f"v{version} {told['type']} shows hidden cards {leaked}"
        for hidden_key in ("hands", "feet", "seed"):
            assert hidden_key not in str(told.get("view") or "")


def play_solo_over_daphne(daphne, sqlite_url, deals: int):
    server = daphne(
        sqlite_url, FOOT_BOT_POOL="process", FOOT_BOT_WORKERS=2, FOOT_WS_RATE=1000, FOOT_WS_BURST=1000
    )  # the test acts far faster than a person
    browser = Browser(server.http)
    game = browser.post("/api/games", {"mode": "solo", "level": "easy"})
    south = WsPlayer(browser, server.ws, game["id"])

    async def scenario():
        await south.open()
        try:
            await asyncio.wait_for(play(south, deals), timeout=300)
            await south.sync_matches()
        finally:
            await south.close()

    run(scenario())
    if deals == 4:
        final = south.opened_view()
        assert final["phase"] == "over" and final["winner"] in ("NS", "EW", "draw")
        assert browser.get(f"/api/games/{game['id']}")["status"] == "finished"
    else:
        assert south.opened_view()["deal"] == deals + 1
        assert browser.get(f"/api/games/{game['id']}")["status"] == "playing"
    database = sqlite_url.removeprefix("sqlite:///")
    initial, moves = stored_game(database, game["id"])
    version, position = stored_version(database, game["id"])
    assert [seq for seq, _, _ in moves] == list(range(1, version + 1))  # one move per version, no gap
    positions = positions_by_version(initial, moves)
    assert positions[-1] == position  # R59: the log replays the game
    assert [p["v"] for p in south.patches] == list(range(south.patches[0]["v"], version + 1))
    assert_no_hidden_card_in_frames(south.frames, positions, moves, "S")
    assert Path(database).exists()


def test_one_whole_deal_of_a_solo_game_over_a_real_daphne(daphne, sqlite_url):
    play_solo_over_daphne(daphne, sqlite_url, deals=1)


@pytest.mark.slow
def test_a_whole_solo_game_over_a_real_daphne(daphne, sqlite_url):
    play_solo_over_daphne(daphne, sqlite_url, deals=4)

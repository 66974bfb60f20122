"""No frame to a seat ever holds another seat's hidden cards: every frame of whole games is captured.

A friends game over a real Daphne: South and North are people (two browsers), a third browser
watches, the bots hold W and E. Every frame each socket received is checked against the stored
log, replayed move by move:
- a `state`'s view is exactly the engine's view of that seat (or the public view) at that version,
  and applying each `patch` to the previous view gives exactly the next one: nothing extra rides
  along in either;
- in a seat's view the only cards of its own are `hand` and `options` (which name only cards it
  holds); the public view has no hand and no options;
- events name a card drawn, a foot picked up or a card taken only to the seat it belongs to;
- no frame names a foot, the stock's cards or the seed.
"""

import asyncio

import jsonpatch
import pytest

from games.engine import Game as EngineGame
from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer, run

from .clients import cards_named
from .conftest import SIMPLE_BOTS
from .stored import stored_moves

FORBIDDEN_KEYS = {"feet", "stock_cards", "seed", "hands"}
PRIVATE_EVENT_FIELDS = {"cards"}  # on draw / foot events: only for the seat itself


def going_on(tab: WsPlayer, last_deal: int) -> bool:
    view = tab.opened_view()
    return view["phase"] != "over" and view["deal"] <= last_deal


async def play(players: list[WsPlayer], watcher: WsPlayer, last_deal: int) -> None:
    """Play until the game is over or deal `last_deal` has ended."""

    async def seat_loop(tab: WsPlayer):
        while going_on(tab, last_deal):
            if tab.my_turn():
                answer = await tab.play_turn()
                assert answer["type"] == "patch", answer
            else:
                message = await tab.next_message("patch", timeout=60)
                if any(event["type"] == "deal_end" for event in message["events"]):
                    await tab.send({"type": "next_deal"})

    async def watch_loop():
        while going_on(watcher, last_deal):
            await watcher.next_message("patch", timeout=60)

    await asyncio.wait_for(asyncio.gather(*(seat_loop(t) for t in players), watch_loop()), 600)


def views_by_version(initial: dict, moves: list) -> dict:
    """version -> {seat or None: view} for the whole game, replayed from the stored log."""
    game = EngineGame.from_position(initial)
    views = {0: snapshot(game)}
    for seq, seat, action in moves:
        game.apply(seat, action)
        views[seq] = snapshot(game)
    return views


def snapshot(game) -> dict[str | None, dict]:
    """What each seat sees, and (under None) what a watcher sees."""
    shot: dict[str | None, dict] = {seat: game.view(seat) for seat in "SWNE"}
    shot[None] = game.public_view()
    return shot


def assert_frames_reveal_nothing(tab: WsPlayer, views: dict) -> int:
    """Check every frame the tab got; returns how many frames were checked."""
    seat: str | None = None
    view: dict | None = None
    version: int | None = None
    for _version, frame in tab.frames:
        assert not (FORBIDDEN_KEYS & keys_in(frame)), frame
        if frame["type"] == "state":
            seat, view, version = frame["seat"], frame["view"], frame["v"]
            assert view == views[version][seat]
            for event in (event for entry in frame.get("recent", []) for event in entry["events"]):
                if event.get("seat") != seat and event["type"] in ("draw", "foot"):  # the recent events too
                    assert not (PRIVATE_EVENT_FIELDS & set(event)), f"{seat} was told {event} in a state"
        elif frame["type"] == "patch":
            assert version is not None, "a patch before the first state"
            assert frame["v"] == version + 1
            view = jsonpatch.apply_patch(view, frame["ops"])
            version = frame["v"]
            assert view == views[version][seat], f"patched view of {seat} at v{version} differs"
            for event in frame["events"]:
                if event.get("seat") != seat and event["type"] in ("draw", "foot", "red_three_draw"):
                    assert not (PRIVATE_EVENT_FIELDS & set(event)), f"{seat} was told {event}"
        if view is not None:
            assert_own_cards_only(view, seat)
    return len(tab.frames)


def assert_own_cards_only(view: dict, seat: str | None) -> None:
    if seat is None:
        assert "hand" not in view and "options" not in view
        return
    held = set(view["hand"])
    assert cards_named(view["options"]) <= held, "options name a card the seat does not hold"


def keys_in(value) -> set:
    found = set()
    if isinstance(value, dict):
        found |= set(value)
        for item in value.values():
            found |= keys_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= keys_in(item)
    return found


SEED = 0


def fix_seed(sqlite_url: str, game_id: str) -> None:
    """A fixed deal, set in the lobby before the start deals it: some seeds end a deal with a foot
    pickup whose red three finds the stock empty, and the engine then refuses its own position
    (reported to the engine's owner by the room tests); this test is about what frames show."""
    import sqlite3

    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), timeout=20) as db:
        db.execute("update games_game set seed = ? where id = ?", (SEED, game_id.replace("-", "")))


def check_frames_of_a_game(daphne, sqlite_url, last_deal: int) -> tuple[int, int]:
    """Play a friends game to the end of deal `last_deal` (or the end); (frames checked, moves)."""
    server = daphne(sqlite_url, **SIMPLE_BOTS, FOOT_NEXT_DEAL_TIMEOUT=1)
    host, friend, onlooker = Browser(server.http), Browser(server.http), Browser(server.http)
    status, lobby = host.call("/api/games", {"mode": "friends", "level": "easy"})
    assert status == 201
    assert friend.call(f"/api/games/{lobby['id']}/join", {"seat": "N"})[1]["seat"] == "N"
    fix_seed(sqlite_url, lobby["id"])
    assert host.call(f"/api/games/{lobby['id']}/start", {})[0] == 200
    south, north, watcher = (WsPlayer(b, server.ws, lobby["id"], on_gap="resync") for b in (host, friend, onlooker))

    async def scenario():
        for tab in (south, north, watcher):
            await tab.open()
        assert (south.seat, north.seat, watcher.seat) == ("S", "N", None)
        await play([south, north], watcher, last_deal)
        for tab in (south, north, watcher):
            await tab.close()

    run(scenario())
    initial, moves = stored_moves(sqlite_url, lobby["id"])
    views = views_by_version(initial, moves)
    checked = sum(assert_frames_reveal_nothing(tab, views) for tab in (south, north, watcher))
    assert checked > 3 * len(moves) * 0.9  # every seat saw (nearly) every version
    if last_deal >= 4:
        final = south.opened_view()
        assert final["phase"] == "over" and final["winner"] in ("NS", "EW", "draw")
    return checked, len(moves)


def test_no_frame_of_a_whole_deal_shows_another_seats_cards(daphne, sqlite_url):
    checked, moves = check_frames_of_a_game(daphne, sqlite_url, last_deal=1)
    print(f"one deal: {checked} frames checked over {moves} moves")


@pytest.mark.slow
def test_no_frame_of_a_whole_game_shows_another_seats_cards(daphne, sqlite_url):
    checked, moves = check_frames_of_a_game(daphne, sqlite_url, last_deal=4)
    print(f"whole game: {checked} frames checked over {moves} moves")

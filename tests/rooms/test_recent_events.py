"""The `state` message carries the current deal's recent events (games.recent_events): what each
move since the deal's start said, with its version, redacted for the reader exactly as the live
events are — never a card hidden from that seat — and the same after the cache is forgotten.

Whole games are played move by move through the room (every seat played by the simple player);
along the way the recent events of every seat and of a spectator are checked against an
independent replay of the same actions and against the events the live sockets were sent."""

import asyncio
import json

import pytest

from games.engine import Game as EngineGame
from games.engine import redact_events
from games.models import Game
from games.recent_events import RECENT_VERSIONS, recent_events
from games.rooms.creation import create_game
from games.rooms.live_games import LIVE, REPLAYED
from games.rooms.moves import apply_move
from games.rooms.seat_views import PUBLIC
from games.rooms.turns import _background
from players.models import Player

from .simple_player import simple_action

pytestmark = pytest.mark.django_db

READERS = ["S", "W", "N", "E", None]  # None: a spectator
PRIVATE = ("draw", "foot")  # events whose cards belong to their seat alone


def hidden_cards_told(entries: list, reader: str | None) -> list:
    """The events of a `recent` list that name cards the reader may not know."""
    return [
        event
        for entry in entries
        for event in entry["events"]
        if event["type"] in PRIVATE and event.get("seat") != reader and ("cards" in event or "card" in event)
    ]


def expected_window(raw: list) -> list:
    """The current deal's versions (from the one that started it), at most the last RECENT_VERSIONS."""
    starts = [i for i, (_v, events) in enumerate(raw) if any(e["type"] == "deal_start" for e in events)]
    return raw[max(starts, default=0) :][-RECENT_VERSIONS:]


def check_recent(game_id, raw: list, live_parts: dict) -> None:
    game = Game.objects.get(pk=game_id)
    window = expected_window(raw)
    for reader in READERS:
        recent = recent_events(game, reader)
        assert hidden_cards_told(recent, reader) == [], reader
        assert [entry["v"] for entry in recent] == [v for v, _events in window]
        assert recent == [{"v": v, "events": redact_events(events, reader)} for v, events in window], reader
        json.dumps(recent)  # goes on the wire as it is
    for key, part in live_parts.items():  # the last entry is what that live socket was sent
        reader = None if key == PUBLIC else key
        assert recent_events(game, reader)[-1]["events"] == part["events"]


def dealing(seed: int) -> list:
    events: list = []
    EngineGame.new(seed, events=events)
    return events


def play_whole_game(check_every: int) -> tuple[int, int]:
    game, _ = create_game(Player.objects.create(), "solo", "easy")
    mirror = EngineGame.from_position(game.initial_position)
    raw = [(0, dealing(game.seed))]
    check_recent(game.id, raw, {})
    checks = 0
    while mirror.turn is not None:
        seat = mirror.turn
        action = simple_action(mirror.view(seat))
        result = apply_move(game.id, seat, action, len(raw) - 1)
        raw.append((result.version, mirror.apply(seat, action)))
        if result.version % check_every == 0 or any(e["type"] in ("deal_start", "game_over") for e in raw[-1][1]):
            check_recent(game.id, raw, result.parts)
            checks += 1
        if result.version % 97 == 0:
            REPLAYED.take(game.id)  # another process, or a restart: the whole log is replayed again
    return len(raw) - 1, checks


@pytest.mark.parametrize("game_number", [1, 2])
def test_recent_events_of_whole_games_never_show_a_hidden_card(game_number):
    versions, checks = play_whole_game(check_every=5)
    assert versions > 200 and checks >= versions // 5
    print(f"whole game {game_number}: {versions} versions, {checks} checks of 5 readers")


def test_a_state_tells_the_dealt_red_threes_of_deal_one():
    seed = next(seed for seed in range(100) if any(e["type"] == "red_three" for e in dealing(seed)))
    game, _ = create_game(Player.objects.create(), "solo", "easy")
    position = EngineGame.new(seed).to_position()
    Game.objects.filter(pk=game.id).update(seed=seed, initial_position=position, position=position)
    REPLAYED.take(game.id)  # the log replayed so far was of the position before
    game.refresh_from_db()
    recent = recent_events(game, "N")
    assert recent == [{"v": 0, "events": redact_events(dealing(seed), "N")}]
    assert recent[0]["events"][0]["type"] == "deal_start"
    assert any(e["type"] == "red_three" for e in recent[0]["events"])


def test_a_game_from_a_prepared_position_has_no_dealing_events():
    game, _ = create_game(Player.objects.create(), "solo", "easy")
    assert game.initial_position is not None  # create_game dealt
    position = dict(game.initial_position, ply=5)
    Game.objects.filter(pk=game.id).update(initial_position=position, position=position)
    REPLAYED.take(game.id)  # the log replayed so far was of the position before
    game.refresh_from_db()
    assert recent_events(game, "S") == [{"v": 0, "events": []}]


def test_a_lobby_has_no_recent_events():
    lobby, _ = create_game(Player.objects.create(), "friends", "easy")
    assert recent_events(lobby, "S") == []


def test_a_stale_row_is_answered_from_its_own_version():
    """A reader holding an older row than the cache gets the events up to its row's version."""
    game, _ = create_game(Player.objects.create(), "solo", "easy")
    old = Game.objects.get(pk=game.id)
    engine_game = EngineGame.from_position(game.position)
    for _ in range(3):
        seat = engine_game.turn
        assert seat is not None
        action = simple_action(engine_game.view(seat))
        engine_game.apply(seat, action)
        apply_move(game.id, seat, action, Game.objects.get(pk=game.id).version)
    assert [entry["v"] for entry in recent_events(Game.objects.get(pk=game.id), "S")] == [0, 1, 2, 3]
    assert [entry["v"] for entry in recent_events(old, "S")] == [0]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_state_frame_of_a_socket_carries_them(settings):
    """Over the websocket: the spectator's `state` carries the recent events, redacted for it."""
    from channels.db import database_sync_to_async

    from .test_consumer import communicator, receive

    settings.FOOT_BOT_DELAY = 0
    game = await database_sync_to_async(lambda: create_game(Player.objects.create(), "solo", "easy")[0])()
    for _ in range(4):
        row = await database_sync_to_async(Game.objects.get)(pk=game.id)
        engine_game = EngineGame.from_position(row.position)
        seat = engine_game.turn
        assert seat is not None
        await database_sync_to_async(apply_move)(game.id, seat, simple_action(engine_game.view(seat)), row.version)
    comm = communicator(game.id)
    connected, _ = await comm.connect()
    assert connected
    state = await receive(comm, "state")
    assert state["seat"] is None and state["v"] == 4
    assert [entry["v"] for entry in state["recent"]] == [0, 1, 2, 3, 4]
    assert hidden_cards_told(state["recent"], None) == []
    await comm.disconnect()
    tasks = list(_background)  # the bots the connection set playing: stopped before the flush
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await database_sync_to_async(lambda: None)()


def test_finished_games_leave_nothing_in_memory():
    """The soak's leak (docs/PERFORMANCE.md): the `state` a socket got when it opened left the
    game's replayed entry behind after the game ended, about 30 KB a finished game, until a
    thousand other games pushed it out. Each game here is opened as the page opens it (a state
    for its seat) and played to its end; afterwards neither in-memory cache holds any of them."""
    finished = []
    for _ in range(3):
        game, _ = create_game(Player.objects.create(), "solo", "easy")
        recent_events(Game.objects.get(pk=game.id), "S")  # the state of the socket that opened
        assert REPLAYED.take(game.id) is not None  # kept while the game is played (then put back)
        recent_events(Game.objects.get(pk=game.id), "S")
        mirror, version = EngineGame.from_position(game.initial_position), 0
        while mirror.turn is not None:
            seat = mirror.turn
            action = simple_action(mirror.view(seat))
            version = apply_move(game.id, seat, action, version).version
            mirror.apply(seat, action)
        finished.append(Game.objects.get(pk=game.id))
    assert [game.status for game in finished] == [Game.FINISHED] * 3
    assert [REPLAYED.take(game.id) for game in finished] == [None] * 3
    assert [LIVE.peek(game.id, game.version) for game in finished] == [None] * 3
    assert recent_events(finished[0], "S")  # a reload of a finished game still tells its last deal
    assert REPLAYED.take(finished[0].id) is None  # and keeps nothing

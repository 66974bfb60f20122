"""The in-memory cache of live games (games.rooms.live_games): a speed-up that can never change a game.

Each test checks one promise of the module docstring: the cache is used only at the stored
version, a refused action leaves it as it was, a rolled-back move leaves nothing behind, and the
moves made with it give exactly the game a replay of the stored moves gives.
"""

import jsonpatch
import pytest

from games.engine import Game as EngineGame
from games.engine import RuleError
from games.models import Game
from games.replay import replay
from games.rooms import bot_plans, game_rows, moves, seat_views
from games.rooms.creation import create_game
from games.rooms.errors import RoomError
from games.rooms.live_games import LIVE, LiveGame, LiveGames
from games.rooms.moves import MoveResult, apply_move, next_deal
from games.rooms.seat_views import PUBLIC, view_for
from players.models import Player

from .simple_player import simple_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    game, _ = create_game(Player.objects.create(), "solo", "easy")
    return game


def play_one(game_id) -> MoveResult:
    stored = Game.objects.get(pk=game_id)
    engine_game = EngineGame.from_position(stored.position)
    seat = engine_game.turn
    assert seat is not None, "the game is over"
    return apply_move(game_id, seat, simple_action(engine_game.view(seat)), stored.version)


def test_a_committed_move_is_remembered_at_its_version(game):
    result = apply_move(game.id, "S", {"type": "draw"}, 0)
    views = LIVE.views(game.id, result.version)
    stored = EngineGame.from_position(Game.objects.get(pk=game.id).position)
    assert set(views) == {"S", PUBLIC}
    assert views["S"] == stored.view("S") and views[PUBLIC] == stored.public_view()
    assert LIVE.views(game.id, result.version - 1) == {}  # another version: nothing


def test_the_next_move_does_not_rebuild_the_game(game, monkeypatch):
    apply_move(game.id, "S", {"type": "draw"}, 0)

    def rebuilt(*args, **kwargs):
        raise AssertionError("the stored position was read again")

    for reader in (moves, bot_plans, seat_views):  # every room module that rebuilds a stored game
        monkeypatch.setattr(reader, "stored_engine_game", rebuilt)
    result = play_one(game.id)  # the discard: from memory
    assert result.version == 2


def test_an_entry_of_another_version_is_never_used(game):
    apply_move(game.id, "S", {"type": "draw"}, 0)
    behind = LIVE.take(game.id, 1)  # as if another process made the next move
    assert behind is not None
    play_one(game.id)
    LIVE.put(game.id, behind)  # this process still remembers version 1
    result = play_one(game.id)
    stored = Game.objects.get(pk=game.id)
    assert result.version == stored.version == 3
    assert stored.position == replay(stored).to_position()


def test_a_refused_action_keeps_the_entry_as_it_was(game):
    apply_move(game.id, "S", {"type": "draw"}, 0)
    before = LIVE.views(game.id, 1)
    with pytest.raises(RuleError):
        apply_move(game.id, "S", {"type": "draw"}, 1)  # R25: one draw a turn
    assert LIVE.views(game.id, 1) == before
    assert play_one(game.id).version == 2


def test_a_rolled_back_move_leaves_no_entry(game, monkeypatch):
    apply_move(game.id, "S", {"type": "draw"}, 0)
    # The conditional UPDATE finds another version (as on SQLite, where rows are not locked).
    monkeypatch.setattr(game_rows, "write_move", lambda *args: False)
    with pytest.raises(RoomError) as refused:
        play_one(game.id)
    assert refused.value.code == "stale_version"
    assert LIVE.views(game.id, 1) == {} and LIVE.views(game.id, 2) == {}
    monkeypatch.undo()
    assert play_one(game.id).version == 2  # rebuilt from the database


def test_a_whole_game_from_memory_equals_its_replay_and_patches_chain(game):
    views = {key: view_for(EngineGame.from_position(game.position), key) for key in ("S", PUBLIC)}
    result = None
    for _ in range(3000):
        result = play_one(game.id)
        for key, part in result.parts.items():
            views[key] = jsonpatch.apply_patch(views[key], part["ops"])
        if result.status == Game.FINISHED:
            break
        if result.awaiting:
            next_deal(game.id, "S")
    stored = Game.objects.get(pk=game.id)
    assert stored.status == Game.FINISHED  # R55: four deals played through
    final = replay(stored)
    assert stored.position == final.to_position()
    assert views == {"S": final.view("S"), PUBLIC: final.public_view()}


def test_the_cache_is_bounded():
    cache = LiveGames(capacity=2)
    for number in range(3):
        cache.put(f"g{number}", LiveGame(1, EngineGame.new(number), {"S": number}))
    assert len(cache) == 2 and cache.views("g0", 1) == {} and cache.views("g2", 1) == {"S": 2}

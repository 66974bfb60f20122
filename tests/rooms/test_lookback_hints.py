"""The hint and the look back agree, through the room service (issue #27 item 3): a deal in which
South plays only the steps the Hint offers (`turns.hint`, each action sent as "Play the hint"
sends it) gets a look back that recognises every one of South's moves as the hint, and calls none
of them a mistake. The real bots think here (no test factory), in threads."""

import datetime

import pytest
from channels.db import database_sync_to_async

from games import bots
from games.bots.hint import hint_bot
from games.bots.lookback import seat_decisions
from games.engine import Game as EngineGame
from games.models import Game
from games.rooms import bot_runner, lookback, turns
from games.rooms.creation import solo_seats, start
from games.rooms.moves import apply_move
from players.models import Player
from testsupport.rooms_fixtures import settled_rooms  # noqa: F401  (opt-in autouse fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
SEED = 2  # a deal whose look back has something to say about a hinted step (a deeper look)


@pytest.fixture
def real_bots(settings):
    settings.FOOT_BOT_FACTORY = ""
    settings.FOOT_BOT_POOL = "thread"
    settings.FOOT_LOOKBACK_POOL = "thread"
    yield
    bot_runner.shutdown_pool()


def solo_game() -> Game:
    player = Player.objects.create()
    game = Game(mode=Game.SOLO, level="normal", seats=solo_seats(player, "normal"), host=player, seed=SEED)
    return start(game)


async def play_deal_by_hints(game: Game) -> None:
    """Deal 1 through the room: South sends every action of the Hint's step in order; the others
    are the normal bot. Every action is accepted."""
    others = {seat: bots.make_bot("normal", seed=SEED) for seat in "WNE"}
    engine_game, version = EngineGame.from_position(game.position), game.version
    while engine_game.deal == 1 and engine_game.turn is not None:
        seat = engine_game.turn
        if seat == "S":
            actions = (await turns.hint(str(game.id), "S"))["actions"]
        else:
            actions = [others[seat].act(engine_game.view(seat))]
        assert actions
        for action in actions:
            await database_sync_to_async(apply_move)(game.id, seat, action, version)
            engine_game.apply(seat, action)
            version += 1


async def test_a_deal_played_by_the_hint_has_no_step_called_a_mistake(real_bots):  # issue #27 item 3
    game = await database_sync_to_async(solo_game)()
    await play_deal_by_hints(game)
    items = await lookback.look_back(str(game.id), "S", 1)
    assert all(item["hint"] == "played" for item in items), items
    assert items, "this deal's look back has a deeper look to tell (the plain-words case)"
    ready = await database_sync_to_async(lookback.deal_moves)(game, "S", 1)
    decisions = seat_decisions(ready["start"], ready["moves"], "S", ready["seed"], (), hint_bot(SEED, "S"))
    assert decisions and all(d.played == d.hint for d in decisions)  # every stored move is the hint shown


async def test_a_game_without_hints_gets_no_words_about_the_hint(real_bots):  # issue #27 item 3
    """A ranked daily offers no Hint (games.rooms.daily_play): its look back (once its date is
    over) says what the search preferred, never "as the hint suggested"."""
    game = await database_sync_to_async(solo_game)()
    await play_deal_by_hints(game)
    old = datetime.date(2026, 1, 2)
    await database_sync_to_async(Game.objects.filter(pk=game.id).update)(mode=Game.DAILY, daily_date=old, ranked=True)
    items = await lookback.look_back(str(game.id), "S", 1)
    assert items and all(item["hint"] is None for item in items), items

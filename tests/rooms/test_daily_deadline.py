"""A ranked daily played past its date's deadline, through the real websocket (issue 18, finding 1).

A ranked daily counts until the end of its UTC date plus the grace (games.daily_clock, R57: one
deal per date). Its first move after that unranks it: every socket of the game gets a fresh
`state` saying so (`ranked` false, `lapsed` true), the game goes on, and its end records nothing.
The leaderboard side (an entry refused by its last move's time) is tests/leaderboards/test_lb_deadline.py.
The clock is moved with FOOT_DAILY_GRACE_SECONDS, which places today's deadline where a test wants it.
"""

import asyncio
import datetime
import random

import jsonpatch
import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games import daily_clock
from games.engine import Game as EngineGame
from games.engine.playout import random_legal_action
from games.models import Game
from games.rooms.creation import create_game
from games.rooms.moves import apply_move
from games.rooms.turns import _background
from leaderboards import daily
from leaderboards.models import Entry
from players.models import Player
from testsupport.rooms_fixtures import fast_bots, settled_rooms  # noqa: F401  (opt-in autouse fixtures)

from .simple_player import simple_action
from .test_consumer import Follower, communicator, receive, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def deadline_at(settings, moment: datetime.datetime) -> None:
    """Put today's daily deadline at `moment` (the grace is what follows the date's end)."""
    date_end = daily_clock.ranked_until(daily.today()) - daily_clock.grace()
    settings.FOOT_DAILY_GRACE_SECONDS = (moment - date_end).total_seconds()


@pytest.fixture
def ranked_daily():
    player = Player.objects.create()
    game, _ = create_game(player, "daily")
    assert game.ranked and game.daily_date == daily.today()
    return game, session_cookie(player)


async def stored(game_id) -> Game:
    return await database_sync_to_async(Game.objects.get)(pk=game_id)


async def stop_the_bots():
    """Let the rooms' background turns end, so that the test alone moves the game on."""
    tasks = list(_background)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await database_sync_to_async(lambda: None)()


async def follow_until(socket: Follower, version: int) -> list:
    """Keep the socket's view up to `version`; the states it was sent meanwhile."""
    states = []
    while socket.opened_version() < version:
        message = await receive(socket.comm, "patch", "state")
        if message["type"] == "state":
            states.append(message)
            socket.view, socket.version = message["view"], message["v"]
        elif message["v"] > socket.opened_version():  # a patch a state already covered is skipped
            assert message["v"] == socket.opened_version() + 1
            socket.view, socket.version = jsonpatch.apply_patch(socket.view, message["ops"]), message["v"]
    return states


def play_to_the_end(game_id) -> Game:
    """Every seat's moves (random legal ones) through the room's one writer until the game is over."""
    game = Game.objects.get(pk=game_id)
    engine_game, rng, version = EngineGame.from_position(game.position), random.Random(1), game.version
    while engine_game.turn is not None:
        seat = engine_game.turn
        action = random_legal_action(engine_game, seat, rng)
        apply_move(game_id, seat, action, version)
        engine_game.apply(seat, action)
        version += 1
    return Game.objects.get(pk=game_id)


async def test_the_state_of_a_ranked_daily_says_until_when_it_counts(ranked_daily, settings):
    game, cookie = ranked_daily
    deadline_at(settings, timezone.now() + datetime.timedelta(minutes=5))
    comm = communicator(game.id, cookie)
    await comm.connect()
    state = await receive(comm, "state")
    assert state["ranked"] is True and state["lapsed"] is False
    deadline = datetime.datetime.fromisoformat(state["ranked_until"])
    assert deadline == daily_clock.ranked_until(daily.today()) and deadline.utcoffset() == datetime.timedelta(0)
    await comm.disconnect()


async def test_a_move_in_time_keeps_it_ranked_and_the_first_late_one_lapses_it_for_every_socket(ranked_daily, settings):
    game, cookie = ranked_daily
    deadline_at(settings, timezone.now() + datetime.timedelta(minutes=5))
    # Every socket of the game: the seat's two tabs (nobody else may watch a daily of today).
    seat, other_tab = Follower(communicator(game.id, cookie)), Follower(communicator(game.id, cookie))
    for socket in (seat, other_tab):
        await socket.comm.connect()
        await socket.start()

    await seat.comm.send_json_to({"type": "action", "action": {"type": "draw"}, "v": 0, "ref": "d"})
    assert (await seat.next_patch())["ref"] == "d"
    assert (await stored(game.id)).ranked, "a move before the deadline keeps the daily ranked"

    deadline_at(settings, timezone.now() - datetime.timedelta(seconds=1))  # the deadline has passed
    await seat.comm.send_json_to({"type": "action", "action": simple_action(seat.opened_view()), "v": 1, "ref": "x"})
    for socket in (seat, other_tab):
        # The late move and the bots' answers (W, N, E: to v8) are played; the game lapsed once,
        # on the first late move, so each socket got exactly one fresh state, which says so.
        states = await follow_until(socket, 8)
        assert len(states) == 1
        assert states[0]["ranked"] is False and states[0]["lapsed"] is True and states[0]["ranked_until"] is None
    assert seat.opened_view()["turn"] == "S"
    after = await stored(game.id)
    assert not after.ranked and after.lapsed
    for socket in (seat, other_tab):
        await socket.comm.disconnect()


async def test_a_lapsed_daily_records_nothing_when_it_ends_even_if_the_clock_says_it_would_count(
    ranked_daily, settings
):
    game, cookie = ranked_daily
    deadline_at(settings, timezone.now() - datetime.timedelta(seconds=1))
    comm = communicator(game.id, cookie)
    await comm.connect()
    await receive(comm, "state")
    await comm.send_json_to({"type": "action", "action": {"type": "draw"}, "v": 0})
    assert (await receive(comm, "state"))["lapsed"] is True
    await comm.disconnect()
    await stop_the_bots()
    # The deadline moved back (a clock set right again): the lapse stands, the room decided it.
    deadline_at(settings, timezone.now() + datetime.timedelta(hours=1))
    finished = await database_sync_to_async(play_to_the_end)(game.id)
    assert finished.status == Game.FINISHED and not finished.ranked and finished.lapsed
    assert await database_sync_to_async(daily.on_game_finished)(finished) is None
    assert not await database_sync_to_async(Entry.objects.exists)()


async def test_a_ranked_daily_finished_in_time_is_recorded(ranked_daily, settings):
    """The other side of the deadline: the same path, in time, ranks (so the test above tells)."""
    game, _ = ranked_daily
    deadline_at(settings, timezone.now() + datetime.timedelta(hours=1))
    finished = await database_sync_to_async(play_to_the_end)(game.id)
    assert finished.ranked and not finished.lapsed
    entry = await database_sync_to_async(Entry.objects.filter(game_id=game.id).first)()
    assert entry is not None


async def test_a_game_that_is_not_a_ranked_daily_has_no_deadline(ranked_daily, settings):
    game, cookie = ranked_daily
    player = await database_sync_to_async(Player.objects.get)(pk=game.seats["S"]["player"])
    solo, _ = await database_sync_to_async(create_game)(player, "solo", "easy")
    await database_sync_to_async(Game.objects.filter(pk=game.id).update)(status=Game.FINISHED)
    practice, _ = await database_sync_to_async(create_game)(player, "daily")  # the date's second: unranked
    assert not practice.ranked
    deadline_at(settings, timezone.now() - datetime.timedelta(seconds=1))
    for other in (solo, practice):
        comm = communicator(other.id, cookie)
        await comm.connect()
        state = await receive(comm, "state")
        assert state["ranked_until"] is None and state["lapsed"] is False and state["ranked"] is False
        await comm.send_json_to({"type": "action", "action": {"type": "draw"}, "v": 0, "ref": "d"})
        assert (await receive(comm, "patch"))["ref"] == "d"
        await comm.disconnect()
        assert not (await stored(other.id)).lapsed, "only a ranked daily can lapse"

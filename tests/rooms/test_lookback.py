"""The look back through the room and the socket (issue #14 item 6): only a seated player, for
their own seat, for a deal that is over, never in a daily before its date is over; worked out
once per (game, deal, seat) and read back after that; every refusal in en, de and bn, and it
changes nothing."""

import asyncio
import datetime
import os
import threading
import time
from concurrent.futures import BrokenExecutor, Executor

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from games import bots
from games.engine import Game as EngineGame
from games.messages import NEXT_STEPS, SERVER_MESSAGES, render_error
from games.models import Game, LookBack
from games.rooms import bot_runner, lookback
from games.rooms.creation import create_game, start
from games.rooms.errors import RoomError
from games.rooms.moves import apply_move
from players.models import Player
from testsupport.rooms_fixtures import fast_bots, settled_rooms  # noqa: F401  (opt-in autouse fixtures)
from testsupport.sockets import communicator, receive, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
CODES = (
    "look_back_bad_deal",
    "look_back_deal_not_over",
    "look_back_daily_later",
    "look_back_busy",
    "look_back_yours_waiting",
    "look_back_later",
)


def play_first_deal(game: Game) -> None:
    """Deal 1 played through the room to its end, one move at a time: South at random (it leaves
    the search much to say), the others the normal bot; the game is then at the start of deal 2."""
    players = {"S": bots.make_bot("random", seed=1), **{s: bots.make_bot("normal", seed=1) for s in "WNE"}}
    game.refresh_from_db()
    engine_game = EngineGame.from_position(game.position)
    version = game.version
    while engine_game.deal == 1:
        seat = engine_game.turn
        assert seat is not None
        action = players[seat].act(engine_game.view(seat))
        apply_move(game.id, seat, action, version)
        engine_game.apply(seat, action)
        version += 1


@pytest.fixture
def south():
    player = Player.objects.create()
    return player, session_cookie(player)


@pytest.fixture
def played(south, settings):
    """A solo game whose first deal is over, South's player's; the look back thinks in a thread.
    The game's seed is fixed: its deal has items of at least lookback.MIN_COST to show."""
    settings.FOOT_LOOKBACK_POOL = "thread"
    game, _ = create_game(south[0], "solo", "normal")
    game.seed = 1
    start(game)
    play_first_deal(game)
    yield Game.objects.get(pk=game.id)
    bot_runner.shutdown_pool()


@pytest.fixture
def counted(monkeypatch):
    """Every search the room starts, counted (the real search runs)."""
    calls = []
    real = bot_runner.compute_look_back

    def counting(*args):
        calls.append(args[2])
        return real(*args)

    monkeypatch.setattr(bot_runner, "compute_look_back", counting)
    return calls


async def test_a_seated_player_gets_their_own_look_back_once(played, counted):  # issue #14 item 6
    items = await lookback.look_back(str(played.id), "S", 1)
    assert 0 < len(items) <= 3 and counted == ["S"]
    moves = await database_sync_to_async(lambda: list(played.moves.order_by("seq")))()
    for item in items:
        assert moves[item["move"]].seat == "S"  # deal 1 starts at version 0: the index is the move's
        assert moves[item["move"]].action == item["played"] and item["better"] != item["played"]
    again = await lookback.look_back(str(played.id), "S", 1)
    assert again == items and counted == ["S"]  # read back, not searched again
    rows = await database_sync_to_async(lambda: list(LookBack.objects.filter(game=played)))()
    assert [(row.deal, row.seat, row.items) for row in rows] == [(1, "S", items)]


async def test_two_tabs_asking_at_once_share_one_search(played, counted):
    first, second = await asyncio.gather(
        lookback.look_back(str(played.id), "S", 1), lookback.look_back(str(played.id), "S", 1)
    )
    assert first == second and counted == ["S"]


async def test_the_stored_answer_serves_every_process(played, counted):  # a second Daphne reads the row
    await database_sync_to_async(LookBack.objects.create)(game=played, deal=1, seat="S", items=[{"move": 0}])
    assert await lookback.look_back(str(played.id), "S", 1) == [{"move": 0}]
    assert counted == []


async def test_the_socket_answers_with_the_items_and_refuses_a_spectator(played, south, counted):  # issue #14 item 6
    comm = communicator(played.id, south[1])
    await comm.connect()
    await receive(comm, "state")
    await comm.send_json_to({"type": "look_back", "deal": 1, "ref": "l1"})
    answer = await slow_receive(comm, "look_back", "error")
    assert answer["type"] == "look_back" and answer["deal"] == 1 and answer["ref"] == "l1", answer
    assert answer["items"] and all(
        {"played_parts", "better_parts", "points"} <= item.keys() for item in answer["items"]
    )
    await comm.disconnect()
    watcher = communicator(played.id)
    await watcher.connect()
    await receive(watcher, "state")
    await watcher.send_json_to({"type": "look_back", "deal": 1})
    assert (await receive(watcher, "error"))["code"] == "not_seated"
    await watcher.disconnect()
    assert counted == ["S"]


async def slow_receive(comm, *types):
    """The next message of one of `types`: a search of a whole deal takes seconds on a busy machine."""
    while True:
        message = await comm.receive_json_from(timeout=90)
        if message["type"] in types:
            return message


async def assert_refused(game_id, seat, deal, code, counted):
    version = (await database_sync_to_async(Game.objects.get)(pk=game_id)).version
    with pytest.raises(RoomError) as refused:
        await lookback.look_back(str(game_id), seat, deal)
    assert refused.value.code == code
    assert counted == []  # nothing searched
    assert not await database_sync_to_async(LookBack.objects.filter(game_id=game_id).exists)()
    assert (await database_sync_to_async(Game.objects.get)(pk=game_id)).version == version  # nothing changed


async def test_the_deal_in_progress_and_unknown_deals_are_refused(played, counted):  # issue #14 item 6
    await assert_refused(played.id, "S", 2, "look_back_deal_not_over", counted)
    for deal in (3, 4, 0, 5, "1", None, True, 1.0):
        await assert_refused(played.id, "S", deal, "look_back_bad_deal", counted)


async def test_only_a_seat_a_person_holds_may_ask(played, counted):  # issue #14 item 6: the seat's own
    await assert_refused(played.id, None, 1, "not_seated", counted)  # a spectator
    await assert_refused(played.id, "W", 1, "not_seated", counted)  # a bot's seat


async def test_a_daily_is_refused_until_its_date_is_over(played, counted):  # issue #14 item 6
    today = datetime.datetime.now(datetime.UTC).date()
    await database_sync_to_async(Game.objects.filter(pk=played.id).update)(
        mode=Game.DAILY, daily_date=today, ranked=True
    )
    await assert_refused(played.id, "S", 1, "look_back_daily_later", counted)
    await database_sync_to_async(Game.objects.filter(pk=played.id).update)(ranked=False)  # a second daily: same deals
    await assert_refused(played.id, "S", 1, "look_back_daily_later", counted)
    old = today - datetime.timedelta(days=2)
    await database_sync_to_async(Game.objects.filter(pk=played.id).update)(daily_date=old, ranked=True)
    assert await lookback.look_back(str(played.id), "S", 1) is not None
    assert counted == ["S"]


async def test_too_many_look_backs_waiting_are_refused(played, counted, settings, monkeypatch):  # 300 tables
    settings.FOOT_LOOKBACK_QUEUE = 0
    read: list[int] = []
    real = lookback.deal_moves

    def reading(*args):
        read.append(1)
        return real(*args)

    monkeypatch.setattr(lookback, "deal_moves", reading)
    await assert_refused(played.id, "S", 1, "look_back_busy", counted)
    assert read == []  # a refused ask does not read the deal's moves: it costs one read of the game


async def test_a_deals_moves_are_read_in_one_query(played):
    """Not one query per move (a reverse manager's only() reads each row's deferred game_id back)."""

    def read() -> tuple[dict, int]:
        with CaptureQueriesContext(connection) as queries:
            ready = lookback.deal_moves(played, "S", 1)
        return ready, len(queries)

    ready, queries = await database_sync_to_async(read)()
    assert queries == 1 and len(ready["moves"]) > 100
    assert ready["start"]["deal"] == 1 and ready["computer"] == []


@pytest.mark.parametrize("language", ["en", "de", "bn"])
async def test_every_refusal_says_why_and_what_next_in_each_language(language, german_catalogue):  # issue #14 item 2, 6
    with translation.override("en"):
        english = {code: render_error(code, "en") for code in CODES}
    for code in CODES:
        assert code in SERVER_MESSAGES and code in NEXT_STEPS
        text = render_error(code, language)
        assert text.count(".") >= 2 or text.count("।") >= 2, text  # the refusal, then the next step
        if language != "en":
            assert text != english[code], (language, code)
        if language == "bn":
            assert any("\u0980" <= letter <= "\u09ff" for letter in text), text  # Bengali script


async def test_the_search_runs_in_its_own_worker_process(played, settings):  # off the event loop, apart from the bots
    settings.FOOT_LOOKBACK_POOL = "process"
    settings.FOOT_LOOKBACK_WAIT = 600  # a worker's start on a loaded machine is no "later" here
    items = await lookback.look_back(str(played.id), "S", 1)
    assert items and await database_sync_to_async(LookBack.objects.filter(game=played, deal=1, seat="S").exists)()
    assert bot_runner.look_back_pool() is not bot_runner.pool("hard")
    worker = bot_runner.look_back_pool()
    assert worker.submit(os.sched_getscheduler, 0).result() == os.SCHED_IDLE  # only CPU nothing else wants
    assert worker.submit(os.nice, 0).result() >= settings.FOOT_LOOKBACK_NICE


async def test_the_socket_serves_other_messages_while_the_search_runs(played, south, monkeypatch):
    """A socket handles one message at a time: the search is answered by a task of its own, so the
    player's next_deal and moves are not held up behind it (issue #14 item 6: bench_load)."""
    release = threading.Event()

    def slow(*args):
        release.wait(30)
        return {"items": [], "rollouts": 0}

    monkeypatch.setattr(bot_runner, "compute_look_back", slow)
    comm = communicator(played.id, south[1])
    await comm.connect()
    await receive(comm, "state")
    await comm.send_json_to({"type": "look_back", "deal": 1, "ref": "l1"})
    await comm.send_json_to({"type": "sync"})
    assert (await receive(comm, "state", "look_back"))["type"] == "state"  # answered while the search runs
    release.set()
    answer = await slow_receive(comm, "look_back")
    assert answer == {"type": "look_back", "deal": 1, "items": [], "ref": "l1"}
    await comm.disconnect()


async def test_a_dead_look_back_worker_restarts_its_pool_and_leaves_the_bots_alone(played, counted):
    class Broken(Executor):
        def submit(self, *args, **kwargs):
            raise BrokenExecutor("a worker died")

        def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
            pass

    bots = bot_runner.pool("normal")
    bot_runner._pools["look_back"] = Broken()
    assert await lookback.look_back(str(played.id), "S", 1)
    assert counted == ["S"] and bot_runner.pool("normal") is bots  # the bots' pool was not stopped
    assert not isinstance(bot_runner._pools["look_back"], Broken)


async def test_the_state_says_whether_the_page_offers_look_back(played, south):  # issue #14 item 6
    async def offered(cookie=None) -> bool:
        comm = communicator(played.id, cookie)
        await comm.connect()
        state = await receive(comm, "state")
        await comm.disconnect()
        return state["look_back"]

    assert await offered(south[1]) is True
    assert await offered() is False  # someone watching
    today = datetime.datetime.now(datetime.UTC).date()
    await database_sync_to_async(Game.objects.filter(pk=played.id).update)(
        mode=Game.DAILY, daily_date=today, ranked=True
    )
    assert await offered(south[1]) is False  # its deals are everyone's deals today
    old = today - datetime.timedelta(days=2)
    await database_sync_to_async(Game.objects.filter(pk=played.id).update)(daily_date=old)
    assert await offered(south[1]) is True


async def test_a_look_back_worker_is_lowered_the_moment_it_starts(settings):
    """Before it imports Python, Django and the bots (over a second of CPU), not after."""
    settings.FOOT_LOOKBACK_NICE = 10
    process = bot_runner.LowPrioritySpawn().Process(target=time.sleep, args=(30,))
    process.start()
    try:
        assert process.pid is not None
        assert os.sched_getscheduler(process.pid) == os.SCHED_IDLE
        assert os.getpriority(os.PRIO_PROCESS, process.pid) >= 10
    finally:
        process.kill()
        process.join()


async def test_a_search_that_outlasts_the_wait_says_later_goes_on_and_is_read_next_time(played, settings, monkeypatch):
    settings.FOOT_LOOKBACK_WAIT = 0.2
    settings.FOOT_LOOKBACK_BUSY = 0.7
    release, limits = threading.Event(), []
    real = bot_runner.compute_look_back

    def waiting_for_idle_cpu(start, moves, seat, seed, computer, busy_limit, factory, hints_offered):
        limits.append(busy_limit)
        release.wait(30)
        return real(start, moves, seat, seed, computer, 1.0, factory, hints_offered)

    monkeypatch.setattr(bot_runner, "compute_look_back", waiting_for_idle_cpu)
    with pytest.raises(RoomError) as later:
        await lookback.look_back(str(played.id), "S", 1)
    assert later.value.code == "look_back_later" and limits == [0.7]  # the site's limit reached the worker
    search = lookback._running[(str(played.id), 1, "S")]  # it goes on
    release.set()
    items = await asyncio.wait_for(asyncio.shield(search), 90)
    assert await database_sync_to_async(LookBack.objects.filter(game=played, deal=1, seat="S").exists)()
    assert await lookback.look_back(str(played.id), "S", 1) == items and len(limits) == 1  # read, not searched again

"""The bot pool: answers off the event loop, deterministic seeds, and a new pool after a worker died."""

import asyncio
import os
import signal
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from games.rooms import bot_runner
from testsupport.ws_player import run


@pytest.fixture
def process_pool(settings):
    settings.FOOT_BOT_FACTORY = "tests.rooms.simple_player:make_bot"
    settings.FOOT_BOT_POOL = "process"
    settings.FOOT_BOT_WORKERS = 1
    bot_runner.shutdown_pool()
    yield
    bot_runner.shutdown_pool()


def test_each_seat_has_its_own_fixed_bot_seed():
    seeds = {seat: bot_runner.bot_seed(42, seat) for seat in "SWNE"}
    assert len(set(seeds.values())) == 4 and seeds == {seat: bot_runner.bot_seed(42, seat) for seat in "SWNE"}


def test_a_dead_worker_is_replaced(process_pool):
    from games.engine import Game

    view = Game.new(5).view("S")

    async def scenario():
        first = await bot_runner.think("easy", 1, view)
        processes = bot_runner.pool()
        assert isinstance(processes, ProcessPoolExecutor), "this test kills the process pool's workers"
        for process in list(processes._processes.values()):
            assert process.pid is not None  # a worker of a running pool was started
            os.kill(process.pid, signal.SIGKILL)
        await asyncio.sleep(0.5)
        second = await bot_runner.think("easy", 1, view)
        return first, second

    first, second = run(scenario())
    assert first == second == {"action": {"type": "draw"}, "reason": None}  # the simple player gives no reason


def test_a_decision_and_its_reason_cross_the_process_pool(settings):
    """A real bot's reason is plain data: it comes back from a worker process as it was made."""
    from games.bots.reasons import valid
    from games.engine import Game

    settings.FOOT_BOT_FACTORY = ""
    settings.FOOT_BOT_POOL = "process"
    settings.FOOT_BOT_WORKERS = 1
    bot_runner.shutdown_pool()
    try:
        view = Game.new(5).view("S")
        decision = run(bot_runner.think("normal", 3, view))
        assert decision == bot_runner.compute_decision("normal", 3, view)
        assert valid(decision["reason"]) and decision["action"]["type"] in ("draw", "take_pile")
    finally:
        bot_runner.shutdown_pool()


def test_hard_thinks_in_a_process_and_the_quick_levels_in_threads(settings):
    settings.FOOT_BOT_POOL = "mixed"  # the default
    assert [bot_runner.pool_kind(level) for level in ("easy", "normal", "hard")] == ["thread", "thread", "process"]
    for forced in ("process", "thread"):
        settings.FOOT_BOT_POOL = forced
        assert {bot_runner.pool_kind(level) for level in ("easy", "normal", "hard")} == {forced}


def test_the_hints_the_server_computes_are_legal():
    """The hint button's path (games.rooms.turns.hint): the HINT_LEVEL bot, seeded per seat, in the bot pool."""
    from games.bots.hint import HINT_LEVEL
    from games.engine import Game

    game = Game.new(seed=5)
    for _ in range(12):
        seat = game.turn
        assert seat is not None, "the game ended within 12 turns"
        hint = run(bot_runner.think(HINT_LEVEL, bot_runner.bot_seed(5, seat), game.view(seat)))["action"]
        assert game.check(seat, hint)["ok"], hint
        game.apply(seat, hint)


class BreaksLater(Executor):
    """A pool whose worker dies with every call already handed to it."""

    def __init__(self) -> None:
        self.waiting: list[Future] = []

    def submit(self, fn, /, *args, **kwargs) -> Future:
        self.waiting.append(Future())
        return self.waiting[-1]

    def break_now(self) -> None:
        for future in self.waiting:
            future.set_exception(BrokenExecutor("a worker died"))


def test_calls_waiting_on_a_pool_that_broke_share_one_new_pool():
    broken, made = BreaksLater(), []

    def executor() -> Executor:
        with bot_runner._pool_lock:
            if "look_back" not in bot_runner._pools:
                made.append(ThreadPoolExecutor(max_workers=1))
                bot_runner._pools["look_back"] = made[-1]
            return bot_runner._pools["look_back"]

    async def scenario() -> list[int]:
        bot_runner._pools["look_back"] = broken
        calls = [asyncio.ensure_future(bot_runner.in_pool("look_back", executor, pow, 2, n)) for n in range(5)]
        while len(broken.waiting) < 5:  # every call is waiting on the old pool
            await asyncio.sleep(0)
        broken.break_now()
        return list(await asyncio.gather(*calls))

    try:
        assert run(scenario()) == [1, 2, 4, 8, 16]
        assert len(made) == 1  # not one new pool (a process each) per call that was waiting
    finally:
        bot_runner.shutdown_pool()

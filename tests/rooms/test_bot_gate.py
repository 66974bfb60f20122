"""The bots' gate to the database threads (games.rooms.database_threads.bot_slot): a person's move never queues behind
more than one fewer bot moves than there are threads — SQLite: one bot move at a time."""

import asyncio
from types import SimpleNamespace

import pytest

from games.rooms import bot_runner, database_threads, turns
from games.rooms.bot_plans import BotPlan


class FakeDatabase:
    """Stands in for the database threads: `threads` servers taking calls in arrival order (as a
    thread pool's queue does), each call lasting `hold` seconds; counts the bot moves inside."""

    def __init__(self, threads: int = 1, hold: float = 0.01):
        self.hold, self.inside, self.most_inside = hold, 0, 0
        self.order: list[str] = []  # the names of the calls let in, in turn
        self.threads = threads
        self.servers: asyncio.Semaphore | None = None  # made in the test's event loop

    async def call(self, function, *args):
        self.servers = self.servers or asyncio.Semaphore(self.threads)
        self.inside += 1
        self.most_inside = max(self.most_inside, self.inside)
        try:
            async with self.servers:
                await asyncio.sleep(self.hold)
                name = getattr(function, "__name__", "person")
                self.order.append(name)
                result = SimpleNamespace(next_plan=None, settled=True, version=1)
                return [result] if name == "play_computer_turn" else result  # a computer's turn: its moves
        finally:
            self.inside -= 1


@pytest.fixture
def fake_database(monkeypatch):
    database = FakeDatabase()
    monkeypatch.setattr(turns, "with_db_retries", database.call)
    monkeypatch.setattr(bot_runner, "pool_kind", lambda level: "thread")

    async def no_broadcast(result, origin, ref):
        return None

    monkeypatch.setattr(turns, "broadcast", no_broadcast)
    return database


def plan(version: int = 0) -> BotPlan:
    return BotPlan(seat="W", level="easy", seed=1, view={}, version=version)


async def bot_moves_of(rooms_count: int):
    await asyncio.gather(*(turns.advance_once(f"game-{index}", plan()) for index in range(rooms_count)))


@pytest.mark.parametrize(("threads", "gate"), [(1, 1), (2, 1), (4, 3)])
def test_bot_moves_use_one_fewer_database_threads_than_there_are(fake_database, monkeypatch, threads, gate):
    monkeypatch.setattr(database_threads, "thread_count", lambda: threads)
    asyncio.run(bot_moves_of(8))
    assert fake_database.most_inside == gate
    assert fake_database.order == ["play_computer_turn"] * 8  # every room's bot still moved


def test_a_persons_move_waits_behind_one_bot_move_at_most(fake_database, monkeypatch):
    monkeypatch.setattr(database_threads, "thread_count", lambda: 1)

    def person_move():
        """The database call of a person's move, through the same queue as the bots'."""

    person_move.__name__ = "person"
    monkeypatch.setattr(turns, "database_call", lambda function: lambda *args: fake_database.call(person_move))

    async def scene():
        bots = asyncio.gather(*(turns.advance_once(f"game-{index}", plan()) for index in range(6)))
        await asyncio.sleep(0.002)  # six rooms' bot moves are due: one is inside, five wait at the gate
        await turns.act("game-9", "S", {"type": "draw"}, 0, origin="me", ref=1)
        await bots

    asyncio.run(scene())
    # Served second, right after the bot move that was already inside (without the gate: seventh).
    assert fake_database.order.index("person") == 1
    assert fake_database.order.count("play_computer_turn") == 6


def test_each_event_loop_has_its_own_gate(monkeypatch):
    monkeypatch.setattr(database_threads, "thread_count", lambda: 1)

    async def gate():
        return database_threads.bot_slot()

    assert asyncio.run(gate()) is not asyncio.run(gate())

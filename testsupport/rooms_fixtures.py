"""Fixtures of the tests that run the room service in this process (channels.testing, no server).

Both are autouse and opt-in: a test module takes one by importing it (an autouse fixture applies
to the module that imports it), so a module without them runs the real bots as configured.

- `fast_bots`: the trivial legal bots of tests/rooms/simple_player.py (draw, discard the first
  card) in threads, with no delay; the bot pool is shut down after the test.
- `settled_rooms`: after a test, the bots it left playing are stopped and their last database
  call ends before pytest-django flushes the database (else the flush can meet a live query).
"""

import asyncio

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async

from games.rooms import bot_runner, turns

SIMPLE_BOT_FACTORY = "tests.rooms.simple_player:make_bot"


@pytest.fixture(autouse=True)
def fast_bots(settings):
    settings.FOOT_BOT_FACTORY = SIMPLE_BOT_FACTORY
    settings.FOOT_BOT_POOL = "thread"
    settings.FOOT_BOT_DELAY = 0
    yield
    bot_runner.shutdown_pool()


@pytest_asyncio.fixture(autouse=True)
async def settled_rooms(request):
    yield
    tasks = list(turns._background)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if uses_the_database(request):  # a test without it has no DB call to wait for, and may not make one
        await database_sync_to_async(lambda: None)()  # queued behind any DB call still running


def uses_the_database(request) -> bool:
    return request.node.get_closest_marker("django_db") is not None or bool(
        {"db", "transactional_db"} & set(request.fixturenames)
    )

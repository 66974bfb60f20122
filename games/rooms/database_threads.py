"""The threads that serve the room service's database calls from the event loop: a small pool on
PostgreSQL, Channels' one database thread on SQLite; the gate the computer moves pass so that a
person's move never queues behind many of them; and retries of a dropped or busy connection.

May call games.rooms.config; it knows nothing of games, moves or bots beyond the gate.
"""

import asyncio
import functools
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar, TypeVarTuple

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import Error as DatabaseError
from django.db import connections

from games.rooms.config import setting

log = logging.getLogger(__name__)

Result = TypeVar("Result")
Arguments = TypeVarTuple("Arguments")

DB_RETRIES = 3
_AFTER_DATABASE_ERROR = "foot_after_database_error"  # marks an error raised by a retry
_bot_slots: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]" = weakref.WeakKeyDictionary()


def on_postgresql() -> bool:
    # Django's backend or django-prometheus's wrapper of it (server/settings.py).
    return settings.DATABASES["default"]["ENGINE"].endswith(".backends.postgresql")


def thread_count() -> int:
    """The threads that serve the rooms' database calls: FOOT_DB_THREADS on PostgreSQL, else one."""
    return int(setting("FOOT_DB_THREADS")) if on_postgresql() else 1


def bot_slot() -> asyncio.Semaphore:
    """The gate a computer move passes to use a database thread: one fewer than the threads, at
    least one. The threads serve their queue in order, so without it a person's move could wait
    behind the bot moves of every other busy room of the process (SQLite: one thread for all);
    with it, behind one bot move at most. One gate per event loop (tests run several)."""
    loop = asyncio.get_running_loop()
    if loop not in _bot_slots:
        _bot_slots[loop] = asyncio.Semaphore(max(1, thread_count() - 1))
    return _bot_slots[loop]


def database_call(function: Callable[[*Arguments], Result]) -> Callable[[*Arguments], Awaitable[Result]]:
    """`function` made awaitable in a database thread, for the room's own work (moves, plans).

    On PostgreSQL a small pool of threads (FOOT_DB_THREADS, default 4; each keeps a connection of
    the process's pool between calls: `in_database_thread`), so that one move's durable commit (a
    WAL flush) does not hold up every other room of the process, and concurrent commits share
    their flushes. The hand-off is the event
    loop's own `run_in_executor`: asgiref's (which Channels' helper uses) copies and restores
    every context variable and visits every connection around each call, a sizeable share of a
    move's CPU (docs/PERFORMANCE.md); the room's functions read no context variable, and only the
    default connection is used here, so it alone is looked after. SQLite takes one writer at a
    time, so there the one database thread of Channels serves them in turn.
    """
    if not on_postgresql():
        return database_sync_to_async(function)

    async def call(*args: *Arguments) -> Result:
        return await asyncio.get_running_loop().run_in_executor(
            postgresql_threads(), in_database_thread, function, args
        )

    return call


@functools.cache
def postgresql_threads() -> ThreadPoolExecutor:
    """The process's one pool of database threads on PostgreSQL, made on its first call."""
    return ThreadPoolExecutor(max_workers=thread_count(), thread_name_prefix="room-db")


def in_database_thread(function: Callable[[*Arguments], Result], args: tuple[*Arguments]) -> Result:
    """What Channels does around a call in its database thread (`close_old_connections`), for the
    one connection the rooms use: give it back when it broke or is old, before and after.

    Its age is the thread's own: Django's CONN_MAX_AGE is 0 with the pool (server/settings.py), so
    that a request's connection goes back at its end; a room thread, which makes every move's
    calls, keeps the connection it took for DB_THREAD_CONNECTION_SECONDS (taking one from the
    pool for each call, and its check, cost about 0.2 ms of CPU a call)."""
    connection = connections["default"]
    connection.close_if_unusable_or_obsolete()
    taken_here = connection.connection is None
    try:
        return function(*args)
    finally:
        if taken_here and connection.connection is not None:
            connection.close_at = time.monotonic() + settings.DB_THREAD_CONNECTION_SECONDS
        connection.close_if_unusable_or_obsolete()


async def with_db_retries(function: Callable[[*Arguments], Result], *args: *Arguments) -> Result:
    """Run a database step, retrying a dropped or busy connection: moves are versioned, so a retry
    after a commit whose answer was lost is refused as stale and never applies a move twice, and a
    socket's state read is read again (a connection cut while idle fails its next statement once)."""
    return await _retried(database_call(function), function.__name__, args)


def after_database_error(error: BaseException) -> bool:
    """Whether `error` was raised by a retry, after a database error: the first try's write may
    then be stored with its answer lost, so a stale refusal can be the caller's own write."""
    return bool(getattr(error, _AFTER_DATABASE_ERROR, False))


async def _retried(call: Callable[[*Arguments], Awaitable[Result]], name: str, args: tuple[*Arguments]) -> Result:
    for attempt in range(DB_RETRIES):
        try:
            return await call(*args)
        except DatabaseError:
            if attempt == DB_RETRIES - 1:
                raise
            log.warning("database error in %s, retrying", name, exc_info=True)
            await asyncio.sleep(0.2 * (attempt + 1))
        except Exception as error:
            if attempt:
                setattr(error, _AFTER_DATABASE_ERROR, True)
            raise
    raise AssertionError("unreachable: the last attempt returns or raises")

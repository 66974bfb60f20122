"""A computer's write refused as stale (games.rooms.turns.advance_once): another worker's moves
were told to the sockets already, so only a refusal met by a retry after a database error — the
write itself may be stored with its answer lost — sends every socket a fresh state."""

import asyncio

from django.db import OperationalError

from games.rooms import database_threads, turns
from games.rooms.bot_plans import BotPlan
from games.rooms.errors import RoomError


def stale_after(failures: int):
    """A database step that fails with a lost connection `failures` times, then is refused as stale."""
    calls = []

    async def step() -> None:
        calls.append(1)
        if len(calls) <= failures:
            raise OperationalError("server closed the connection unexpectedly")
        raise RoomError("stale_version", status=409)

    return step


def refusal_of(step) -> RoomError:
    try:
        asyncio.run(database_threads._retried(step, "step", ()))
    except RoomError as refusal:
        return refusal
    raise AssertionError("the step was not refused")


def test_a_refusal_at_the_first_try_is_not_marked():
    assert not database_threads.after_database_error(refusal_of(stale_after(0)))


def test_a_refusal_by_a_retry_after_a_database_error_is_marked():
    assert database_threads.after_database_error(refusal_of(stale_after(1)))


def advance_refused(monkeypatch, after_error: bool) -> list[str]:
    refreshed: list[str] = []

    async def refused(game_id, plan):
        refusal = RoomError("stale_version", status=409)
        if after_error:
            setattr(refusal, database_threads._AFTER_DATABASE_ERROR, True)
        raise refusal

    async def refresh(game_id):
        refreshed.append(game_id)

    monkeypatch.setattr(turns, "computer_moves", refused)
    monkeypatch.setattr(turns, "broadcast_refresh", refresh)
    plan = BotPlan(seat="W", level="easy", seed=1, view={}, version=7)
    assert asyncio.run(turns.advance_once("game-1", plan)) == (True, None, False)  # look again
    return refreshed


def test_another_workers_moves_send_no_fresh_state(monkeypatch):
    assert advance_refused(monkeypatch, after_error=False) == []


def test_a_write_whose_answer_may_be_lost_sends_every_socket_the_state(monkeypatch):
    assert advance_refused(monkeypatch, after_error=True) == ["game-1"]

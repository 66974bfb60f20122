"""Waking a game up when an absent friend's grace runs out, so that the computer takes the seat at
the deadline the other seats were shown, not at the next heartbeat.

Every presence message carries the deadlines, worked out from the presence rows every process
shares (games.rooms.presence). Each process with a socket of the game keeps one wake-up at the
earliest deadline it was told; at that time it tells the room who is there and lets the computer
play. Several processes may wake up for one game: the moves are versioned, so one of them plays
and the others find nothing due.

May call games.rooms.broadcast and games.rooms.turns; only the consumer calls it.
"""

import asyncio
import time
from typing import Any

from games.rooms.broadcast import broadcast_presence
from games.rooms.turns import advance_soon

WAKE_MARGIN_SECONDS = 0.25  # just past the deadline: the seat is "away" only once it has passed

# (event loop, game id) -> (the deadline woken up for, its timer)
_wakeups: dict[tuple[int, str], tuple[float, asyncio.TimerHandle]] = {}
_running: set[asyncio.Task[None]] = set()


def wake_at_deadlines(game_id: str, deadlines: dict[str, Any] | None) -> None:
    """Keep one wake-up of this process at the game's earliest deadline (Unix time)."""
    if not deadlines:
        return
    loop = asyncio.get_running_loop()
    key, earliest = (id(loop), str(game_id)), min(deadlines.values())
    scheduled = _wakeups.get(key)
    if scheduled is not None and scheduled[0] <= earliest:
        return
    if scheduled is not None:
        scheduled[1].cancel()
    delay = max(0.0, earliest - time.time()) + WAKE_MARGIN_SECONDS
    _wakeups[key] = (earliest, loop.call_later(delay, start_wake, key))


def start_wake(key: tuple[int, str]) -> None:
    _wakeups.pop(key, None)
    task = asyncio.get_running_loop().create_task(wake(key[1]))
    _running.add(task)
    task.add_done_callback(_running.discard)


async def wake(game_id: str) -> None:
    await broadcast_presence(game_id)
    advance_soon(game_id)

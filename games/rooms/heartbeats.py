"""Every game socket's heartbeat, batched: one task per process (per event loop) beats all of them.

Each socket is due FOOT_HEARTBEAT_SECONDS after it registered (once its place is claimed and it
joined the room) and after each of its beats. The task wakes `TICKS_PER_HEARTBEAT` times a
heartbeat and beats only the sockets due, so the work of a process's sockets is spread over the
interval, not a burst every heartbeat. For the sockets due in one tick:

- an idle socket is closed (the consumer's `still_open` decides; the others go on);
- every held place in the socket caps is renewed in one Redis pipeline (players.limits);
- every live presence row is refreshed in one UPDATE; a socket whose row was missing gets it
  written again, one by one (rare: a purge, a socket closing meanwhile is not revived);
- in a friends game a changed presence is broadcast once per game (a friend's grace ran out);
- the room's watchdog looks once per game for a computer move that is due (a game left on a bot's
  turn by a restart, an absent friend's turn), after one read of the games' rows: a game whose
  live game in this process is at the row's version with a person to play is not looked at
  again (games.rooms.bot_plans.maybe_due).

A failing step or socket is logged and the others go on: one bad socket must not stop everyone's
heartbeat. Before, each socket had a task of its own that made a Redis call, a database write,
and a read of the game every heartbeat (issue 28; docs/ROOMS.md, "Heartbeats").

May call broadcast, presence, bot_plans, database_threads, config, turns and players.limits; only
the consumer registers sockets.
"""

import asyncio
import logging
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from asgiref.sync import sync_to_async

from games.rooms import presence
from games.rooms.bot_plans import maybe_due
from games.rooms.broadcast import broadcast_presence
from games.rooms.config import heartbeat_seconds
from games.rooms.database_threads import database_call
from games.rooms.turns import advance_soon
from players import limits

log = logging.getLogger(__name__)

TICKS_PER_HEARTBEAT = 10  # a socket beats between one and 1.1 heartbeats after its last beat


class Beating(Protocol):
    """What the heartbeat reads of a socket (games.consumers.GameConsumer)."""

    channel_name: str
    game_id: str
    seat: str | None
    watch_presence: bool  # a friends game: a seat's presence may change for someone else
    last_presence: dict[str, Any] | None  # the seats of the last presence the socket forwarded
    lease: limits.SocketLease | None

    async def still_open(self) -> bool:
        """False when the socket is closed, or was idle and is closed now."""
        ...


@dataclass
class Due:
    socket: Beating
    at: float  # time.monotonic() of its next beat


@dataclass
class Heart:
    """The sockets of one event loop and the task that beats them (none while there are none)."""

    sockets: dict[str, Due] = field(default_factory=dict)  # channel name -> its next beat
    task: asyncio.Task[None] | None = None

    def take_due(self, now: float) -> list[Beating]:
        """The sockets due at `now`, each then due one heartbeat later."""
        period, due = heartbeat_seconds(), []
        for entry in self.sockets.values():
            if entry.at <= now:
                entry.at = now + period
                due.append(entry.socket)
        return due

    async def tick(self) -> None:
        due = self.take_due(time.monotonic())
        if due:
            await beat(due, self.sockets.__contains__)

    async def run(self) -> None:
        try:
            while self.sockets:
                await asyncio.sleep(heartbeat_seconds() / TICKS_PER_HEARTBEAT)
                await guarded(self.tick(), "tick")
        finally:
            if self.task is asyncio.current_task():
                self.task = None


# One per event loop: tests run one loop each, and a socket belongs to the loop it was opened on.
_hearts: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Heart]" = weakref.WeakKeyDictionary()


def heart() -> Heart:
    loop = asyncio.get_running_loop()
    if loop not in _hearts:
        _hearts[loop] = Heart()
    return _hearts[loop]


def register(socket: Beating) -> None:
    """The socket beats from now on, first one heartbeat from now; the task starts if it is not running."""
    beating = heart()
    beating.sockets[socket.channel_name] = Due(socket, time.monotonic() + heartbeat_seconds())
    if beating.task is None:
        beating.task = asyncio.get_running_loop().create_task(beating.run())


def unregister(socket: Beating) -> None:
    """The socket is released: no more beats (a beat under way does not revive its presence row).
    The task ends with the last socket."""
    beating = heart()
    entry = beating.sockets.get(socket.channel_name)
    if entry is not None and entry.socket is socket:
        del beating.sockets[socket.channel_name]
    if not beating.sockets and beating.task is not None and beating.task is not asyncio.current_task():
        beating.task.cancel()
        beating.task = None


async def beat(sockets: Sequence[Beating], registered: Callable[[str], bool]) -> None:
    """One tick's beat of the sockets due; `registered` says whether a socket is still open."""
    alive = [socket for socket in sockets if await guarded(socket.still_open(), "idle check", socket.game_id)]
    if not alive:
        return
    await asyncio.gather(
        guarded(renew_places(alive), "socket places"),
        guarded(refresh_presence(alive, registered), "presence rows"),
    )
    await asyncio.gather(guarded(tell_presence(alive), "presence"), guarded(watch(alive), "watchdog"))


async def guarded(step: Awaitable[Any], what: str, game_id: str = "") -> Any:
    """The step's answer; None (logged) when it failed, so that the other steps and sockets go on."""
    try:
        return await step
    except Exception:
        log.exception("heartbeat: %s failed %s", what, game_id)
        return None


async def renew_places(sockets: Sequence[Beating]) -> None:
    leases = [socket.lease for socket in sockets if socket.lease is not None]
    await sync_to_async(limits.renew_leases, thread_sensitive=False)(leases)


async def refresh_presence(sockets: Sequence[Beating], registered: Callable[[str], bool]) -> None:
    missing = await database_call(presence.refresh_rows)([socket.channel_name for socket in sockets])
    lost = [
        (socket.game_id, socket.seat, socket.channel_name)
        for socket in sockets
        if socket.channel_name in missing and registered(socket.channel_name)
    ]
    if lost:
        await database_call(presence.write_rows)(lost)


async def tell_presence(sockets: Sequence[Beating]) -> None:
    """Once per friends game: its presence, unless every socket due there already has it."""
    known: dict[str, list[dict[str, Any] | None]] = {}
    for socket in sockets:
        if socket.watch_presence:
            known.setdefault(socket.game_id, []).append(socket.last_presence)
    await asyncio.gather(
        *(
            guarded(broadcast_presence(game_id, unless=shared(seats)), "presence", game_id)
            for game_id, seats in known.items()
        )
    )


def shared(seats: list[dict[str, Any] | None]) -> dict[str, Any] | None:
    """The presence every socket has heard (None: they heard different ones, or none)."""
    return seats[0] if all(each == seats[0] for each in seats) else None


async def watch(sockets: Sequence[Beating]) -> None:
    """The watchdog: computer moves due in the sockets' games go on."""
    games = list(dict.fromkeys(socket.game_id for socket in sockets))
    for game_id in await database_call(maybe_due)(games):
        advance_soon(game_id)

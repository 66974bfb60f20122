"""Runs computer players off the event loop, in bounded pools shared by all rooms of a process.

A bot's answer is a pure function of (level, seed, view), so it can be computed anywhere. By
default (FOOT_BOT_POOL=mixed) `hard`, whose search is long beside a move (docs/BOTS.md has its
times), runs in a ProcessPoolExecutor, so that its thinking never holds this process's interpreter
lock while other rooms wait; `easy` and `normal` decide in a fraction of that and run in a thread
pool, because sending a view to another process and the answer back costs more CPU than such a
bot's decision (docs/PERFORMANCE.md, "What a move costs"). A room's own `easy`/`normal` moves do
not even use that pool: the room calls `compute_action` in the move's database thread
(`turns.decide_here`, then games.rooms.computer_turns), one thread hand-off per run of bot turns instead
of two per move; the thread pool serves the hints. FOOT_BOT_POOL=process or
=thread puts every level in one kind of pool. FOOT_BOT_WORKERS workers per pool (default 2).
The bots come from `games.bots.make_bot`; with the test hooks on, FOOT_BOT_FACTORY="module:function"
replaces it (tests use a trivial legal player with it). The settings are read in the server's
process only: a pool's worker process is handed the factory with each call, so it never needs
Django's settings. The look back after a deal (games.bots.lookback, asked by games.rooms.lookback)
thinks in a pool of its own (`look_back_pool`): FOOT_LOOKBACK_WORKERS processes at a lower CPU
priority (FOOT_LOOKBACK_NICE), so a player's look back never takes a worker from the bots' moves
nor CPU from the server; FOOT_LOOKBACK_POOL=thread puts it in a thread (the in-process tests).
A look-back worker also waits while the machine's CPUs are busy with other work
(games.rooms.machine_idle, FOOT_LOOKBACK_BUSY). Calls games.bots and machine_idle, nothing else
of the room service.
"""

import asyncio
import importlib
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar, TypeVarTuple

from django.conf import settings

from games.bots import make_bot
from games.bots.base import Bot
from games.bots.hint import HINT_LEVEL, hint_step, seat_seed
from games.bots.lookback import look_back
from games.bots.reasons import valid as valid_reason
from games.engine import Game
from games.engine.records import Action, View
from games.rooms.machine_idle import MachineIdle

Result = TypeVar("Result")
Arguments = TypeVarTuple("Arguments")

_pools: dict[str, Executor] = {}  # "process" / "thread" -> its executor, made on first use
_pool_lock = threading.Lock()


def factory_setting() -> str:
    """FOOT_BOT_FACTORY when the test hooks are on, else "" (the real bots)."""
    return settings.FOOT_BOT_FACTORY if settings.FOOT_TEST_HOOKS else ""


def bot_factory(spec: str) -> Callable[..., Bot]:
    """The make_bot(level, seed) function that `spec` ("module:function", or "" for the bots) names."""
    if not spec:
        return make_bot
    module_name, _, function_name = spec.partition(":")
    factory: Callable[..., Bot] = getattr(importlib.import_module(module_name), function_name)
    return factory


def compute_action(level: str, seed: int, view: dict[str, Any], factory: str | None = None) -> dict[str, Any]:
    """One action of a `level` bot seeded `seed` for the seat whose view this is. `factory` is
    given in a pool's worker process; in the server's own process the settings say it."""
    action: Action = compute_decision(level, seed, view, factory)["action"]
    return action


def compute_decision(
    level: str, seed: int, view: dict[str, Any], factory: str | None = None, game: Game | None = None
) -> dict[str, Any]:
    """{"action": ..., "reason": ...}: the action and the reason its decision gave (None when the
    bot gives none; a factory's bot without `act_explained` gives none). Plain dicts: picklable.
    `game`: the engine game the view was made from, when the caller holds it (in this process
    only): the bot checks its actions on it (games.bots.base.ViewChecker)."""
    bot = bot_factory(factory_setting() if factory is None else factory)(level, seed)
    if not hasattr(bot, "act_explained"):
        return {"action": bot.act(view), "reason": None}
    action, reason = bot.act_explained(view) if game is None else bot.act_explained(view, game)
    return {"action": action, "reason": reason if valid_reason(reason) else None}


def compute_hint(level: str, seed: int, view: dict[str, Any], factory: str | None = None) -> dict[str, Any]:
    """The hint's whole step (games.bots.hint) as a `level` bot seeded `seed` would play it."""
    bot = bot_factory(factory_setting() if factory is None else factory)(level, seed)
    return hint_step(bot, view)


def compute_look_back(
    start: dict[str, Any],
    moves: list[Any],
    seat: str,
    seed: int,
    computer: list[Any],
    busy_limit: float = 1.0,
    factory: str | None = None,
    hints_offered: bool = True,
) -> dict[str, Any]:
    """The look back at one deal for `seat` (games.bots.lookback); plain data in and out. It
    waits while others keep more than `busy_limit` of the machine's CPU busy (machine_idle). The
    hints it compares with are the Hint's own (`compute_hint`: its level, seed and factory);
    `hints_offered` False (a ranked daily): its items do not speak of a hint."""
    played = [(mover, action) for mover, action in moves]
    hint = bot_factory(factory_setting() if factory is None else factory)(HINT_LEVEL, bot_seed(seed, seat))
    pause = MachineIdle(busy_limit)
    return look_back(
        start, played, seat, seed, computer=set(computer), pause=pause, hint=hint, hints_offered=hints_offered
    )


def bot_seed(game_seed: int, seat: str) -> int:
    """Each seat's bot has its own seed, fixed by the game's seed (so a daily is the same for all;
    the hint's bot is seeded so too, games.bots.hint)."""
    return seat_seed(game_seed, seat)


PROCESS_LEVELS = frozenset({"hard"})  # the levels that think long enough to need their own process


def pool_kind(level: str | None = None) -> str:
    """ "process" or "thread": where a `level` bot thinks (None: the pool of the slowest level)."""
    mode = settings.FOOT_BOT_POOL
    if mode in ("process", "thread"):
        return mode
    return "process" if level is None or level in PROCESS_LEVELS else "thread"


def pool(level: str | None = None) -> Executor:
    kind = pool_kind(level)
    with _pool_lock:
        if kind not in _pools:
            workers = max(1, int(settings.FOOT_BOT_WORKERS))
            if kind == "thread":
                _pools[kind] = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bot")
            else:
                # spawn, not fork: forking a process that runs an event loop and DB connections is unsafe.
                _pools[kind] = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
        return _pools[kind]


def lower_priority(pid: int, nice: int) -> None:
    """Make process `pid` yield the CPU to the server and the bots' workers.

    On Linux it takes the idle class (SCHED_IDLE): it runs only on CPU that nothing else wants,
    where a nice value alone still lets it hold a core for a few ms while a socket's move waits
    (bench_load --look-back, docs/PERFORMANCE.md). Elsewhere, `nice` is what there is."""
    if nice <= 0:
        return
    os.setpriority(os.PRIO_PROCESS, pid, max(nice, os.getpriority(os.PRIO_PROCESS, pid)))
    if hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))


class LowPriorityProcess(multiprocessing.context.SpawnProcess):
    """A spawned worker lowered to FOOT_LOOKBACK_NICE by its parent the moment it exists, before
    it imports anything: a worker's start (Python, Django and the bots: over a second of CPU)
    must not compete with the server either."""

    def start(self) -> None:
        super().start()
        assert self.pid is not None
        lower_priority(self.pid, int(settings.FOOT_LOOKBACK_NICE))


class LowPrioritySpawn(multiprocessing.context.SpawnContext):
    """The spawn start method, making LowPriorityProcess workers."""

    Process = LowPriorityProcess


def look_back_pool() -> Executor:
    with _pool_lock:
        if "look_back" not in _pools:
            workers = max(1, int(settings.FOOT_LOOKBACK_WORKERS))
            if settings.FOOT_LOOKBACK_POOL == "thread":
                _pools["look_back"] = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="look-back")
            else:
                _pools["look_back"] = ProcessPoolExecutor(max_workers=workers, mp_context=LowPrioritySpawn())
        return _pools["look_back"]


async def in_pool(
    kind: str, executor: Callable[[], Executor], work: Callable[[*Arguments], Result], *args: *Arguments
) -> Result:
    """`work(*args)` in the pool `executor()` gives, while the event loop goes on serving others.
    A worker that died (killed, out of memory) leaves its pool unusable: that pool, and only that
    one, is started again, once."""
    loop = asyncio.get_running_loop()
    used = executor()
    try:
        return await loop.run_in_executor(used, work, *args)
    except BrokenExecutor:
        # Every call that was waiting on the broken pool lands here: only the first replaces it,
        # the others use its replacement (dropping that too would start a pool per waiting call).
        drop_pool(kind, only=used)
        return await loop.run_in_executor(executor(), work, *args)


async def think_back(
    start: dict[str, Any], moves: list[Any], seat: str, seed: int, computer: list[Any], hints_offered: bool = True
) -> dict[str, Any]:
    """`compute_look_back` in the look backs' pool."""
    busy_limit, factory = float(settings.FOOT_LOOKBACK_BUSY), factory_setting()
    return await in_pool(
        "look_back",
        look_back_pool,
        compute_look_back,
        *(start, moves, seat, seed, computer, busy_limit, factory, hints_offered),
    )


def drop_pool(kind: str, only: Executor | None = None) -> None:
    """Stop one pool ("process", "thread" or "look_back"); the next call makes it anew. With
    `only`, the pool is dropped only if it is still that executor."""
    with _pool_lock:
        if only is not None and _pools.get(kind) is not only:
            return
        executor = _pools.pop(kind, None)
    if executor is not None:
        executor.shutdown(wait=False, cancel_futures=True)


def shutdown_pool() -> None:
    with _pool_lock:
        for executor in _pools.values():
            executor.shutdown(wait=False, cancel_futures=True)
        _pools.clear()


async def think(
    level: str,
    seed: int,
    view: View,
    work: Callable[[str, int, View, str | None], dict[str, Any]] = compute_decision,
) -> dict[str, Any]:
    """The bot's decision (`compute_decision`; with `work=compute_hint` the hint's step), computed
    in the bots' pool for the level."""
    return await in_pool(pool_kind(level), lambda: pool(level), work, level, seed, view, factory_setting())

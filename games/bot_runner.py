"""Runs computer players off the event loop, in a bounded pool shared by all rooms of a process.

A bot's answer is a pure function of (level, seed, view), so it can be computed in another
process: a `hard` bot thinking for one room never stalls the event loop that serves the others.
The pool is a ProcessPoolExecutor by default (FOOT_BOT_POOL=thread for a thread pool), with
FOOT_BOT_WORKERS workers (default 2). The bots come from `games.bots.make_bot`;
FOOT_BOT_FACTORY="module:function" replaces it (tests use a trivial legal player with it).
This module must stay importable without Django: the pool's worker processes import it alone.
"""
import asyncio
import importlib
import multiprocessing
import os
import threading
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor

_pool: Executor | None = None
_pool_lock = threading.Lock()


class NoBot(RuntimeError):
    """No computer player is installed (games.bots is missing)."""


def bot_factory():
    """The make_bot(level, seed) function in use."""
    spec = os.environ.get("FOOT_BOT_FACTORY")
    if spec:
        module_name, _, function_name = spec.partition(":")
        return getattr(importlib.import_module(module_name), function_name)
    try:
        from games.bots import make_bot
    except ImportError as missing:
        raise NoBot("games.bots is not installed") from missing
    return make_bot


def compute_action(level: str, seed: int, view: dict) -> dict:
    """One action of a `level` bot seeded `seed` for the seat whose view this is (in a worker)."""
    return bot_factory()(level, seed).act(view)


def bots_available() -> bool:
    try:
        bot_factory()
    except (NoBot, ImportError, AttributeError):
        return False
    return True


def bot_seed(game_seed: int, seat: str) -> int:
    """Each seat's bot has its own seed, fixed by the game's seed (so a daily is the same for all)."""
    return (int(game_seed) * 4 + "SWNE".index(seat)) % (2**63)


def pool() -> Executor:
    global _pool
    with _pool_lock:
        if _pool is None:
            workers = max(1, int(os.environ.get("FOOT_BOT_WORKERS", "2")))
            if os.environ.get("FOOT_BOT_POOL", "process") == "thread":
                _pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bot")
            else:
                # spawn, not fork: forking a process that runs an event loop and DB connections is unsafe.
                _pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
        return _pool


def shutdown_pool() -> None:
    global _pool
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None


async def think(level: str, seed: int, view: dict) -> dict:
    """The bot's action, computed in the pool while the event loop goes on serving others."""
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(pool(), compute_action, level, seed, view)
    except BrokenExecutor:
        # A worker died (killed, out of memory): the pool is unusable; start a new one once.
        shutdown_pool()
        return await loop.run_in_executor(pool(), compute_action, level, seed, view)

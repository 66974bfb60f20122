"""Turns as the event loop plays them: a person's move (`act`: apply, broadcast, then let the
computers answer), every computer turn that is due after it (`advance`), and the hint.

`advance(game_id)` plays every computer turn in a row, each its own move and version, computed
off the event loop (games.rooms.bot_runner); an answer for a stale version is dropped. Each move
hands the plan of the next bot move (seat, view, version) to the loop, so a run of bot turns
costs no extra read. It runs after each human move, whenever a consumer connects, and when the
process's heartbeat finds a computer move may be due (games.rooms.heartbeats), so a game left on
a bot's turn by a restart goes on as soon as anyone is there.

May call every module of the room service below it (moves, bot_plans, database_threads,
broadcast, bot_runner, stand_ins, stored, views, faults, config, errors); only the consumer,
games.rooms.away and games.rooms.heartbeats call it.
"""

import asyncio
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from channels.db import database_sync_to_async

from games import engine
from games.bots.hint import HINT_LEVEL
from games.engine.records import Action
from games.models import Game, GameId
from games.rooms import bot_runner
from games.rooms.bot_plans import BotPlan, plan_bot_move
from games.rooms.broadcast import broadcast, broadcast_presence, broadcast_refresh
from games.rooms.computer_turns import play_computer_turn
from games.rooms.config import bot_delay
from games.rooms.daily_play import hint_allowed
from games.rooms.database_threads import after_database_error, bot_slot, database_call, with_db_retries
from games.rooms.errors import RoomError
from games.rooms.faults import fault
from games.rooms.log_context import serving
from games.rooms.metrics import BOT_THINK_SECONDS, MOVE_SECONDS, REFUSALS
from games.rooms.moves import MoveResult, apply_move
from games.rooms.seat_views import PUBLIC
from games.rooms.stand_ins import after_stand_in_move
from games.rooms.stored import load

log = logging.getLogger(__name__)

_advancing: dict[str, bool] = {}  # game id -> "look again when done" (one advancer per game per process)
_background: set[asyncio.Task[None]] = set()


async def act(game_id: GameId, seat: str, action: Action, version: int | None, origin: str, ref: object) -> MoveResult:
    """A human's move: apply, broadcast to every seat, then let the bots answer."""
    received = time.perf_counter()
    serving(game_id, seat)
    try:
        result = await database_call(apply_move)(game_id, seat, action, version, None)
    except (RoomError, engine.RuleError) as refusal:
        REFUSALS.labels(refusal.code).inc()
        raise
    await broadcast(result, origin=origin, ref=ref)
    MOVE_SECONDS.observe(time.perf_counter() - received)
    log.debug("move v%s by %s: %s", result.version, seat, action.get("type"))
    if not result.settled:
        advance_soon(game_id, result.next_plan)
    return result


def advance_soon(game_id: GameId, plan: BotPlan | None = None) -> None:
    """Play the bots' turns in the background (keeping a reference so the task is not collected)."""
    task = asyncio.get_running_loop().create_task(advance(str(game_id), plan))
    _background.add(task)
    task.add_done_callback(_background.discard)


async def advance(game_id: str, plan: BotPlan | None = None) -> None:
    """Play every computer move that is due, one move and version at a time.

    Each move hands over the plan of the next one when it knows it (a bot seat to play), so a
    run of bot turns reads the game once per move, inside the move's own transaction.
    """
    if game_id in _advancing:
        _advancing[game_id] = True
        return
    serving(game_id, None)
    _advancing[game_id] = False
    try:
        while True:
            moved, plan, settled = await advance_once(game_id, plan)
            if _advancing[game_id]:  # asked again meanwhile: look at the stored game afresh
                _advancing[game_id] = False
                plan, settled = None, False
                continue
            if settled or not moved:
                return
            if bot_delay() > 0:
                await asyncio.sleep(bot_delay())
    finally:
        _advancing.pop(game_id, None)


class BotFailed(Exception):
    """A bot raised instead of answering (a bug in a bot): its game's bots stop, the room goes on."""


@contextmanager
def failing_bot(plan: BotPlan) -> Iterator[None]:
    """A bot's exception raised as BotFailed, told apart from the move's own refusals."""
    try:
        yield
    except Exception as failure:
        raise BotFailed(plan.level) from failure


def decide_here(plan: BotPlan, game: engine.Game | None = None) -> dict[str, Any]:
    """A thread-pool bot's decision ({"action", "reason"}), in the calling (database) thread;
    `game`: the engine game the plan was made from, when the caller holds it (its checks)."""
    with failing_bot(plan), BOT_THINK_SECONDS.labels(plan.level).time():
        return bot_runner.compute_decision(plan.level, plan.seed, plan.view, game=game)


async def think_elsewhere(plan: BotPlan) -> dict[str, Any]:
    """A slow bot's decision ({"action", "reason"}) in its process pool (the event loop serves
    other rooms meanwhile)."""
    started = time.perf_counter()
    with failing_bot(plan):
        decision = await bot_runner.think(plan.level, plan.seed, plan.view)
    BOT_THINK_SECONDS.labels(plan.level).observe(time.perf_counter() - started)
    return decision


async def advance_once(game_id: str, plan: BotPlan | None = None) -> tuple[bool, BotPlan | None, bool]:
    """One computer move: (moved, the plan of the next one if known, no computer move is due)."""
    if plan is None:
        plan = await with_db_retries(plan_bot_move, game_id)
        if plan is None:
            return False, None, True
    try:
        results = await computer_moves(game_id, plan)
    except BotFailed:
        log.exception("bot %s failed in game %s at v%s", plan.level, game_id, plan.version)
        return False, None, True
    except RoomError as refusal:
        if refusal.code != "stale_version":
            return False, None, True  # any other refusal: stop
        # A human or another worker moved first (it told the sockets): look again. But when the
        # refusal came from a retry, this write may be stored with its answer lost (a cut
        # connection): then no socket heard of its moves, and a page would wait on a computer's
        # turn, so every socket gets a fresh state first.
        if after_database_error(refusal):
            await broadcast_refresh(game_id)
        return True, None, False
    except Exception as error:  # an illegal bot action: stop rather than loop on it
        log.error("bot %s action refused in game %s at v%s: %s", plan.level, game_id, plan.version, error)
        return False, None, True
    for number, result in enumerate(results):
        if number and bot_delay() > 0:  # the frames of one turn paced apart for people, as its moves were
            await asyncio.sleep(bot_delay())
        await broadcast(result, origin=None, ref=None)
    last = results[-1]
    if plan.stand_in:  # a stand-in plays one move at a time (games.rooms.computer_turns)
        await note_stand_in(game_id, plan.seat, last)
    return True, last.next_plan, last.settled


async def note_stand_in(game_id: str, seat: str, result: MoveResult) -> None:
    """After the computer moved for an absent friend: it finishes that turn (games.rooms.stand_ins);
    the sockets hear when that changes."""
    events = result.parts[PUBLIC]["events"]
    turn_goes_on = result.status == Game.PLAYING and not any(e["type"] in ("turn", "deal_end") for e in events)
    if await database_call(after_stand_in_move)(game_id, seat, turn_goes_on):
        await broadcast_presence(game_id)


async def computer_moves(game_id: str, plan: BotPlan) -> list[MoveResult]:
    """The planned computer move, thought and applied, through the bots' gate to the database; a
    quick bot plays on, with the quick bots after it, in the same call (games.rooms.computer_turns)."""
    if bot_runner.pool_kind(plan.level) == "thread":
        # A quick bot thinks in the move's own database thread: one hand-off per run, not two per move.
        async with bot_slot():
            return await with_db_retries(play_computer_turn, game_id, plan, decide_here)
    decision = await think_elsewhere(plan)
    fault("bot_thinking", plan.version + 1)
    async with bot_slot():
        action, reason = decision["action"], decision["reason"]
        return [await with_db_retries(apply_move, game_id, plan.seat, action, plan.version, reason)]


async def hint(game_id: GameId, seat: str) -> dict[str, Any]:
    """The hint's whole step for `seat` (games.bots.hint): {"actions": [...], "parts": [...]}.
    Off in a ranked daily (games.rooms.daily_play): the server refuses it, whatever the page shows."""
    game = await database_sync_to_async(load)(game_id)
    if game is None or game.position is None:
        raise RoomError("not_started")
    if not hint_allowed(game):
        raise RoomError("hint_unavailable", status=403)
    engine_game = engine.Game.from_position(game.position)
    try:
        return await bot_runner.think(
            HINT_LEVEL, bot_runner.bot_seed(game.seed, seat), engine_game.view(seat), work=bot_runner.compute_hint
        )
    except Exception as failure:
        raise RoomError("hint_failed") from failure

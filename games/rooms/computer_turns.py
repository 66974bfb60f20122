"""The computers' turns as one write: from a computer's move to the next person's turn (a solo
game: West's, North's and East's whole turns), every draw, meld and discard applied to the game
this process holds, then stored on PostgreSQL as one statement (every Move row and the game's row
at the last version): one round trip and one commit instead of one per move.

Each move keeps its own version, its own patches and events (games.rooms.moves' `MoveResult`),
so the sockets get the same frames as before, and the caller still paces them apart for people
(FOOT_BOT_DELAY). The write is all or nothing: a process killed before its commit stored none of
these moves, after it all of them (the sockets then learn them on resync).

Only thread-pool bots (their decisions are quick) playing from memory on PostgreSQL are played
so; otherwise, or when the row is not where memory says (another process moved, a `next_deal`
changed `awaiting`), the first move alone takes games.rooms.moves.apply_move's usual way, which
decides from the row. A stand-in for an absent friend plays one move at a time (its turn may end
when the friend comes back), and so does a lesson's bot (its prompts read the stored game).
docs/ROOMS.md, "The computers' turns in one write".

May call the engine, games.models and of the room service moves, bot_plans, game_rows,
live_games, seat_views, faults, metrics and daily_play; only games.rooms.turns calls it.
"""

from collections.abc import Callable
from typing import Any

from django.db import IntegrityError

from games import engine
from games.models import Game, GameId
from games.rooms import bot_runner, game_rows
from games.rooms.bot_plans import BotPlan, bot_plan_after
from games.rooms.daily_play import lapse_if_late
from games.rooms.errors import RoomError
from games.rooms.faults import fault
from games.rooms.live_games import LIVE, LiveGame, forget_finished
from games.rooms.metrics import MOVES
from games.rooms.moves import (
    MoveResult,
    announce_finished,
    apply_move,
    listener_keys,
    listener_parts,
    update_awaiting,
    with_reason,
)
from games.rooms.seat_views import PUBLIC, views_for

MOST_MOVES = 40  # a bound on one write (and on how far the stored game runs ahead of the frames)

# A plan and the engine game it was made from when held (the bot checks on it, no determinization;
# games.bots.base.ViewChecker) -> {"action", "reason"} (games.rooms.bot_runner)
Decide = Callable[[BotPlan, engine.Game | None], dict[str, Any]]


def play_computer_turn(game_id: GameId, plan: BotPlan, decide: Decide) -> list[MoveResult]:
    """The planned computer move and the computers' moves after it until a person's turn, in a
    database thread: their results in order (at least one). Raises as apply_move does for the
    first move."""
    live = held_game(game_id, plan)
    try:
        decision = decide(plan, live.engine_game if live else None)
    except Exception:
        if live is not None:
            LIVE.put(game_id, live)  # a check changes nothing: the game stays held for the next move
        raise
    fault("bot_thinking", plan.version + 1)
    if live is None:
        return [apply_move(game_id, plan.seat, decision["action"], plan.version, decision["reason"])]
    turn = Turn(live, plan)
    try:
        turn.play(decision, decide)
    except engine.RuleError:
        # The first move refused by a game that may be behind the row: the usual way decides.
        LIVE.put(game_id, live)  # the engine changed nothing
        return [apply_move(game_id, plan.seat, decision["action"], plan.version, decision["reason"])]
    if not turn.write():
        # The row moved on: nothing written, and the held game is ahead of it (not put back).
        return [apply_move(game_id, plan.seat, decision["action"], plan.version, decision["reason"])]
    return turn.committed()


def quick(plan: BotPlan) -> bool:
    """A bot that thinks in the move's own thread (not a stand-in, not a process-pool level)."""
    return not plan.stand_in and bot_runner.pool_kind(plan.level) == "thread"


def held_game(game_id: GameId, plan: BotPlan) -> LiveGame | None:
    """The game this process holds at the plan's version, taken out, when a turn may be played
    from it (PostgreSQL, a playing game, every listener's view kept); else None (nothing taken)."""
    if plan.stand_in or not game_rows.supports_one_statement_moves():
        return None
    kept = LIVE.peek(game_id, plan.version)
    if kept is None or kept.row is None or kept.row.status != Game.PLAYING:
        return None
    if kept.row.mode == Game.LESSON:
        # The lesson's prompt is read from the stored position after every frame (lesson_room):
        # a stored game ahead of the frames would prompt for a move the page does not show yet.
        return None
    if not set(listener_keys(kept.row)) <= set(kept.views):
        return None
    return LIVE.take(game_id, plan.version)  # None if another thread took it meanwhile


class Turn:
    """The computers' moves applied one by one to a held game, then written at once."""

    def __init__(self, live: LiveGame, plan: BotPlan):
        assert live.row is not None, "held_game gives only an entry with its row"
        self.live, self.game, self.plan = live, live.row, plan
        self.start_version = plan.version
        self.known_status, self.known_awaiting = self.game.status, list(self.game.awaiting)
        self.moves: list[game_rows.StoredMove] = []
        self.results: list[MoveResult] = []
        self.views = live.views

    def play(self, decision: dict[str, Any], decide: Decide) -> None:
        """Apply the decided move, then decide and apply the next ones while a computer is to play
        (a thread-pool bot: a stand-in or a `hard` bot ends the run). A RuleError of the first
        move is raised (nothing applied); a later one ends the run there (the next plan tries that
        move again, the usual way, and logs its refusal)."""
        while True:
            try:
                self.apply(decision, self.plan.seat)
            except engine.RuleError:
                if not self.moves:
                    raise
                return
            plan = self.results[-1].next_plan
            if plan is None or not quick(plan) or len(self.moves) >= MOST_MOVES:
                return
            self.plan = plan
            try:
                decision = decide(plan, self.live.engine_game)
            except Exception:  # a failing bot: the moves so far stand; its next plan fails and is logged
                return
            fault("bot_thinking", plan.version + 1)

    def apply(self, decision: dict[str, Any], seat: str) -> None:
        """One move: the engine's, the row's status and awaiting, the listeners' parts, the plan after it."""
        engine_game, game = self.live.engine_game, self.game
        action, reason = decision["action"], decision["reason"]
        events = engine_game.apply(seat, action)
        version = self.start_version + len(self.moves) + 1
        fault("after_apply", version)
        after = views_for(engine_game, listener_keys(game))
        game.status = Game.FINISHED if engine_game.turn is None else Game.PLAYING
        update_awaiting(game, seat, events)
        game.version = version  # the plan after this move is made at it
        next_plan, settled = bot_plan_after(game, engine_game, after[PUBLIC])
        game.version = self.start_version  # the row is still there until the write
        parts = listener_parts(self.views, after, with_reason(events, seat, reason))
        self.views = after
        self.moves.append((seat, action, reason))
        self.results.append(
            MoveResult(str(game.id), version, seat, parts, game.status, list(game.awaiting), next_plan, settled)
        )

    def write(self) -> bool:
        """The whole turn in one statement; False when the row was not where memory said."""
        game = self.game
        game.position = self.live.engine_game.to_position()
        version = self.start_version + len(self.moves)
        fault("before_commit", version)
        try:
            written = game_rows.write_turn_if_unchanged(
                game, version, self.moves, self.known_status, self.known_awaiting
            )
        except IntegrityError as clash:  # another writer appended one of these versions first
            raise RoomError("stale_version", status=409) from clash
        if written:
            game.version = version
        return written

    def committed(self) -> list[MoveResult]:
        """After the commit: the game kept for its next move, the counters, the daily's deadline,
        a finished game announced; the moves' results."""
        game, engine_game = self.game, self.live.engine_game
        MOVES.labels(game.mode).inc(len(self.moves))
        fault("after_commit", game.version)
        if game.status == Game.PLAYING:
            LIVE.put(game.id, LiveGame(game.version, engine_game, self.views, engine_game.turn, game))
        else:
            forget_finished(game.id)  # nor its replayed recent events, as for one move
        # Before the announcement, as for one move: a game that lapses on its last move must be
        # unranked when the leaderboards hear of its end. The sockets refresh after the last frame.
        self.results[-1].lapsed = lapse_if_late(game, game.updated)
        if game.status == Game.FINISHED:
            announce_finished(game)
        return self.results

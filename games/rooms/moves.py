"""The one writer of a move: the transaction, the versions, `MoveResult`; also `next_deal` (a
person saw the deal's score) and `check_action` (would this action be legal now).

One move = one transaction: lock the Game row (`select_for_update`), check the version, apply
the action with the engine, append the Move, save the position and the version (a conditional
UPDATE on the version too, so SQLite, which has no row locks, cannot apply two moves to one
version either). After the commit the move computes, for every listening seat and for
spectators, the patch from its previous view to its new one and the events redacted for it.
Every listening seat (the human seats, and spectators through the public part) gets every
version, with empty ops when its view did not change; bot seats have no socket.

A move starts from the engine game and views this process left at the row's version
(games.rooms.live_games), else from the stored position; its statements are plain SQL
(games.rooms.game_rows). On PostgreSQL a move made from memory is one conditional statement
(version, status and awaiting unchanged), else it takes the locked path: docs/ROOMS.md says why
both are safe.

A ranked daily whose move came after its date's deadline is unranked on that first late move
(games.rooms.daily_play); its result says so (`lapsed`), and the broadcast then refreshes
every socket's state.

May call the engine, games.models, games.signals (a finished game is announced there, for the
apps built on games), and of the room service errors, faults, live_games, game_rows, stored,
patches, seat_views, bot_plans and daily_play; it never sends anything to a socket (games.rooms.broadcast does,
after the commit).
"""

import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import engine
from games.engine.records import Action, Check, Event
from games.models import Game, GameId
from games.rooms import game_rows
from games.rooms.bot_plans import BotPlan, bot_plan_after
from games.rooms.daily_play import lapse_if_late
from games.rooms.errors import RoomError
from games.rooms.faults import fault
from games.rooms.live_games import LIVE, LiveGame, forget_finished
from games.rooms.metrics import MOVES
from games.rooms.patches import view_patch
from games.rooms.seat_views import PUBLIC, redacted, view_for, views_for
from games.rooms.stored import load, stored_engine_game
from games.signals import game_finished

log = logging.getLogger(__name__)


@dataclass
class MoveResult:
    game_id: str
    version: int
    seat: str
    parts: dict[str, dict[str, list[Any]]]  # seat or PUBLIC -> {"ops": [...], "events": [...]}
    status: str
    awaiting: list[str] = field(default_factory=list)
    next_plan: BotPlan | None = None  # the computer move due after this one, when known at once
    settled: bool = False  # True: no computer move is due after this one (known without presence)
    lapsed: bool = False  # True: this move came after its daily's deadline and unranked the game

    def message(self, origin: str | None, ref: object) -> dict[str, Any]:
        return {
            "type": "room.update",
            "v": self.version,
            "seat": self.seat,
            "parts": self.parts,
            "status": self.status,
            "awaiting": self.awaiting,
            "origin": origin,
            "ref": ref,
        }


def apply_move(
    game_id: GameId, seat: str, action: Action, expected_version: int | None, reason: dict[str, Any] | None = None
) -> MoveResult:
    """Apply one action of `seat` as one transaction; raises RoomError or the engine's RuleError.

    `reason`: a computer move's reason (games.bots.reasons), stored with the Move and told to
    every listener as a "reason" event after the move's own events (docs/PROTOCOL.md)."""
    try:
        outcome = _apply_from_memory(game_id, seat, action, expected_version, reason)
        if outcome is None:
            outcome = _apply_in_transaction(game_id, seat, action, expected_version, reason)
    except IntegrityError as clash:  # another writer appended this version first
        raise RoomError("stale_version", status=409) from clash
    result, game = outcome
    MOVES.labels(game.mode).inc()
    fault("after_commit", result.version)
    # Before the announcement: a game that lapses on its last move must be unranked when the
    # leaderboards hear of its end. `updated` is the moment the move was stored (game_rows).
    result.lapsed = lapse_if_late(game, game.updated)
    if game.status == Game.FINISHED:
        announce_finished(game)
    return result


def listener_keys(game: Game) -> list[str]:
    """Whose views a move patches: the human seats (a bot seat has no socket) and spectators."""
    return [*game.human_seats(), PUBLIC]


def live_game(game: Game, keys: list[str]) -> LiveGame:
    """The engine game at the row's version with the listeners' views: from memory, else rebuilt."""
    live = LIVE.take(game.id, game.version)
    if live is None:
        engine_game = stored_engine_game(game)
        live = LiveGame(game.version, engine_game, {}, engine_game.turn)
    live.row = game  # the row just read: the freshest copy for a move from memory
    missing = [key for key in keys if key not in live.views]
    if missing:
        live.views = {**live.views, **{key: view_for(live.engine_game, key) for key in missing}}
    return live


def _apply_from_memory(
    game_id: GameId, seat: str, action: Action, expected_version: int | None, reason: dict[str, Any] | None
) -> tuple[MoveResult, Game] | None:
    """PostgreSQL: the move as one conditional statement, from the game and the row this process
    kept after the previous move — no locked read, no transaction of several round trips.

    The statement writes only if the row is still at that version, status and `awaiting` (the
    row's only fields that change between moves: `next_deal` sets `awaiting` without a new
    version). None when this path does not apply or the row moved on: the caller then takes the
    locked path, which rebuilds the game from the database and refuses a stale action.
    """
    if expected_version is None or not game_rows.supports_one_statement_moves():
        return None
    live = LIVE.take(game_id, expected_version)
    if live is None:
        return None
    game = live.row
    if game is None or game.status != Game.PLAYING or not set(listener_keys(game)) <= set(live.views):
        return None
    known_status, known_awaiting = game.status, list(game.awaiting)
    try:
        events = live.engine_game.apply(seat, action)
    except engine.RuleError:
        # The engine changed nothing, so the entry is kept; but the memory may be behind the row,
        # and a stale action must be refused as stale, not judged by the rules of an old position:
        # the locked path checks the version first, then the rules.
        LIVE.put(game_id, live)
        return None
    new_version, after = _record_in_row(game, live, seat, events)
    fault("before_commit", new_version)
    if not game_rows.write_move_if_unchanged(game, new_version, seat, action, known_status, known_awaiting, reason):
        return None  # the entry is gone and its engine game changed: the locked path rebuilds
    return _after_commit(game, live, seat, with_reason(events, seat, reason), after, new_version), game


def _apply_in_transaction(
    game_id: GameId, seat: str, action: Action, expected_version: int | None, reason: dict[str, Any] | None
) -> tuple[MoveResult, Game]:
    with transaction.atomic():
        game = game_to_move(game_rows.lock_game(game_id), expected_version)
        live = live_game(game, listener_keys(game))
        try:
            events = live.engine_game.apply(seat, action)
        except engine.RuleError:
            LIVE.put(game.id, live)  # the engine changed nothing: the entry is still right
            raise  # and the transaction rolls back: nothing written
        new_version, after = _record_in_row(game, live, seat, events)
        if not game_rows.write_move(game, new_version, seat, action, reason):
            raise RoomError("stale_version", status=409)
        fault("before_commit", new_version)
    return _after_commit(game, live, seat, with_reason(events, seat, reason), after, new_version), game


def with_reason(events: list[Event], seat: str, reason: dict[str, Any] | None) -> list[Any]:
    """The move's events and, for a computer move that gave one, its reason as the last event."""
    if reason is None:
        return events
    return [*events, reason_event(seat, reason)]


def reason_event(seat: str, reason: dict[str, Any]) -> dict[str, Any]:
    """The "reason" event of a move by `seat` (the same for every seat: a reason names nothing hidden)."""
    return {"type": "reason", "seat": seat, "code": reason["code"], "params": reason["params"]}


def _record_in_row(game: Game, live: LiveGame, seat: str, events: list[Event]) -> tuple[int, dict[str, Any]]:
    """After the engine applied the move: the new version, the listeners' new views, and the row's
    position, status and awaiting set as they are to be stored."""
    engine_game = live.engine_game
    new_version = game.version + 1
    fault("after_apply", new_version)
    after = views_for(engine_game, listener_keys(game))
    game.position = engine_game.to_position()
    game.status = Game.FINISHED if engine_game.turn is None else Game.PLAYING
    update_awaiting(game, seat, events)
    return new_version, after


def _after_commit(
    game: Game, live: LiveGame, seat: str, events: list[Event], after: dict[str, Any], new_version: int
) -> MoveResult:
    """The committed move's result: patches and events per listener, the next bot's plan; and the
    game kept in memory for the next move (only a committed move is: a rollback leaves no entry
    to mislead the next one; a finished game, which has no next move, is not kept, nor its
    replayed recent events)."""
    engine_game = live.engine_game
    game.version = new_version
    next_plan, settled = bot_plan_after(game, engine_game, after[PUBLIC])
    if game.status == Game.PLAYING:
        LIVE.put(game.id, LiveGame(new_version, engine_game, after, engine_game.turn, game))
    else:
        forget_finished(game.id)
    parts = listener_parts(live.views, after, events)
    return MoveResult(str(game.id), new_version, seat, parts, game.status, list(game.awaiting), next_plan, settled)


def listener_parts(before: dict[str, Any], after: dict[str, Any], events: list[Any]) -> dict[str, dict[str, list[Any]]]:
    """Each listener's part of a move's update: the patch from its view before to its view after,
    and the move's events redacted for it."""
    return {
        key: {"ops": view_patch(before[key], after[key]), "events": redacted(events, None if key == PUBLIC else key)}
        for key in after
    }


def game_to_move(game: Game | None, expected_version: int | None) -> Game:
    """The locked row, if an action made at `expected_version` may be applied to it; else the
    refusal (RoomError)."""
    if game is None:
        raise RoomError("not_found", status=404)
    if game.status == Game.LOBBY:
        raise RoomError("not_started", status=409)
    if game.status == Game.FINISHED:
        raise RoomError("game_over", status=409)
    if expected_version is not None and expected_version != game.version:
        raise RoomError("stale_version", status=409)
    return game


def update_awaiting(game: Game, seat: str, events: list[Event]) -> None:
    """After a deal ends (and the game goes on) the bots wait for each human's next_deal."""
    if seat in game.awaiting:
        # A human who acts has seen the score.
        game.awaiting = [s for s in game.awaiting if s != seat]
    types = {event.get("type") for event in events}
    if "deal_end" in types and "game_over" not in types and game.status != Game.FINISHED:
        game.awaiting = game.human_seats()
        game.awaiting_since = timezone.now()


def announce_finished(game: Game) -> None:
    """Tell the apps built on games that this game is over (also when anyone opens it later).

    A listener's failure is logged and the move stands: the announcement comes again on the
    next visit of the finished game (a ranked daily's entry is then written).
    """
    for receiver, outcome in game_finished.send_robust(sender=Game, game=game):
        if isinstance(outcome, Exception):
            log.error(
                "%s failed on the end of game %s",
                getattr(receiver, "__qualname__", receiver),
                game.id,
                exc_info=outcome,
            )


def next_deal(game_id: GameId, seat: str) -> bool:
    """The human at `seat` saw the deal's score; True when no human is awaited any more."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            return False
        if seat in game.awaiting:
            game.awaiting = [s for s in game.awaiting if s != seat]
            game.save(update_fields=["awaiting", "updated"])
        return not game.awaiting


def check_action(game_id: GameId, seat: str, action: dict[str, Any]) -> Check:
    return _started_game(game_id).check(seat, action)


def take_choice(game_id: GameId, seat: str) -> dict[str, Any]:
    """Take pile pressed with nothing selected: a take that works now, or why none does (the
    engine's `take_choice`, from the same candidates as its options)."""
    return _started_game(game_id).take_choice(seat)


def _started_game(game_id: GameId) -> engine.Game:
    game = load(game_id)
    if game is None:
        raise RoomError("not_found", status=404)
    if game.position is None:
        raise RoomError("not_started", status=409)
    return engine.Game.from_position(game.position)

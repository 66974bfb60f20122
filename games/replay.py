"""Replaying a stored game: the engine game rebuilt from its stored initial position and its moves.

The one replay of the project. The room service checks stored positions with it; the leaderboards
score a daily with it; games.watch shows a finished game with every hand open from it. It starts
from `Game.initial_position` (what the game was dealt, or the prepared position it started from),
never from the seed alone.

Its steps (`replay_steps`) are the spectator's view (`public_view`: no hand or foot cards) after
each move, so stepping through them shows what the table showed: the boards' replay of a ranked
daily and the admin's read them. Only the engine knows the rules; this module only feeds it the
stored moves in order. Applying a whole game's moves is cheap beside building the views, so only
the asked-for steps get one.
"""

from collections.abc import Iterable
from typing import Any

from games.engine import Game as EngineGame
from games.engine import public_fields
from games.engine.records import Action
from games.models import Game, Move


def initial_game(game: Game) -> EngineGame:
    """The engine game at version 0 of a stored game (ValueError if it never started)."""
    if game.initial_position is None:
        raise ValueError(f"game {game.id} has not started: it has no initial position")
    return EngineGame.from_position(game.initial_position)


def replay(game: Game, moves: Iterable[Move] | None = None) -> EngineGame:
    """The engine game after `moves` (default: all the game's stored moves, in order)."""
    engine_game = initial_game(game)
    for move in game.moves.order_by("seq") if moves is None else moves:
        engine_game.apply(move.seat, move.action)
    return engine_game


def step_count(game: Game) -> int:
    """Steps of a replay: the deal (step 0) and one per stored move."""
    moves: int = game.moves.count()
    return moves + 1


def replay_steps(game: Game, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
    """Steps start..stop-1: [{"seq": 0, "seat": None, "action": None, "view": ...}, ...]."""
    engine_game = initial_game(game)
    steps: list[dict[str, Any]] = []
    if start == 0:
        steps.append({"seq": 0, "seat": None, "action": None, "view": engine_game.public_view()})
    moves = game.moves.order_by("seq")
    if stop is not None:
        moves = moves.filter(seq__lt=stop)
    for move in moves:
        engine_game.apply(move.seat, move.action)
        if move.seq >= start:
            steps.append(
                {
                    "seq": move.seq,
                    "seat": move.seat,
                    "action": public_fields(move.action),
                    "view": engine_game.public_view(),
                }
            )
    return steps


def describe_action(action: Action | None) -> str:
    """A one-line, plain-text summary of a move (escaped by the templates that show it)."""
    if not action:
        return "deal"
    kind = action.get("type", "?")
    if kind == "discard":
        return f"discard {action.get('card', '')}"
    if kind == "take_pile":
        return "take the pile with " + " ".join(action.get("cards", []))
    if kind == "meld":
        groups = [
            " ".join(group.get("cards", [])) + (f" → {group['to']}" if group.get("to") else "")
            for group in action.get("groups", [])
        ]
        return "meld " + " | ".join(groups)
    if kind == "undo":
        return "undo the last meld"
    return str(kind)

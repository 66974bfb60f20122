"""Replaying a stored game: the engine game rebuilt from its stored initial position and its moves.

The one replay of the project. The room service checks stored positions with it; the leaderboards
score a daily and show a game's replay with it. It starts from `Game.initial_position` (what the
game was dealt, or the prepared position it started from), never from the seed alone.
"""

from games.engine import Game as EngineGame


def initial_game(game) -> EngineGame:
    """The engine game at version 0 of a stored game (ValueError if it never started)."""
    if game.initial_position is None:
        raise ValueError(f"game {game.id} has not started: it has no initial position")
    return EngineGame.from_position(game.initial_position)


def replay(game, moves=None) -> EngineGame:
    """The engine game after `moves` (default: all the game's stored moves, in order)."""
    engine_game = initial_game(game)
    for move in game.moves.order_by("seq") if moves is None else moves:
        engine_game.apply(move.seat, move.action)
    return engine_game

"""Helpers of the leaderboard tests (imported by conftest.py and the test modules)."""
import random

import pytest


def engine_or_skip():
    engine = pytest.importorskip("games.engine", reason="the engine (games/engine) has not landed yet")
    if not hasattr(engine, "Game"):
        pytest.skip("games.engine does not export Game yet")
    return engine


def play_to_the_end(seed: int, rng_seed: int = 0) -> list[tuple[str, dict]]:
    """(seat, action) of a whole game played with random legal actions from `seed`."""
    engine = engine_or_skip()
    game, rng = engine.Game.new(seed), random.Random(rng_seed)
    from games.engine.playout import random_legal_action

    log = []
    while game.turn is not None:
        seat = game.turn
        action = random_legal_action(game, seat, rng)
        game.apply(seat, action)
        log.append((seat, action))
    return log



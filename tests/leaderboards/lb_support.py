"""Helpers of the leaderboard tests (imported by conftest.py and the test modules)."""

import random

from games.engine import Game
from games.engine.playout import random_legal_action


def play_to_the_end(seed: int, rng_seed: int = 0) -> list[tuple[str, dict]]:
    """(seat, action) of a whole game played with random legal actions from `seed`."""
    game, rng = Game.new(seed), random.Random(rng_seed)
    log = []
    while game.turn is not None:
        seat = game.turn
        action = random_legal_action(game, seat, rng)
        game.apply(seat, action)
        log.append((seat, action))
    return log

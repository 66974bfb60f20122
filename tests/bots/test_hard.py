"""The hard bot's search pieces: the copy of a world its rollouts play on, and how it values a
margin (R54 points, bent toward winning the game, R56)."""
import math
import random

from .support import Game

from games.bots.determinize import determinize
from games.bots.hard import _copy_game, rollout, winning_points


def test_a_copied_world_plays_like_the_position_and_leaves_the_template_alone():
    game = Game.new(seed=5)
    view = game.view(game.turn)
    position = determinize(view, random.Random(3))
    template = Game.from_position(position)
    first = rollout(_copy_game(template), view["seat"], {"type": "draw"}, 12)
    fresh = rollout(Game.from_position(position), view["seat"], {"type": "draw"}, 12)
    assert first == fresh
    assert template.to_position() == Game.from_position(position).to_position()


def test_winning_points_count_fully_near_an_even_game_and_level_off_when_it_is_decided():  # R56
    spread = 3000.0
    assert abs(winning_points(10, spread) - 10) < 0.01
    assert abs(winning_points(-10, spread) + 10) < 0.01
    far, farther = winning_points(8000, spread), winning_points(12000, spread)
    assert far < 8000 and farther - far < 0.05 * 4000
    assert farther < spread * math.sqrt(math.pi / 2)
    assert winning_points(-8000, spread) == -far

"""A bot's action is a function of (level, seed, view) only: the same view and seed give the same
action, and re-dealing the cards the seat cannot see does not change it."""

import random

import pytest

from games.bots import make_bot
from games.bots.determinize import determinize

from .support import Game

LEVELS = ["random", "easy", "normal", "hard"]


def options_for(level):
    return {"iterations": 6, "depth": 4} if level == "hard" else {}


def views_along_a_game(seed: int, steps: int):
    game = Game.new(seed=seed)
    bot = make_bot("normal", seed)
    views = []
    for _ in range(steps):
        seat = game.turn
        assert seat is not None
        views.append((game, game.view(seat)))
        game = Game.from_position(game.to_position())
        game.apply(seat, bot.act(game.view(seat)))
    return views


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_and_seed_same_action(level):
    for _, view in views_along_a_game(3, 25)[::3]:
        first = make_bot(level, 9, **options_for(level)).act(view)
        again = make_bot(level, 9, **options_for(level)).act(view)
        assert first == again


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_cards_do_not_change_the_action(level):
    for game, view in views_along_a_game(4, 30)[1::4]:
        seat = view["seat"]
        # two complete positions that differ only in what the seat cannot see
        other = Game.from_position(determinize(view, random.Random(1)))
        third = Game.from_position(determinize(view, random.Random(2)))
        assert other.to_position() != third.to_position()
        assert other.view(seat) == view == third.view(seat)
        bot_options = options_for(level)
        actions = {repr(make_bot(level, 2, **bot_options).act(g.view(seat))) for g in (game, other, third)}
        assert len(actions) == 1, actions


def test_the_seed_matters_for_the_random_bot():
    view = next(v for _, v in views_along_a_game(6, 8) if v["phase"] == "play")
    actions = {repr(make_bot("random", s).act(view)) for s in range(12)}
    assert len(actions) > 1


def test_determinization_keeps_every_count_of_the_view():
    for _, view in views_along_a_game(8, 20)[::5]:
        position = determinize(view, random.Random(0))
        game = Game.from_position(position)  # the engine accepts it: 270 cards, legal melds
        assert game.view(view["seat"]) == view

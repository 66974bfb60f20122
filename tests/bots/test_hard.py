"""The hard bot's search pieces: the copy of a world its rollouts play on, and how it values a
margin (R54 points, bent toward winning the game, R56)."""

import math
import random

from games.bots import hard
from games.bots.determinize import determinize
from games.bots.hard import confident_best, copy_game, in_contention, rollout, winning_points

from .support import Game


def test_a_copied_world_plays_like_the_position_and_leaves_the_template_alone():
    game = Game.new(seed=5)
    view = game.view("S")  # deal 1: East deals, South plays first (R8)
    position = determinize(view, random.Random(3))
    template = Game.from_position(position)
    first = rollout(copy_game(template), view["seat"], {"type": "draw"}, 12)
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


def test_an_alternative_that_plays_out_like_normal_drops_out_of_the_race():
    base = [100.0, -40.0, 250.0, 0.0]
    assert not in_contention(base, list(base))  # gain 0 in every world
    assert in_contention(base, [b + 120 for b in base])  # a clear gain stays in
    assert not in_contention(base, [b - 30 for b in base])


def test_the_normal_choice_stays_unless_an_alternative_clears_the_bar():
    base = [0.0, 10.0, -10.0, 5.0]
    assert confident_best([base, [b + 30 for b in base]]) == 0  # below the +50 bar
    noisy = [b + g for b, g in zip(base, [400, -300, 350, -250], strict=True)]
    assert confident_best([base, noisy]) == 0  # mean +50 but no confidence
    assert confident_best([base, [b + 30 for b in base], [b + 90 for b in base]]) == 2


def test_the_search_spends_at_most_its_budget_and_less_when_nothing_is_contested(monkeypatch):
    calls = []

    def fake_rollout(game, seat, action, depth):
        calls.append(action["card"])
        return 0.0  # every candidate alike

    monkeypatch.setattr(hard, "rollout", fake_rollout)
    game = Game.new(seed=5)
    view = game.view("S")  # deal 1: East deals, South plays first (R8)
    candidates = [{"type": "discard", "card": c} for c in ("AC", "KD", "QH")]
    bot = hard.HardBot(seed=1, iterations=48)
    assert bot.search(view, candidates, 12, random.Random(1)) == 0
    assert len(calls) == 3 * hard.SCREEN_WORLDS < 48

    calls.clear()

    def king_wins(game, seat, action, depth):
        calls.append(action["card"])
        return 200.0 if action["card"] == "KD" else 0.0

    monkeypatch.setattr(hard, "rollout", king_wins)
    assert bot.search(view, candidates, 12, random.Random(1)) == 1
    assert len(calls) <= 48 and calls.count("KD") == calls.count("AC") > hard.SCREEN_WORLDS

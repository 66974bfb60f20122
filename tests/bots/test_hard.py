"""The hard bot's search pieces: the copy of a world its rollouts play on, and how it values a
margin (R54 points, bent toward winning the game, R56)."""

import math
import random

from games.bots import hard
from games.bots.determinize import determinize
from games.bots.hard import confident_best, copy_game, in_contention, rollout, winning_points

from .support import Game, game_at, partner_waits_in_foot


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


def test_a_rollout_to_a_turn_horizon_stops_when_the_seat_ends_its_nth_turn(monkeypatch):
    game = Game.new(seed=7)
    view = game.view("S")  # deal 1: East deals, South plays first (R8)
    world = Game.from_position(determinize(view, random.Random(2)))
    ends: list[int] = []
    real_apply = Game.apply

    def counted(self, seat, action):
        events = real_apply(self, seat, action)
        if seat == "S" and self.turn != "S":
            ends.append(self.ply)
        return events

    monkeypatch.setattr(Game, "apply", counted)
    for turns in (1, 2, 3):
        ends.clear()
        played = copy_game(world)
        hard.play_out(played, "S", {"type": "draw"}, (hard.DEAL_END_PLIES, turns))
        assert len(ends) == turns and ends[-1] == played.ply  # stopped right after the n-th end
        assert played.turn == "W"


def test_every_candidate_is_scored_after_the_same_turns_of_every_seat():
    # a meld then a discard, or a discard at once: both rollouts stop as the seat's 2nd turn ends
    game = game_at(turn="S", phase="play", hands={"S": "QC QD QS 4H 6D 8C TS"}, melds={"NS": ["AC AD AH"], "EW": []})
    view = game.view("S")
    world = Game.from_position(determinize(view, random.Random(4)))
    stops = []
    for action in ({"type": "meld", "groups": [{"cards": ["QC", "QD", "QS"]}]}, {"type": "discard", "card": "4H"}):
        played = copy_game(world)
        hard.play_out(played, "S", action, (hard.DEAL_END_PLIES, 2))
        stops.append((played.turn, played.to_position()["phase"]))
    assert stops[0] == stops[1] == ("W", "draw")


def test_the_search_never_holds_back_a_seat_whose_partner_waits_in_the_foot(monkeypatch):  # R49c
    game = partner_waits_in_foot()

    def no_search(*args, **kwargs):
        raise AssertionError("the search ran")

    monkeypatch.setattr(hard.HardBot, "searched", no_search)
    action, why = hard.HardBot(seed=1).act_explained(game.view("S"))
    assert why is not None and why["code"] == "rush_to_foot" and action["type"] == "meld"

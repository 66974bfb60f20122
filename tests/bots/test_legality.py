"""Bots only ever produce legal actions, over complete games (every action is checked with
`game.check` before it is applied; apply would raise on an illegal one anyway)."""

import copy
import random

import pytest

from games.bots import hard as hard_search
from games.bots import make_bot, normal
from games.bots.base import ViewChecker
from games.bots.cards import TEAM_OF
from games.bots.determinize import determinize
from games.bots.situation import analyse
from games.engine import STANDARD

from .support import Game, engine_helpers


def play_checked(seed: int, levels: dict[str, str], max_actions: int = 5000, rules=STANDARD, **hard) -> Game:
    game = Game.new(seed=seed, rules=rules)
    bots = {
        seat: make_bot(levels[TEAM_OF[seat]], seed + i, **(hard if levels[TEAM_OF[seat]] == "hard" else {}))
        for i, seat in enumerate("SWNE")
    }
    for _ in range(max_actions):
        if game.turn is None:
            break
        seat = game.turn
        action = bots[seat].act(game.view(seat))
        verdict = game.check(seat, action)
        assert verdict["ok"], (seat, action, verdict)
        game.apply(seat, action)
    return game


@pytest.mark.parametrize(
    "seed,levels",
    [
        (11, {"NS": "normal", "EW": "easy"}),
        (12, {"NS": "easy", "EW": "normal"}),
        (13, {"NS": "random", "EW": "normal"}),
    ],
)
def test_complete_games_are_legal_to_the_end(seed, levels):
    game = play_checked(seed, levels)
    assert game.turn is None, "the game did not finish"
    assert len(game.scores()["deals"]) == 4  # R7


@pytest.mark.parametrize(
    "seed,levels",
    [
        (61, {"NS": "normal", "EW": "easy"}),
        (62, {"NS": "easy", "EW": "random"}),
        (63, {"NS": "random", "EW": "normal"}),
        (64, {"NS": "normal", "EW": "easy"}),
    ],
)
def test_complete_games_under_random_house_rules_are_legal_to_the_end(seed, levels):  # R7
    rules = engine_helpers.random_rules(random.Random(seed))
    game = play_checked(seed, levels, rules=rules)
    assert game.turn is None, f"the game did not finish under {rules}"
    assert len(game.scores()["deals"]) == rules.deals


@pytest.mark.parametrize("seed", [81, 82, 83, 84])
def test_every_candidate_the_search_weighs_is_legal_under_random_house_rules(seed):
    """Property: at every decision of a whole game (random house rules, normal and random seats),
    each action the hard search may play (normal's and its alternatives, R25–R50) is one the
    engine accepts on the real table, though the search chose them on the seat's view alone."""
    rules = engine_helpers.random_rules(random.Random(seed))
    game = Game.new(seed=seed, rules=rules)
    players = {"NS": make_bot("normal", seed), "EW": make_bot("random", seed)}
    weighed = 0
    while game.turn is not None:
        seat = game.turn
        view = game.view(seat)
        check = ViewChecker(view)
        base, _why = normal.explain(view, check)
        if base is not None:
            candidates, _out = hard_search.search_candidates(analyse(view), base, check)
            for candidate in candidates:
                assert game.check(seat, candidate)["ok"], (rules, seat, candidate)
            weighed += len(candidates)
        game.apply(seat, players[TEAM_OF[seat]].act(view))
    assert weighed > 0 and len(game.scores()["deals"]) == rules.deals


def test_rollouts_to_a_turn_horizon_are_legal_under_random_house_rules():
    """The search's rollouts (the normal policy for every seat, stopped at the seat's n-th turn
    end) apply only legal actions: `Game.apply` raises on any other, under any house rules."""
    for seed in (91, 92, 93):
        rules = engine_helpers.random_rules(random.Random(seed))
        game = Game.new(seed=seed, rules=rules)
        assert game.turn is not None
        view = game.view(game.turn)
        world = hard_search.world_game(determinize(view, random.Random(seed)))
        hard_search.play_out(world, view["seat"], {"type": "draw"}, (hard_search.DEAL_END_PLIES, 3))
        assert world.ply > 6


@pytest.mark.parametrize("seed", [71, 72])
def test_hard_plays_legal_actions_under_random_house_rules(seed):
    rules = engine_helpers.random_rules(random.Random(seed))
    game = Game.new(seed=seed, rules=rules)
    hard = make_bot("hard", 5, iterations=6, turns=1)
    normal = make_bot("normal", 5)
    for _ in range(40):
        seat = game.turn
        if seat is None:
            break
        bot = hard if TEAM_OF[seat] == "NS" else normal
        action = bot.act(game.view(seat))
        assert game.check(seat, action)["ok"], (rules, action)
        game.apply(seat, action)


def test_hard_plays_legal_actions_for_a_stretch():
    game = Game.new(seed=21)
    hard = make_bot("hard", 5, iterations=6, turns=1)
    normal = make_bot("normal", 5)
    for _ in range(40):
        seat = game.turn
        assert seat is not None
        bot = hard if TEAM_OF[seat] == "NS" else normal
        action = bot.act(game.view(seat))
        assert game.check(seat, action)["ok"], action
        game.apply(seat, action)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(30, 50))
def test_many_games_are_legal(seed):
    levels = [{"NS": "normal", "EW": "easy"}, {"NS": "random", "EW": "easy"}][seed % 2]
    assert play_checked(seed, levels).turn is None


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(50, 54))
def test_whole_games_of_hard_at_its_live_budget_under_random_house_rules_are_legal(seed):
    rules = engine_helpers.random_rules(random.Random(seed))
    game = play_checked(seed, {"NS": "hard", "EW": "normal"}, rules=rules)
    assert game.turn is None and len(game.scores()["deals"]) == rules.deals


@pytest.mark.parametrize("seed", [31, 32])
def test_a_bot_checking_on_the_true_game_decides_as_on_its_view(seed, monkeypatch):
    """The room hands a quick bot the game its view was made from (games.rooms.computer_turns):
    checked there instead of on a determinization, every decision and reason of a whole game,
    under random house rules, is the same."""
    rules = engine_helpers.random_rules(random.Random(seed))
    game = Game.new(seed=seed, rules=rules)
    bots = {"NS": make_bot("easy", seed), "EW": make_bot("normal", seed)}
    asked: list[dict] = []  # the checks the bots asked of the true game
    engine_check = Game.check

    def counted(self, seat, action):
        if self is game:
            asked.append(action)
        return engine_check(self, seat, action)

    monkeypatch.setattr(Game, "check", counted)
    while game.turn is not None:
        seat = game.turn
        view = game.view(seat)
        bot = bots[TEAM_OF[seat]]
        on_view = bot.act_explained(view)
        assert bot.act_explained(view, game) == on_view, (rules, seat, view["ply"])
        game.apply(seat, on_view[0])
    assert asked and len(game.scores()["deals"]) == rules.deals


@pytest.mark.parametrize("seed,levels", [(41, {"NS": "normal", "EW": "easy"}), (42, {"NS": "random", "EW": "normal"})])
def test_a_bot_never_changes_the_view_it_is_given(seed, levels):
    """A move's views share the parts of its public view, and the next bot's view shares them too
    (games.rooms.seat_views.views_for): a bot that changed its view in place would change what the
    room sends next. Each decision of a whole game leaves its view as it was."""
    game = Game.new(seed=seed, rules=engine_helpers.random_rules(random.Random(seed)))
    bots = {team: make_bot(level, seed) for team, level in levels.items()}
    while game.turn is not None:
        seat = game.turn
        view = game.view(seat, game.public_view())
        before = copy.deepcopy(view)
        action = bots[TEAM_OF[seat]].act_explained(view, game)[0]
        assert view == before, (seat, view["ply"], action)
        game.apply(seat, action)

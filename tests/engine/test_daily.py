"""Daily and new games (docs/RULES.md §13): deals are a pure function of seed and deal number, and
the game is fully determined by its deals and actions."""

import random

from games.engine import Game

from .helpers import DRAW, cards, discard, exhaust_stock, position
from .test_deal import assert_dealt_as_reference


def test_the_same_seed_gives_the_same_deal():  # R57
    assert Game.new(seed=20261201).to_position() == Game.new(seed=20261201).to_position()
    assert_dealt_as_reference(Game.new(seed=20261201).to_position(), 20261201, 1)


def test_a_large_seed_follows_the_same_shuffle():  # R57
    # The shuffle key is f"{seed}:{deal}", whatever the seed looks like.
    pos = Game.new(seed=123456789).to_position()
    assert_dealt_as_reference(pos, 123456789, 1)


def test_later_deals_do_not_depend_on_how_earlier_ones_were_played():  # R57
    quick = Game.from_position(position(seed=31, stock=""))
    quick.apply("S", DRAW)  # deal 1 ends at once
    played = Game.new(seed=31)
    for _ in range(8):  # a few turns, then the stock runs out
        seat = played.turn
        assert seat is not None
        played.apply(seat, DRAW)
        played.apply(seat, discard(cards(played.to_position()["hands"][seat])[-1]))
    played = Game.from_position(exhaust_stock(played.to_position()))
    assert played.turn is not None
    played.apply(played.turn, DRAW)
    a, b = quick.to_position(), played.to_position()
    assert a["deal"] == b["deal"] == 2
    for key in ("hands", "feet", "stock", "discard", "red_threes", "dealer", "turn"):
        assert a[key] == b[key], key


def test_a_new_game_has_a_new_seed():  # R58
    positions = {str(Game.new(seed=s).to_position()["hands"]) for s in range(20)}
    assert len(positions) == 20


def test_replaying_the_actions_gives_the_same_game():  # R59
    rng = random.Random(5)
    game = Game.new(seed=99)
    log = []
    for _ in range(40):
        seat = game.turn
        assert seat is not None
        for action in (DRAW, discard(rng.choice(cards(game.to_position()["hands"][seat])))):
            if game.turn != seat:
                break
            game.apply(seat, action)
            log.append((seat, action))
    replay = Game.new(seed=99)
    for seat, action in log:
        replay.apply(seat, action)
    assert replay.to_position() == game.to_position()


def test_no_hidden_randomness_in_apply():  # R59
    a, b = Game.new(seed=4), Game.new(seed=4)
    events_a = a.apply("S", DRAW)
    events_b = b.apply("S", DRAW)
    assert events_a == events_b and a.to_position() == b.to_position()


def test_a_new_game_without_a_seed_draws_a_fresh_one():  # R58
    a, b = Game.new(), Game.new()
    assert a.to_position()["seed"] != b.to_position()["seed"]
    assert a.to_position()["hands"] != b.to_position()["hands"]


def test_a_string_seed_is_shuffled_by_the_same_key():  # R57
    pos = Game.new(seed="daily-2026-12-01").to_position()
    assert pos["seed"] == "daily-2026-12-01"
    assert_dealt_as_reference(pos, "daily-2026-12-01", 1)

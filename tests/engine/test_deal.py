"""Seats, teams, deals and the deal itself (docs/RULES.md §2–§3), checked against a reference deal.

`reference_deal` re-derives R11–R13 and R57 independently of the engine: the shuffled canonical
deck, dealt from the first player clockwise, the upcard buried while it is a red three or a
joker, and the dealt red threes laid and replaced in turn order.
"""

import random
from collections import Counter

import pytest

from games.engine import Game

from .helpers import (
    DEALER_OF_DEAL,
    DRAW,
    FIRST_PLAYER_OF_DEAL,
    RED_THREES,
    SEATS,
    TEAM_OF,
    canonical_deck,
    cards,
    discard,
    game_at,
    meld,
    next_seat,
    position,
)


def seats_from(first):
    i = SEATS.index(first)
    return [SEATS[(i + k) % 4] for k in range(4)]


def shuffled_deck(seed, deal):
    deck = canonical_deck()
    random.Random(f"{seed}:{deal}").shuffle(deck)  # R57
    return deck


def reference_deal(seed, deal):
    """R11–R13 from scratch: hands, feet, upcard, stock (top first), laid red threes."""
    deck = shuffled_deck(seed, deal)
    order = seats_from(FIRST_PLAYER_OF_DEAL[deal])
    hands = {seat: deck[13 * i : 13 * i + 13] for i, seat in enumerate(order)}  # R11
    feet = {seat: deck[52 + 13 * i : 65 + 13 * i] for i, seat in enumerate(order)}
    upcard, stock = deck[104], deck[105:]
    while upcard in RED_THREES or upcard == "JK":  # R12
        stock.insert(len(stock) // 2, upcard)
        upcard = stock.pop(0)
    laid: dict[str, list[str]] = {"NS": [], "EW": []}
    for seat in order:  # R13: in turn order, from the first player
        pending = [c for c in hands[seat] if c in RED_THREES]
        hands[seat] = [c for c in hands[seat] if c not in RED_THREES]
        while pending:
            laid[TEAM_OF[seat]].append(pending.pop(0))
            replacement = stock.pop(0)
            (pending if replacement in RED_THREES else hands[seat]).append(replacement)
    return {"hands": hands, "feet": feet, "upcard": upcard, "stock": stock, "laid": laid}


def assert_dealt_as_reference(pos, seed, deal):
    ref = reference_deal(seed, deal)
    for seat in SEATS:
        assert Counter(cards(pos["hands"][seat])) == Counter(ref["hands"][seat]), seat
        assert Counter(cards(pos["feet"][seat])) == Counter(ref["feet"][seat]), seat
    assert cards(pos["discard"]) == [ref["upcard"]]
    assert cards(pos["stock"]) == ref["stock"]
    for team in ("NS", "EW"):
        assert Counter(cards(pos["red_threes"][team])) == Counter(ref["laid"][team])


def seed_where(predicate, deal=1, limit=5000):
    for seed in range(limit):
        if predicate(shuffled_deck(seed, deal)):
            return seed
    raise AssertionError("no such seed in range")


def test_teams_are_north_south_against_east_west():  # R5
    game = game_at(hands={"S": "9C 9S 9H 4D", "N": "7C 7D 7H 4H"}, phase="play", melds={"NS": ["KC KD KH"]})
    game.apply("S", meld("9C 9S 9H"))
    assert any(Counter(cards(m)) == Counter(["9C", "9S", "9H"]) for m in game.to_position()["melds"]["NS"])
    assert set(game.view("S")["melds"]) == {"NS", "EW"}


def test_play_goes_clockwise():  # R6
    game = Game.new(seed=11)
    seen = []
    for _ in range(5):
        seat = game.turn
        assert seat is not None
        seen.append(seat)
        game.apply(seat, DRAW)
        game.apply(seat, discard(cards(game.to_position()["hands"][seat])[0]))
    assert seen == ["S", "W", "N", "E", "S"]


def test_a_game_has_four_deals():  # R7
    game = game_at(deal=4, stock="")
    game.apply("E", DRAW)  # the empty stock ends deal 4 (R53)
    assert game.turn is None
    assert game.to_position()["phase"] == "over"
    assert game.to_position()["deal"] == 4


@pytest.mark.parametrize("deal", [1, 2, 3, 4])
def test_dealer_and_first_player_of_each_deal(deal):  # R8
    # End the previous deal by an empty stock and look at the deal that follows.
    if deal == 1:
        pos = Game.new(seed=5).to_position()
    else:
        game = game_at(seed=5, deal=deal - 1, stock="")
        game.apply(FIRST_PLAYER_OF_DEAL[deal - 1], DRAW)
        pos = game.to_position()
    assert pos["deal"] == deal
    assert pos["dealer"] == DEALER_OF_DEAL[deal]
    assert pos["turn"] == next_seat(DEALER_OF_DEAL[deal]) == FIRST_PLAYER_OF_DEAL[deal]
    assert pos["phase"] == "draw"


def test_each_player_gets_a_hand_and_a_foot_of_13():  # R9
    game = Game.new(seed=3)
    pos = game.to_position()
    for seat in SEATS:
        assert len(cards(pos["hands"][seat])) == 13
        assert len(cards(pos["feet"][seat])) == 13
    view = game.view("S")
    assert all(view["seats"][s]["foot"] == 13 and not view["seats"][s]["in_foot"] for s in SEATS)


def test_the_foot_is_face_down():  # R9
    game = Game.new(seed=3)
    pos = game.to_position()
    own_foot = Counter(cards(pos["feet"]["S"]))
    assert Counter(game.view("S")["hand"]) == Counter(cards(pos["hands"]["S"]))
    assert "feet" not in game.view("S") and "foot" not in game.view("S")
    assert own_foot  # it exists, yet the view holds only its count


def test_stock_and_upcard():  # R10
    pos = Game.new(seed=3).to_position()
    laid = sum(len(cards(pos["red_threes"][t])) for t in ("NS", "EW"))
    assert len(cards(pos["discard"])) == 1
    assert len(cards(pos["stock"])) == 165 - laid


@pytest.mark.parametrize("seed", [0, 1, 2, 42, 2026])
def test_canonical_deal_order(seed):  # R11, R12, R13, R57
    assert_dealt_as_reference(Game.new(seed=seed).to_position(), seed, 1)


def test_red_three_upcard_is_buried_in_the_middle_of_the_stock():  # R12
    seed = seed_where(lambda d: d[104] in RED_THREES)
    pos = Game.new(seed=seed).to_position()
    assert_dealt_as_reference(pos, seed, 1)
    assert cards(pos["discard"])[-1] not in RED_THREES


def test_joker_upcard_is_buried():  # R12
    seed = seed_where(lambda d: d[104] == "JK")
    assert_dealt_as_reference(Game.new(seed=seed).to_position(), seed, 1)


def test_burial_repeats_until_the_upcard_is_neither():  # R12
    seed = seed_where(lambda d: d[104] in ("3H", "3D", "JK") and d[105] in ("3H", "3D", "JK"), limit=100000)
    pos = Game.new(seed=seed).to_position()
    assert_dealt_as_reference(pos, seed, 1)


@pytest.mark.parametrize("upcard", ["2C", "3S"])
def test_a_two_or_black_three_upcard_stays_up(upcard):  # R12
    seed = seed_where(lambda d: d[104] == upcard)
    pos = Game.new(seed=seed).to_position()
    assert cards(pos["discard"]) == [upcard]


def test_dealt_red_threes_are_laid_and_replaced_in_turn_order():  # R13
    # Pick a deal where at least two seats were dealt red threes: the order matters for the stock.
    def several(d):
        return sum(any(c in RED_THREES for c in d[13 * i : 13 * i + 13]) for i in range(4)) >= 2

    seed = seed_where(several)
    pos = Game.new(seed=seed).to_position()
    assert_dealt_as_reference(pos, seed, 1)
    for seat in SEATS:
        assert not set(cards(pos["hands"][seat])) & set(RED_THREES)


def test_red_threes_in_a_foot_wait_until_pickup():  # R13
    seed = seed_where(lambda d: any(c in RED_THREES for c in d[52:104]))
    pos = Game.new(seed=seed).to_position()
    assert any(set(cards(pos["feet"][s])) & set(RED_THREES) for s in SEATS)


def test_deals_two_to_four_are_dealt_the_same_way():  # R11, R55a, R57
    game = game_at(seed=9, deal=1, stock="")
    game.apply("S", DRAW)
    assert_dealt_as_reference(game.to_position(), 9, 2)


def test_position_defaults_are_consistent():
    # The helper itself: dealer from the deal (R8).
    assert position(deal=3)["dealer"] == "W" and position(deal=3)["turn"] == "N"


def test_a_random_seed_fits_the_stored_signed_64_bit_seed():  # R58
    # games.models stores the seed in a BigIntegerField (signed 64-bit): a 64-bit random seed
    # would overflow it about every second game.
    seeds = [Game.new().seed for _ in range(64)]
    assert all(isinstance(s, int) and 0 <= s < 2**63 for s in seeds)
    assert len(set(seeds)) == len(seeds)

"""Undo within a turn (docs/RULES.md V7): worked examples, its refusals, its notation, and random
legal play with random undos under random rules, each undo checked against the position it
must restore and the whole game replayed."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import STANDARD, Game, RuleError, Rules
from games.engine.playout import random_legal_action

from .helpers import (
    DRAW,
    GOING_OUT_PILES,
    assert_accepted,
    assert_refused,
    count_all_cards,
    discard,
    game_at,
    hand_of,
    meld,
    random_rules,
    take,
)

UNDO = {"type": "undo"}
WITH_UNDO = Rules(undo=True).to_json()
DOWN = {"NS": ["AC AD AH"]}


def without_ply(position):
    return {key: value for key, value in position.items() if key != "ply"}


def undo_game(**overrides):
    return game_at(rules=WITH_UNDO, **overrides)


def test_a_meld_and_an_addition_are_taken_back_one_undo_each():  # V7
    game = undo_game(hands={"S": "9C 9S 9H 4H KS 5D"}, phase="play", melds={"NS": ["KC KD KH"]})
    start = game.to_position()
    assert game.options("S")["undo"] is False
    assert_accepted(game, "S", meld("9C 9S 9H"))
    after_meld = game.to_position()
    assert game.options("S")["undo"] is True
    assert_accepted(game, "S", meld("KS", to="K"))
    events = assert_accepted(game, "S", UNDO)
    assert events == [{"type": "undo", "seat": "S", "team": "NS", "cards": ["KS"]}]
    assert without_ply(game.to_position()) == without_ply(after_meld)
    events = assert_accepted(game, "S", UNDO)
    assert events[0]["cards"] == ["9C", "9S", "9H"]
    assert without_ply(game.to_position()) == without_ply(start)
    assert game.to_position()["ply"] == start["ply"] + 4  # an undo is an action like any other
    assert game.options("S")["undo"] is False
    assert_refused(game, "S", UNDO, code="nothing_to_undo", rule="V7")


def test_several_groups_of_one_meld_action_come_back_together():  # V7
    game = undo_game(hands={"S": "9C 9S 9H 5C 5D 5H 4H"}, phase="play", melds=DOWN)
    assert_accepted(game, "S", meld("9C 9S 9H", "5C 5D 5H"))
    assert_accepted(game, "S", UNDO)
    assert hand_of(game, "S") == hand_of(undo_game(hands={"S": "9C 9S 9H 5C 5D 5H 4H"}, melds=DOWN), "S")
    assert game.melds["NS"] == [["AC", "AD", "AH"]]


def test_undoing_the_first_meld_leaves_the_team_not_down():  # V7, R37, R40
    game = undo_game(
        hands={"S": "KC KD KH AC AD AH 9C 9D 9H 4H"}, phase="play", down={"NS": False, "EW": False}, melds={}
    )
    assert_accepted(game, "S", meld("KC KD KH", "AC AD AH"))  # 60 points: the minimum of deal 1 is 50
    assert game.down["NS"] and game.options("S")["minimum"] == 0
    assert_accepted(game, "S", UNDO)
    assert game.down["NS"] is False and game.melds["NS"] == []
    assert game.options("S")["minimum"] == 50
    assert_refused(game, "S", meld("9C 9D 9H"), code="below_first_meld_minimum")


def test_a_completed_pile_is_incomplete_again_after_undo():  # V7, R19
    game = undo_game(hands={"S": "QS 4H 5D"}, phase="play", melds={"NS": ["QC QD QH QS QC QD"]})
    assert_accepted(game, "S", meld("QS", to="Q"))
    assert game.view("S")["piles"]["NS"]["clean"] == 1
    assert_accepted(game, "S", UNDO)
    assert game.view("S")["piles"]["NS"]["clean"] == 0
    assert game.view("S")["melds"]["NS"]["0"]["status"] == "incomplete"


def test_undo_never_goes_back_past_the_draw():  # V7, R26
    game = undo_game(hands={"S": "9C 9S 9H 4H"}, stock_top="7C 8D", melds=DOWN)
    assert_refused(game, "S", UNDO, code="must_draw_first")  # nothing to take back before the draw
    assert_accepted(game, "S", DRAW)
    after_draw = game.to_position()
    assert game.options("S")["undo"] is False
    assert_refused(game, "S", UNDO, code="nothing_to_undo")
    assert_accepted(game, "S", meld("9C 9S 9H"))
    assert_accepted(game, "S", UNDO)
    assert without_ply(game.to_position()) == without_ply(after_draw)  # the drawn cards stay in the hand
    assert hand_of(game, "S")["7C"] == 1 and hand_of(game, "S")["8D"] == 1


def test_after_a_take_undo_goes_back_to_just_after_the_take():  # V7, R30
    game = undo_game(hands={"S": "9C 9S 5C 5D 5H 4H"}, discard="KS 7D 9D", melds=DOWN)
    assert_accepted(game, "S", take("9C 9S"))
    after_take = game.to_position()
    assert game.options("S")["undo"] is False  # the take and its meld are not taken back
    assert_refused(game, "S", UNDO, code="nothing_to_undo")
    assert_accepted(game, "S", meld("5C 5D 5H"))
    assert_accepted(game, "S", UNDO)
    assert without_ply(game.to_position()) == without_ply(after_take)
    assert ["9D", "9C", "9S"] in game.melds["NS"]


def test_undo_never_goes_back_past_a_foot_picked_up():  # V7, R44
    foot = "KC KD KH 7S 7H 4C 6D 8C 8D 8H TS JS QS"
    game = undo_game(hands={"S": "9C 9S 9H 5C 5D 5H"}, feet={"S": foot}, phase="play", melds=DOWN)
    assert_accepted(game, "S", meld("9C 9S 9H"))
    assert_accepted(game, "S", meld("5C 5D 5H"))  # the hand is used up: the foot comes at once
    assert game.in_foot("S")
    assert game.options("S")["undo"] is False
    assert_refused(game, "S", UNDO, code="nothing_to_undo")
    after_foot = game.to_position()
    assert_accepted(game, "S", meld("KC KD KH"))
    assert_accepted(game, "S", meld("8C 8D 8H"))
    assert_accepted(game, "S", UNDO)
    assert_accepted(game, "S", UNDO)
    assert without_ply(game.to_position()) == without_ply(after_foot)  # the foot's cards stay seen
    assert_refused(game, "S", UNDO, code="nothing_to_undo")


def test_going_out_ends_the_deal_and_leaves_nothing_to_undo():  # V7, R49, R51
    game = undo_game(
        hands={"S": "9C 9S 9H 4D"}, feet={"S": None, "N": None}, phase="play", melds={"NS": GOING_OUT_PILES}
    )
    assert_accepted(game, "S", meld("9C 9S 9H"))
    assert_accepted(game, "S", discard("4D"))  # out: deal 2 is dealt
    assert game.deal == 2 and game.undo_points == []
    assert "undo" not in game.to_position()


def test_a_discard_ends_what_may_be_taken_back():  # V7, R25
    game = undo_game(hands={"S": "9C 9S 9H 4H 5D"}, phase="play", melds=DOWN)
    assert_accepted(game, "S", meld("9C 9S 9H"))
    assert_accepted(game, "S", discard("4H"))
    assert game.turn == "W" and game.undo_points == []
    assert game.options("S")["undo"] is False
    assert_refused(game, "S", UNDO, code="not_your_turn")


def test_a_table_without_undo_refuses_it():  # V7: the standard rules, and so the daily
    game = game_at(hands={"S": "9C 9S 9H 4H"}, phase="play", melds=DOWN)
    assert game.rules is STANDARD and STANDARD.undo is False
    assert_accepted(game, "S", meld("9C 9S 9H"))
    assert game.options("S")["undo"] is False
    error = assert_refused(game, "S", UNDO, code="undo_not_allowed", rule="V7")
    assert "daily" in error.message


def test_an_undo_has_no_other_field():  # PROTOCOL.md: the action vocabulary
    from games.engine import normalise_action

    assert normalise_action({"type": "undo"}) == {"type": "undo"}
    with pytest.raises(RuleError) as refused:
        normalise_action({"type": "undo", "steps": 2})
    assert refused.value.code == "bad_field"


# ---------------------------------------------------------------------- notation
def test_a_position_carries_the_points_an_undo_goes_back_to():  # V7, NOTATION.md
    game = undo_game(hands={"S": "9C 9S 9H 5C 5D 5H 4H"}, phase="play", melds=DOWN)
    assert "undo" not in game.to_position()
    assert_accepted(game, "S", meld("9C 9S 9H"))
    assert_accepted(game, "S", meld("5C 5D 5H"))
    position = game.to_position()
    assert position["undo"] == [
        {"hand": "9C 9S 9H 5C 5D 5H 4H", "melds": ["AC AD AH"], "down": True},
        {"hand": "5C 5D 5H 4H", "melds": ["AC AD AH", "9C 9S 9H"], "down": True},
    ]
    again = Game.from_position(position)
    assert again.to_position() == position
    again.apply("S", UNDO)
    game.apply("S", UNDO)
    assert again.to_position() == game.to_position()


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda p: p.pop("rules"), "allows undo"),
        (lambda p: p.update(phase="draw"), "player to act melds"),
        (lambda p: p.update(undo=[]), "non-empty list"),
        (lambda p: p["undo"][0].update(hand="9C 9S 9H 4H"), "lead to the next"),
        (lambda p: p["undo"][0].update(melds=["AC AD"]), "lead to the next"),
        (lambda p: p["undo"][0].update(down="yes"), "true or false"),
        (lambda p: p["undo"][0].update(hand="ZZ"), "does not exist"),
        (lambda p: p["undo"][0].pop("down"), "holds 'hand'"),
    ],
)
def test_a_position_with_impossible_undo_points_is_refused(change, reason):  # V7, NOTATION.md
    game = undo_game(hands={"S": "9C 9S 9H 5C 5D 5H 4H"}, phase="play", melds=DOWN)
    game.apply("S", meld("9C 9S 9H"))
    position = game.to_position()
    change(position)
    with pytest.raises(RuleError) as refused:
        Game.from_position(position)
    assert refused.value.code == "invalid_position" and reason in refused.value.message


# ---------------------------------------------------------------------- random play with undos
def play_with_undos(seed: int, rules: Rules, rng: random.Random, limit: int = 4000):
    """Random legal play that often takes melds back: every undo must restore exactly the
    position before the meld it takes back (but the ply), every position must read back."""
    game = Game.new(seed, rules=rules)
    log: list[tuple[str, dict]] = []
    before_melds: list[dict] = []  # the positions an undo must bring back, this turn
    undos = 0
    while game.turn is not None and len(log) < limit:
        seat = game.turn
        if game.options(seat)["undo"] and rng.random() < 0.4:
            game.apply(seat, UNDO)
            undos += 1
            assert without_ply(game.to_position()) == without_ply(before_melds.pop())
            action = UNDO
        else:
            action = random_legal_action(game, seat, rng)
            position = game.to_position()
            deal = game.deal
            game.apply(seat, action)
            melded_on = action["type"] == "meld" and game.deal == deal and game.turn == seat
            before_melds = [*before_melds, position] if melded_on and game.undo_points else []
        log.append((seat, action))
        assert len(before_melds) == len(game.undo_points)
        position = game.to_position()
        count_all_cards(position)
        assert Game.from_position(position).to_position() == position
    return game, log, undos


@settings(max_examples=4, deadline=None, database=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31), player=st.integers(min_value=0, max_value=2**31))
def test_random_play_with_random_undos_replays_identically(seed, player):  # V7, R59
    rules = Rules.from_json({**random_rules(random.Random(seed ^ player)).to_json(), "undo": True})
    game, log, undos = play_with_undos(seed, rules, random.Random(player))
    assert undos > 0
    replay = Game.new(seed, rules=rules)
    for seat, action in log:
        replay.apply(seat, action)
    assert replay.to_position() == game.to_position()

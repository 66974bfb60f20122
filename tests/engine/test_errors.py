"""Malformed and unlawful actions: always a RuleError with a stable code, never another
exception, and never a change to the game."""

import pytest

from games.engine import RuleError
from games.engine.errors import MESSAGES

from .helpers import DRAW, assert_refused, game_at, meld


@pytest.fixture
def game():
    return game_at(hands={"S": "9C 9S 9H 4H"}, phase="play", melds={"NS": ["AC AD AH"]}, discard="5C 9D")


@pytest.mark.parametrize(
    "action, code",
    [
        ({"type": "fly"}, "unknown_action"),
        ({"type": ""}, "unknown_action"),
        ({}, ("missing_field", "bad_action", "unknown_action")),
        ({"cards": ["9C"]}, ("missing_field", "bad_action", "unknown_action")),
        ({"type": None}, ("bad_action", "unknown_action", "bad_field")),
        ({"type": ["meld"]}, ("bad_action", "unknown_action", "bad_field")),
        ({"type": "discard"}, "missing_field"),
        ({"type": "discard", "card": None}, ("bad_field", "bad_card", "missing_field")),
        ({"type": "discard", "card": 9}, ("bad_field", "bad_card")),
        ({"type": "discard", "card": "9X"}, "bad_card"),
        ({"type": "discard", "card": "4H 9C"}, ("bad_card", "bad_field")),
        ({"type": "discard", "card": "KD"}, "card_not_held"),
        ({"type": "meld"}, "missing_field"),
        ({"type": "meld", "groups": []}, ("bad_field", "missing_field", "empty_group")),
        ({"type": "meld", "groups": "9C 9S 9H"}, "bad_field"),
        ({"type": "meld", "groups": [["9C", "9S", "9H"]]}, "bad_field"),
        ({"type": "meld", "groups": [{}]}, ("missing_field", "bad_field")),
        ({"type": "meld", "groups": [{"cards": []}]}, ("empty_group", "meld_too_small")),
        ({"type": "meld", "groups": [{"cards": "9C 9S 9H"}]}, ("bad_field", "bad_card")),
        ({"type": "meld", "groups": [{"cards": ["9C", "9S", "nine"]}]}, "bad_card"),
        ({"type": "meld", "groups": [{"cards": ["9C", "9S", None]}]}, ("bad_card", "bad_field")),
        ({"type": "meld", "groups": [{"cards": ["9C"], "to": "X"}]}, "bad_rank"),
        ({"type": "meld", "groups": [{"cards": ["9C"], "to": 9}]}, ("bad_rank", "bad_field")),
        ({"type": "meld", "groups": [{"cards": ["9C", "9S", "9H", "9C"]}]}, "card_not_held"),
        ({"type": "take_pile"}, ("missing_field", "already_drew")),
        ({"type": "draw", "extra": 1}, "already_drew"),
    ],
)
def test_malformed_actions_are_refused_cleanly(game, action, code):
    assert_refused(game, "S", action, code=code)


@pytest.mark.parametrize("action", [None, "draw", 7, ["draw"], ("draw",), 3.5])
def test_non_dict_actions(game, action):
    assert_refused(game, "S", action, code="bad_action")


@pytest.mark.parametrize("seat", ["X", "s", "", None, 1, "South", ["S"]])
def test_wrong_seat_names(game, seat):  # R5
    assert_refused(game, seat, DRAW, code="bad_seat")


def queries_refuse_or_answer(game, seat):
    """options/view of a non-seat: a RuleError bad_seat (R5) naming the seat, nothing else."""
    for query in (game.options, game.view):
        with pytest.raises(RuleError) as caught:
            query(seat)
        assert caught.value.code == "bad_seat" and caught.value.rule == "R5"
        assert caught.value.params == {"seat": str(seat)[:10]}


@pytest.mark.parametrize("seat", ["X", "s", "", None, 1, "South", "SouthWestNorth"])
def test_queries_with_wrong_seat_names(game, seat):  # R5
    queries_refuse_or_answer(game, seat)


def test_queries_with_an_unhashable_seat(game):  # R5
    queries_refuse_or_answer(game, ["S"])


def test_out_of_turn_actions(game):  # R24
    for seat in ("W", "N", "E"):
        assert_refused(game, seat, DRAW, code="not_your_turn", rule="R24")
        assert_refused(game, seat, {"type": "discard", "card": "4H"}, code="not_your_turn")


def test_every_code_has_a_message_and_errors_serialise():
    game_ = game_at(hands={"S": "9C 4H"}, phase="play")
    error = assert_refused(game_, "S", {"type": "discard", "card": "KD"}, code="card_not_held")
    assert error.code in MESSAGES and "KD" in error.message
    assert error.params == {"card": "KD"}
    dry = game_.check("S", {"type": "discard", "card": "KD"})
    assert set(dry) == {"ok", "code", "message", "rule", "params"}
    assert dry["rule"] == error.rule


def test_huge_and_nested_garbage_is_refused(game):
    deep = {"type": "meld", "groups": [{"cards": ["9C"] * 10000}]}
    assert_refused(game, "S", deep)
    assert_refused(game, "S", {"type": "meld", "groups": [{"cards": [{"x": 1}]}]})
    assert_refused(game, "S", {"type": "take_pile", "cards": "9C 9S"})


@pytest.mark.parametrize(
    "seat, action, code, rule, params",
    [
        ("S", {"type": "discard"}, "missing_field", None, {"field": "card"}),
        ("S", {"type": "meld"}, "missing_field", None, {"field": "groups"}),
        ("S", {"type": "meld", "groups": "x"}, "bad_field", None, {"field": "groups"}),
        ("S", {"type": "meld", "groups": [5]}, "bad_field", None, {"field": "groups"}),
        ("S", {"type": "meld", "groups": [{"cards": ["9C"], "to": "X"}]}, "bad_rank", "R21", {"rank": "X"}),
        ("S", {"type": "meld", "groups": [{"cards": ["9C"], "to": "Q"}]}, "no_such_meld", "R21", {"rank": "Q"}),
        ("S", {"type": "meld", "groups": [{"cards": ["KD", "KD", "KD"]}]}, "card_not_held", "R24", {"card": "KD"}),
        ("S", {"type": "discard", "card": "KD"}, "card_not_held", "R25", {"card": "KD"}),
        ("S", {"type": "discard", "card": "XX"}, "bad_card", "R1", {"card": "XX"}),
        ("S", {"type": "fly"}, "unknown_action", None, {"type": "fly"}),
        ("W", {"type": "draw"}, "not_your_turn", "R24", {"turn": "S"}),
        ("S", {"type": "draw"}, "already_drew", "R26", {}),
        # Values echoed into a message are cut short, so a client cannot make the engine repeat a
        # long string back to every player.
        (
            "S",
            {"type": "meld", "groups": [{"cards": ["9C"], "to": "ABCDEFGHIJKLMNOP"}]},
            "bad_rank",
            "R21",
            {"rank": "ABCDEFGHIJ"},
        ),
        ("S", {"type": "x" * 40}, "unknown_action", None, {"type": "x" * 30}),
        ("S", {"type": "discard", "card": "Z" * 30}, "bad_card", "R1", {"card": "Z" * 20}),
    ],
)
def test_refusals_carry_code_rule_and_params(game, seat, action, code, rule, params):
    error = assert_refused(game, seat, action, code=code)
    assert error.rule == rule
    assert error.params == params
    assert game.check(seat, action)["params"] == params


def test_cannot_go_out_says_why():  # R49
    from .helpers import GOING_OUT_PILES
    from .helpers import discard as discard_action

    game = game_at(hands={"S": "9S", "N": "4C 4D"}, feet={"S": None}, phase="play", melds={"NS": GOING_OUT_PILES})
    error = assert_refused(game, "S", discard_action("9S"), code="cannot_go_out", rule="R49")
    assert "partner" in error.params["reason"] and error.params["reason"] in error.message


def test_must_draw_first_before_a_meld():  # R26
    game_ = game_at(hands={"S": "9C 9S 9H 4H"}, melds={"NS": ["AC AD AH"]})
    error = assert_refused(
        game_, "S", {"type": "meld", "groups": [{"cards": ["9C", "9S", "9H"]}]}, code="must_draw_first"
    )
    assert error.rule == "R26"


@pytest.mark.parametrize(
    "hand, discard_pile, action, code, rule, params",
    [
        ("9C 9S 4H", "", {"type": "take_pile", "cards": ["9C", "9S"]}, "pile_empty", "R28", {}),
        (
            "9C 9S 4H",
            "9D",
            {"type": "take_pile", "cards": ["9C", "9S"], "groups": [{"cards": ["4H"], "to": "9"}]},
            "bad_field",
            "R30",
            {"field": "groups"},
        ),
        (
            "9C 9S KC 4H",
            "9D",
            {"type": "take_pile", "cards": ["9C", "9S", "KC"]},
            "card_does_not_match",
            "R30",
            {"card": "KC", "top": "9D"},
        ),
        ("9C 4H", "9D", {"type": "take_pile", "cards": ["9C"]}, "no_matching_pair", "R29", {"top": "9D"}),
        (
            "2C 2S 9C 4H",
            "2H",
            {"type": "take_pile", "cards": ["2C", "2S", "9C"]},
            "card_does_not_match",
            "R30",
            {"card": "9C", "top": "2H"},
        ),
        ("2C 9C 4H", "2H", {"type": "take_pile", "cards": ["2C"]}, "no_matching_pair", "R29", {"top": "2H"}),
        # a joker's name starts with J, yet it is no Jack: one Jack and a joker are no pair (R3)
        ("JC JK 4H", "JD", {"type": "take_pile", "cards": ["JC", "JK"]}, "no_matching_pair", "R29", {"top": "JD"}),
    ],
)
def test_take_refusals_carry_rule_and_params(hand, discard_pile, action, code, rule, params):  # R28-R30
    game_ = game_at(hands={"S": hand}, discard=discard_pile, melds={"NS": ["AC AD AH"]})
    error = assert_refused(game_, "S", action, code=code, rule=rule)
    assert error.params == params


def test_at_most_thirty_groups(game):  # a bound against huge actions
    thirty = {"type": "meld", "groups": [{"cards": ["9C"], "to": "A"}] * 30}
    assert game.check("S", thirty)["code"] != "bad_field"
    assert game.check("S", {"type": "meld", "groups": [{"cards": ["9C"], "to": "A"}] * 31})["params"] == {
        "field": "groups"
    }


@pytest.mark.parametrize(
    "groups, code, rule, params",
    [
        ([{"to": "A"}], "missing_field", None, {"field": "cards"}),
        ([{"cards": "9C"}], "bad_field", None, {"field": "cards"}),
        ([{"cards": ["9C"] * 31}], "bad_field", None, {"field": "cards"}),
        ([{"cards": [5]}], "bad_card", "R1", {"card": "5"}),
        ([{"cards": []}], "empty_group", "R15", {}),
    ],
)
def test_group_refusals_carry_rule_and_params(game, groups, code, rule, params):  # R1, R15
    error = assert_refused(game, "S", {"type": "meld", "groups": groups}, code=code, rule=rule)
    assert error.params == params


def test_thirty_cards_in_a_group_are_not_a_bad_field(game):
    assert game.check("S", {"type": "meld", "groups": [{"cards": ["9C"] * 30}]})["code"] != "bad_field"


def test_a_second_incomplete_meld_of_a_rank_names_the_rank():  # R20
    game_ = game_at(hands={"S": "9C 9S 9H 9D 9C 9S 4H"}, phase="play", melds={"NS": ["AC AD AH"]})
    error = assert_refused(game_, "S", meld("9C 9S 9H", "9D 9C 9S"), code="duplicate_incomplete_meld", rule="R20")
    assert error.params == {"rank": "9"}


def test_the_exception_text_is_the_message(game):
    error = assert_refused(game, "S", {"type": "discard", "card": "KD"}, code="card_not_held")
    assert str(error) == error.message == "You do not hold KD."


def test_a_draw_or_a_discard_lays_no_points():  # VIEW.md check: points laid by the action
    assert game_at(hands={"S": "9C 4H"}).check("S", DRAW) == {"ok": True, "points": 0}
    assert game_at(hands={"S": "9C 4H"}, phase="play").check("S", {"type": "discard", "card": "9C"}) == {
        "ok": True,
        "points": 0,
    }


@pytest.mark.parametrize("seat", ["SouthWestNorthEast", 12345678901234])
def test_an_action_of_a_long_non_seat_names_it_cut_short(game, seat):  # R5
    result = game.check(seat, DRAW)
    assert (result["code"], result["rule"], result["params"]) == ("bad_seat", "R5", {"seat": str(seat)[:10]})


def test_a_rule_error_without_a_template_or_its_values_keeps_its_code_or_template():
    # RuleError is public (docs/ENGINE.md): a code without a message reads as the code, and a template
    # whose values are missing is shown as it is rather than failing.
    assert RuleError("no_such_code").message == "no_such_code"
    assert RuleError("card_not_held").message == MESSAGES["card_not_held"]
    assert RuleError("card_not_held", "R24", card="KD").as_dict() == {
        "code": "card_not_held",
        "message": "You do not hold KD.",
        "rule": "R24",
        "params": {"card": "KD"},
    }

"""Red threes and black threes (docs/RULES.md §7)."""

from collections import Counter

import pytest

from games.engine import Game, RuleError

from .helpers import (
    DRAW,
    assert_accepted,
    assert_refused,
    cards,
    discard,
    game_at,
    meld,
    position,
    take,
)

DOWN = {"NS": ["AC AD AH"]}


def test_a_red_three_is_never_among_a_players_cards():  # R34
    with pytest.raises(RuleError) as caught:
        Game.from_position(position(hands={"S": "3H 9C 9D"}))
    assert caught.value.code == "invalid_position"


def test_a_red_three_cannot_be_discarded_or_melded():  # R34
    game = game_at(hands={"S": "9C 9D 4H"}, phase="play", melds=DOWN)
    assert_refused(game, "S", discard("3H"), code="card_not_held")
    assert_refused(game, "S", meld("3H 3D 3H"), code=("card_not_held", "three_in_meld"))


def test_red_threes_are_laid_automatically_for_the_team():  # R34
    game = game_at(turn="W", hands={"W": "9C 9D 4H"}, stock_top="3D 7C 8C")
    events = game.apply("W", DRAW)
    pos = game.to_position()
    assert cards(pos["red_threes"]["EW"]) == ["3D"] and pos["red_threes"]["NS"] == ""
    assert Counter(cards(pos["hands"]["W"])) == Counter(cards("9C 9D 4H 7C 8C"))
    assert game.view("S")["red_threes"] == {"NS": 0, "EW": 1}
    kinds = [e["type"] for e in events]
    assert "red_three" in kinds


def end_deal_by_stock(**kw):
    """A deal-1 game at `position(**kw)`, with an empty stock, ended by South's draw (R53)."""
    game = game_at(stock="", **kw)
    game.apply("S", DRAW)
    return game.scores()["deals"][0]


def test_red_threes_score_whether_or_not_the_team_is_down():  # R35
    pos = position(
        stock="",
        red_threes={"NS": "3H 3D", "EW": "3H"},
        feet={"E": "3H 4C 4D 4H 4S 5C 5D 5H 5S 6C 6D 6H 6S"},
        down={"NS": False, "EW": False},
    )
    laid = {t: len(cards(pos["red_threes"][t])) for t in ("NS", "EW")}
    game = Game.from_position(pos)
    game.apply("S", DRAW)
    score = game.scores()["deals"][0]
    assert score["NS"]["red_threes"] == 100 * laid["NS"]
    assert score["EW"]["red_threes"] == 100 * laid["EW"] - 100


def test_black_threes_never_meld():  # R36
    game = game_at(hands={"S": "3C 3S 3C 4H"}, phase="play", melds=DOWN)
    assert_refused(game, "S", meld("3C 3S 3C"), code="three_in_meld", rule="R17")


def test_a_black_three_may_be_discarded_and_blocks_the_next_player():  # R36, R29a
    game = game_at(hands={"S": "3C 9C 9D 4H", "W": "3S 3C 5H 6H"}, phase="play", discard="8C 8D")
    assert_accepted(game, "S", discard("3C"))
    assert game.view("W")["discard_blocked"] is True
    assert game.options("W")["take_pile"] is False
    assert_refused(game, "W", take("3S 3C"), code="pile_top_is_three", rule="R29")


def test_a_black_three_left_in_hand_costs_five():  # R36, R4
    pos = position(
        stock="",
        hands={"S": "3C", "N": "3S 3C", "W": "4C", "E": "4D"},
        feet=dict.fromkeys("SWNE"),
        down={"NS": False, "EW": False},
    )
    # Every foot picked up: the only cards left are the hands (and nothing melded).
    game = Game.from_position(pos)
    game.apply("S", DRAW)
    score = game.scores()["deals"][0]
    assert score["NS"]["cards_left"] == -15
    assert score["EW"]["cards_left"] == -10


def test_a_black_three_cannot_be_added_to_a_meld():  # R17
    # Adding names the meld's rank; the refusal must still say "threes", not "mixed ranks".
    game = game_at(hands={"S": "3C 3S 4H 9D"}, phase="play", melds={"NS": ["KC KD KH"]})
    assert_refused(game, "S", meld("3C", to="K"), code="three_in_meld", rule="R17")
    game = game_at(hands={"S": "3C 3S 4H 9D"}, phase="play", melds={"NS": ["JK JK 2C"]})
    assert_refused(game, "S", meld("3C", to="wild"), code="three_in_meld", rule="R17")

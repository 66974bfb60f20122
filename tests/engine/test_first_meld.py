"""The first meld of a deal (docs/RULES.md §8): minimums, one lay-down, counting, takes, staging."""

import pytest

from .helpers import (
    MINIMUM_OF_DEAL,
    assert_accepted,
    assert_refused,
    cards,
    game_at,
    meld,
    take,
)

NOT_DOWN = {"NS": False, "EW": False}


def lay_down_game(deal, hand, turn=None, **kw):
    """The deal's first player (or `turn`) to meld, their team not yet down."""
    seat = turn or {1: "S", 2: "W", 3: "N", 4: "E"}[deal]
    return seat, game_at(deal=deal, turn=seat, hands={seat: hand}, phase="play", **kw)


@pytest.mark.parametrize(
    "deal, enough, short",
    [
        (1, ["KC KD KH KS KC"], ["KC KD KH", "5C 5D 5H"]),  # 50 vs 45
        (2, ["AC AD AH", "KC KD KH"], ["AC AD AH", "5C 5D 5H 5S 5C"]),  # 90 vs 85
        (3, ["AC AD AH AS AC AD"], ["AC AD AH AS AC", "5C 5D 5H"]),  # 120 vs 115
        (4, ["JK JK 2D", "KC KD KH"], ["JK JK 2D", "5C 5D 5H"]),  # 150 vs 135
    ],
)
def test_first_meld_minimum_of_each_deal(deal, enough, short):  # R37
    minimum = MINIMUM_OF_DEAL[deal]
    seat, game = lay_down_game(deal, " ".join(short) + " 4H 6S")
    assert game.options(seat)["minimum"] == minimum
    assert game.view(seat)["first_meld_minimum"] == minimum
    error = assert_refused(game, seat, meld(*short), code="below_first_meld_minimum", rule="R37")
    assert error.params.get("minimum") == minimum
    seat, game = lay_down_game(deal, " ".join(enough) + " 4H 6S")
    dry = game.check(seat, meld(*enough))
    assert dry == {"ok": True, "points": minimum}
    game.apply(seat, meld(*enough))
    assert game.to_position()["down"][{"S": "NS", "N": "NS", "W": "EW", "E": "EW"}[seat]] is True
    assert game.options(seat)["minimum"] == 0


def test_several_groups_in_one_action_reach_the_minimum():  # R38
    seat, game = lay_down_game(1, "KC KD KH 8C 8D 2S 4H")
    assert_accepted(game, seat, meld("KC KD KH", "8C 8D 2S"))  # 30 + 40 = 70


def test_the_refusal_under_the_minimum_says_how_much_is_missing():  # R37, R40
    seat, game = lay_down_game(1, "KC KD KH 8C 8D 8H 4H")
    error = assert_refused(game, seat, meld("KC KD KH"), code="below_first_meld_minimum", rule="R37")
    assert error.params == {"minimum": 50, "points": 30, "missing": 20, "action": "meld"}
    game = game_at(hands={"S": "9C 9S 6C"}, discard="5D 9D", turn="S", down={"NS": False, "EW": False})
    error = assert_refused(game, "S", take("9C 9S"), code="below_first_meld_minimum")
    assert error.params == {"minimum": 50, "points": 30, "missing": 20, "action": "take_pile"}  # the top counts (R40)


def test_two_actions_of_the_same_turn_do_not_add_up():  # R38
    seat, game = lay_down_game(1, "KC KD KH 8C 8D 8H 4H")
    assert_refused(game, seat, meld("KC KD KH"), code="below_first_meld_minimum")


def test_a_group_may_add_to_a_meld_started_earlier_in_the_same_lay_down():  # R38
    seat, game = lay_down_game(1, "KC KD KH KS 2C 4H")
    dry = game.check(
        seat, {"type": "meld", "groups": [{"cards": ["KC", "KD", "KH"]}, {"cards": ["KS", "2C"], "to": "K"}]}
    )
    assert dry == {"ok": True, "points": 60}
    game.apply(seat, {"type": "meld", "groups": [{"cards": ["KC", "KD", "KH"]}, {"cards": ["KS", "2C"], "to": "K"}]})
    assert sorted(cards(game.to_position()["melds"]["NS"][0])) == sorted(cards("KC KD KH KS 2C"))


def test_the_partner_may_not_meld_before_the_team_is_down():  # R38
    game = game_at(turn="N", hands={"N": "5C 5D 5H 4H"}, phase="play", down=NOT_DOWN)
    assert_refused(game, "N", meld("5C 5D 5H"), code="below_first_meld_minimum")


def test_only_the_melds_count_not_the_pile_bonus():  # R39
    seat, game = lay_down_game(1, "5C 5D 5H 5S 5C 5D 5H 4H")
    error = assert_refused(game, seat, meld("5C 5D 5H 5S 5C 5D 5H"), code="below_first_meld_minimum")
    assert error.params.get("points") == 35


def test_red_threes_do_not_count():  # R39
    seat, game = lay_down_game(1, "KC KD KH 5C 5D 5H 4H", red_threes={"NS": "3H 3D 3H"})
    assert_refused(game, seat, meld("KC KD KH", "5C 5D 5H"), code="below_first_meld_minimum")


def test_earlier_scores_do_not_count():  # R39
    seat, game = lay_down_game(
        2,
        "KC KD KH 4H",
        scores=[
            {
                "NS": {"melded": 0, "cards_left": 0, "red_threes": 0, "piles": 0, "going_out": 0, "total": 9000},
                "EW": {"melded": 0, "cards_left": 0, "red_threes": 0, "piles": 0, "going_out": 0, "total": 0},
            }
        ],
    )
    assert game.options(seat)["minimum"] == 90
    assert_refused(game, seat, meld("KC KD KH"), code="below_first_meld_minimum")


def south_takes(hand, pile, **kw):
    return game_at(hands={"S": hand}, discard=pile, **kw)


def test_a_take_counts_its_top_card_not_the_other_cards_taken():  # R40
    game = south_takes("9C 9S 4H", "AS AH AD 9D")  # the taken As would make 90
    assert_refused(game, "S", take("9C 9S"), code="below_first_meld_minimum")
    game = south_takes("9C 9S 2H 4H", "AS AH 9D")
    assert game.check("S", take("9C 9S 2H")) == {"ok": True, "points": 50}


def test_a_take_with_groups_from_the_hand():  # R40
    game = south_takes("9C 9S AC AD AH 4H", "AS AH 9D")
    assert game.check("S", take("9C 9S", "AC AD AH")) == {"ok": True, "points": 90}
    assert_accepted(game, "S", take("9C 9S", "AC AD AH"))
    pos = game.to_position()
    assert pos["down"]["NS"] is True and len(pos["melds"]["NS"]) == 2


def test_a_team_already_down_may_name_groups_in_its_take():  # R40
    game = south_takes("9C 9S 5C 5D 5H 4H", "KS 9D", melds={"NS": ["AC AD AH"]})
    assert_accepted(game, "S", take("9C 9S", "5C 5D 5H"))
    assert len(game.to_position()["melds"]["NS"]) == 3


def test_once_down_no_minimum_for_either_partner():  # R41
    game = game_at(turn="N", hands={"N": "5C 5D 5H 4H"}, phase="play", melds={"NS": ["AC AD AH"]})
    assert game.options("N")["minimum"] == 0
    assert_accepted(game, "N", meld("5C 5D 5H"))


def test_melding_goes_on_in_the_same_turn_after_the_lay_down():  # R41
    seat, game = lay_down_game(1, "AC AD AH 5C 5D 5H 4H")
    game.apply(seat, meld("AC AD AH"))
    assert_accepted(game, seat, meld("5C 5D 5H"))


def test_lay_down_checks_every_group_and_their_total():  # R42
    seat, game = lay_down_game(1, "KC KD KH KS KC KD 8C 8D 2S 4H")
    assert game.check(seat, meld("KC KD KH", "8C 8D 2S")) == {"ok": True, "points": 70}
    assert game.check(seat, meld("KC KD KH", "8C 2S"))["ok"] is False  # a group that is no meld
    assert game.check(seat, meld("KC KD KH", "KS KC KD"))["code"] == "duplicate_incomplete_meld"
    assert game.check(seat, meld("KC KD KH"))["code"] == "below_first_meld_minimum"


def test_a_group_that_meets_the_minimum_alone_may_be_melded():  # R42
    seat, game = lay_down_game(1, "AC AD AH 4H")
    assert_accepted(game, seat, meld("AC AD AH"))


def test_set_aside_groups_are_still_the_players_cards_for_a_take():  # R42
    # "Set aside" is interface state: the engine knows only the final take with its groups.
    game = south_takes("9C 9S AC AD AH 4H", "KS 9D")
    assert game.check("S", take("9C 9S", "AC AD AH"))["ok"] is True
    assert game.check("S", take("9C 9S"))["code"] == "below_first_meld_minimum"

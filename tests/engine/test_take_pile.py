"""Taking the discard pile (docs/RULES.md §6): how much, when, the pickup meld and its placement."""

from collections import Counter

import pytest

from .helpers import (
    assert_accepted,
    assert_refused,
    cards,
    game_at,
    hand_of,
    meld,
    melds_of,
    take,
)

DOWN = {"NS": ["AC AD AH"]}


def south_takes(hand, pile, melds=None, **kw):
    """South to draw, with the discard pile `pile` (bottom to top); NS down unless told."""
    return game_at(hands={"S": hand}, discard=pile, melds=melds if melds is not None else DOWN, **kw)


def test_take_the_top_seven():  # R28
    pile = "4C 4D 5C 5D 6C 6D 7C 7D KC QD JH TS 8H 9D"
    game = south_takes("9C 9S", pile)
    events = assert_accepted(game, "S", take("9C 9S"))
    pos = game.to_position()
    assert cards(pos["discard"]) == cards("4C 4D 5C 5D 6C 6D 7C")  # the rest stays
    assert hand_of(game, "S") == Counter(cards("7D KC QD JH TS 8H"))
    assert Counter(cards(pos["melds"]["NS"][-1])) == Counter(cards("9D 9C 9S"))
    assert pos["phase"] == "play" and pos["turn"] == "S"
    taken = next(e for e in events if e["type"] == "take_pile")
    assert taken["count"] == 7 and taken["top"] == "9D"


def test_take_the_whole_pile_when_it_has_fewer_than_seven():  # R28
    game = south_takes("9C 9S", "KC QD 5H 9D")
    assert_accepted(game, "S", take("9C 9S"))
    assert game.to_position()["discard"] == ""
    assert hand_of(game, "S") == Counter(cards("KC QD 5H"))


@pytest.mark.parametrize("top", ["3S", "3C"])
def test_not_with_a_three_on_top(top):  # R29a, R36
    game = south_takes("9C 9S 3C 3S", f"9D {top}")
    assert_refused(game, "S", take("3C 3S" if top == "3C" else "3S 3C"), code="pile_top_is_three", rule="R29")
    assert game.options("S")["take_pile"] is False


def test_needs_two_naturals_of_the_top_rank():  # R29b
    game = south_takes("9C JK 4H", "5C 9D")
    assert_refused(game, "S", take("9C JK"), rule=("R29", "R30"))
    game = south_takes("9C 8C 4H", "5C 9D")
    assert_refused(game, "S", take("9C 8C"), rule=("R29", "R30"))


def test_one_matching_card_is_not_enough():  # R29b
    game = south_takes("9C 4H", "5C 9D")
    assert_refused(game, "S", take("9C"), code="no_matching_pair", rule="R29")


def test_two_on_top_needs_two_twos():  # R29b
    game = south_takes("JK JK 4H", "5C 2H")
    assert_refused(game, "S", take("JK JK"), rule=("R29", "R30"))
    game = south_takes("2C 2D 4H", "5C 2H")
    assert_accepted(game, "S", take("2C 2D"))
    assert Counter(cards(game.to_position()["melds"]["NS"][-1])) == Counter(cards("2H 2C 2D"))


def test_joker_on_top_needs_two_jokers():  # R29b
    game = south_takes("2C 2D 4H", "5C JK")
    assert_refused(game, "S", take("2C 2D"), rule=("R29", "R30"))
    game = south_takes("JK JK 4H", "5C JK")
    assert_accepted(game, "S", take("JK JK"))
    assert Counter(cards(game.to_position()["melds"]["NS"][-1])) == Counter(cards("JK JK JK"))


def test_the_pair_must_be_held():  # R29b, R29c
    game = south_takes("9C 4H", "9S 5C 9D")
    assert_refused(game, "S", take("9C 9S"), code="card_not_held")


def test_not_down_the_take_must_meet_the_minimum():  # R29d, R40
    game = south_takes("9C 9S 4H", "AS AH 9D", melds={})
    assert_refused(game, "S", take("9C 9S"), code="below_first_meld_minimum", rule=("R37", "R40"))


def test_take_leaving_a_foot_player_without_cards_refused():  # R29e, R47
    game = south_takes("9C 9S", "9D", feet={"S": None})
    assert_refused(game, "S", take("9C 9S"), rule=("R47", "R49"))
    game = south_takes("9C 9S", "4C 9D", feet={"S": None})
    assert_refused(game, "S", take("9C 9S"), code="must_keep_cards", rule="R47")
    game = south_takes("9C 9S", "4C 5C 9D", feet={"S": None})
    assert_accepted(game, "S", take("9C 9S"))


def test_extra_cards_go_into_the_pickup_meld():  # R30
    game = south_takes("9C 9S 9H 2C 4H", "5C 9D")
    assert_accepted(game, "S", take("9C 9S 9H 2C"))
    assert Counter(cards(game.to_position()["melds"]["NS"][-1])) == Counter(cards("9D 9C 9S 9H 2C"))
    assert hand_of(game, "S") == Counter(cards("4H 5C"))


def test_pickup_meld_goes_onto_the_incomplete_meld():  # R30
    game = south_takes("9C 9S 4H", "5C 9D", melds={"NS": ["9C 9D 9H 9S"]})
    assert_accepted(game, "S", take("9C 9S"))
    melds = melds_of(game, "NS")
    assert melds == [Counter(cards("9C 9D 9H 9S 9D 9C 9S"))]
    assert game.view("S")["melds"]["NS"]["0"]["status"] == "clean"


def test_pickup_overflow_must_be_a_legal_new_meld():  # R30
    game = south_takes("9C 9S 4H", "5C 9D", melds={"NS": ["9C 9D 9H 9S 9C 2D"]})
    assert_refused(game, "S", take("9C 9S"), rule=("R30", "R15", "R22"))
    game = south_takes("9C 9S 9H 4H", "5C 9D", melds={"NS": ["9C 9D 9H 9S 9C 2D"]})
    assert_accepted(game, "S", take("9C 9S 9H"))
    melds = melds_of(game, "NS")
    assert melds[0] == Counter(cards("9C 9D 9H 9S 9C 2D 9D"))  # dirty pile: top card first
    assert melds[1] == Counter(cards("9C 9S 9H"))


def test_wild_top_goes_into_the_wild_meld():  # R30
    game = south_takes("2C 2D 4H", "5C 2H", melds={"NS": ["AC AD AH", "2S JK JK"]})
    assert_accepted(game, "S", take("2C 2D"))
    assert melds_of(game, "NS")[1] == Counter(cards("2S JK JK 2H 2C 2D"))


def test_wild_top_joins_the_existing_wild_meld():  # R30
    game = south_takes("JK JK 4H", "5C JK", melds={"NS": ["AC AD AH", "2H 2S 2C"]})
    assert_accepted(game, "S", take("JK JK"))
    assert melds_of(game, "NS")[1] == Counter(cards("2H 2S 2C JK JK JK"))


def test_other_taken_cards_join_the_hand_after_the_action():  # R31
    game = south_takes("9C 9S AC 4H", "AS AH 5C 9D", melds={})
    # The taken AS AH cannot make the first lay-down's A group in the same action.
    assert_refused(game, "S", take("9C 9S", "AC AS AH"), code="card_not_held")
    game = south_takes("9C 9S AC AD AH 4H", "AS AH 5C 9D", melds={})
    assert_accepted(game, "S", take("9C 9S", "AC AD AH"))
    # ...but they may be melded later in the same turn.
    assert_accepted(game, "S", meld("AS AH", to="A"))


def test_a_wild_top_does_not_freeze_the_pile():  # R32
    game = south_takes("2C 2D 4H", "5C 9S 2H", melds={})  # not down: 60 >= 50 is enough
    assert_accepted(game, "S", take("2C 2D"))
    assert game.to_position()["down"]["NS"] is True


def test_a_red_three_out_of_the_pile_is_laid_and_replaced():  # R33
    game = south_takes("9C 9S", "3H 5C 9D", stock_top="KH QH")
    assert_accepted(game, "S", take("9C 9S"))
    pos = game.to_position()
    assert cards(pos["red_threes"]["NS"]) == ["3H"]
    assert hand_of(game, "S") == Counter(cards("5C KH"))
    assert cards(pos["stock"])[0] == "QH"


def test_a_two_on_top_takes_two_twos_and_jokers_may_join():  # R29b, R30
    game = south_takes("2C JK JK 4H", "5C 2H")
    assert_refused(game, "S", take("2C JK"), code="no_matching_pair", rule="R29")
    game = south_takes("2C 2D JK 4H", "5C 2H")
    assert_accepted(game, "S", take("2C 2D JK"))
    assert melds_of(game, "NS")[-1] == Counter(cards("2H 2C 2D JK"))


def test_a_joker_on_top_takes_two_jokers_and_twos_may_join():  # R29b, R30
    game = south_takes("JK JK 2C 4H", "5C JK")
    assert_accepted(game, "S", take("JK JK 2C"))
    assert melds_of(game, "NS")[-1] == Counter(cards("JK JK JK 2C"))


def test_pickup_order_top_first_then_naturals_then_wild():  # R30
    # The old meld has room for two: the top card and the first natural named.
    game = south_takes("9S 2C 9H 9C 4H", "5C 9D", melds={"NS": ["AC AD AH", "9C 9D 9H 9S 9C"]})
    assert_accepted(game, "S", take("9S 2C 9H 9C"))
    melds = game.to_position()["melds"]["NS"]
    assert cards(melds[1]) == cards("9C 9D 9H 9S 9C 9D 9S")  # a clean pile
    assert Counter(cards(melds[2])) == Counter(cards("9H 9C 2C"))


def test_pickup_overflow_of_two_cards_is_refused():  # R30, R15
    game = south_takes("9S 2C 9H 4H", "5C 9D", melds={"NS": ["AC AD AH", "9C 9D 9H 9S 9C"]})
    # 9D 9S complete the meld; 9H 2C alone cannot start one.
    assert_refused(game, "S", take("9S 9H 2C"), code="meld_too_small", rule="R15")


def test_pickup_with_a_wild_card_onto_a_meld_of_naturals():  # R30, R21
    game = south_takes("9C 9D 2C 4H", "5C 9S", melds={"NS": ["AC AD AH", "9C 9D 9H"]})
    assert_accepted(game, "S", take("9C 9D 2C"))
    assert melds_of(game, "NS")[1] == Counter(cards("9C 9D 9H 9S 9C 9D 2C"))
    assert game.view("S")["melds"]["NS"]["1"]["status"] == "dirty"


def test_wild_pickup_overflow():  # R30, R20
    six = {"NS": ["AC AD AH", "2C 2D 2H 2S JK JK"]}
    assert_refused(south_takes("2C 2D 4H", "5C 2H", melds=six), "S", take("2C 2D"), rule=("R15", "R16"))
    game = south_takes("2C 2D JK 4H", "5C 2H", melds=six)
    assert_accepted(game, "S", take("2C 2D JK"))
    melds = melds_of(game, "NS")
    assert melds[1] == Counter(cards("2C 2D 2H 2S JK JK 2H")) and melds[2] == Counter(cards("2C 2D JK"))


def test_take_groups_are_always_new_melds():  # R30, R40
    game = south_takes("9C 9S KS 4H", "5C 9D", melds={"NS": ["AC AD AH", "KC KD KH"]})
    assert_refused(
        game,
        "S",
        {"type": "take_pile", "cards": ["9C", "9S"], "groups": [{"cards": ["KS"], "to": "K"}]},
        code="bad_field",
    )


def test_taken_cards_are_public_in_the_events():  # R28
    game = south_takes("9C 9S 4H", "KC QD 9D")
    events = game.apply("S", take("9C 9S"))
    from games.engine import redact_events

    for seat in ("W", "N", "E", None):
        taken = next(e for e in redact_events(events, seat) if e["type"] == "take_pile")
        assert taken["cards"] == ["KC", "QD", "9D"]


def test_going_out_by_a_take():  # R29e, R47, R48
    from .helpers import GOING_OUT_PILES

    game = game_at(
        hands={"S": "9C 9S", "N": "4C 4D"}, feet={"S": None, "N": None}, discard="9D", melds={"NS": GOING_OUT_PILES}
    )
    events = assert_accepted(game, "S", take("9C 9S"))
    assert any(e["type"] == "go_out" and e["seat"] == "S" for e in events)
    assert game.scores()["deals"][0]["NS"]["going_out"] == 100


def test_take_events():  # R28, R30
    game = south_takes("9C 9S 4H", "KC 9D")
    events = game.apply("S", take("9C 9S"))
    assert events[0] == {"type": "take_pile", "seat": "S", "count": 2, "top": "9D", "cards": ["KC", "9D"]}
    laid = next(e for e in events if e["type"] == "meld")
    assert laid["seat"] == "S" and laid["team"] == "NS"
    assert [Counter(g["cards"]) for g in laid["groups"]] == [Counter(cards("9D 9C 9S"))]
    assert laid["groups"][0]["meld"] == "1"


def test_take_groups_may_not_duplicate_the_pickup_meld():  # R20, R30
    game = south_takes("9C 9S 9H 9D 9C 4H", "5C 9D")
    assert_refused(game, "S", take("9C 9S", "9H 9D 9C"), code="duplicate_incomplete_meld", rule="R20")


def test_check_points_of_a_take_with_groups_when_down():  # R40
    game = south_takes("9C 9S 5C 5D 5H 4H", "KS 9D")
    assert game.check("S", take("9C 9S", "5C 5D 5H")) == {"ok": True, "points": 30 + 15}

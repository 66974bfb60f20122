"""Melds (docs/RULES.md §4): team ownership, natural and wild melds, piles, same-rank limits,
additions, atomic validity, finality and who may meld when."""

from collections import Counter

import pytest

from games.engine import RuleError, meld_status, parse_cards

from .helpers import (
    DRAW,
    assert_accepted,
    assert_refused,
    cards,
    game_at,
    meld,
    melds_of,
)

DOWN = {"NS": ["AC AD AH"]}  # a meld that makes North–South down


def south_plays(hand, melds=None, **kw):
    """South to meld (phase play), North–South down unless told otherwise."""
    return game_at(hands={"S": hand}, phase="play", melds=melds if melds is not None else DOWN, **kw)


def team_meld(game, team, text):
    """The team's meld holding exactly these cards (as a multiset), or None."""
    wanted = Counter(cards(text))
    return next((m for m in melds_of(game, team) if m == wanted), None)


def test_either_partner_adds_to_the_team_meld():  # R14
    game = game_at(hands={"S": "7S 5C 9D"}, phase="play", melds={"NS": ["7C 7D 7H"]})
    assert_accepted(game, "S", meld("7S", to="7"))  # started by North, extended by South
    assert team_meld(game, "NS", "7C 7D 7H 7S")


def test_never_to_an_opponents_meld():  # R14
    game = game_at(hands={"S": "8S 5C 9D"}, phase="play", melds={"NS": ["AC AD AH"], "EW": ["8C 8D 8H"]})
    assert_refused(game, "S", meld("8S", to="8"), rule=("R14", "R21"))


def test_melds_go_to_the_players_team():  # R14
    game = south_plays("9C 9S 9H 4D")
    events = assert_accepted(game, "S", meld("9C 9S 9H"))
    assert team_meld(game, "NS", "9C 9S 9H") and not melds_of(game, "EW")
    assert any(e["type"] == "meld" and e["team"] == "NS" for e in events)


@pytest.mark.parametrize("group", ["7C 2D 2H", "8C 8D 2H 2S", "8C 8D 8H 8S 2C 2D JK", "9C 9D TH", "9C 9D", "9C"])
def test_natural_meld_limits(group):  # R15
    game = south_plays(group + " 4D")
    assert_refused(game, "S", meld(group), rule=("R15", "R16"))


@pytest.mark.parametrize(
    "group, status",
    [
        ("9S 9H 9D", "incomplete"),
        ("KC KD JK", "incomplete"),
        ("8C 8D 8H 8S 2C 2D", "incomplete"),
        ("QC QD QH QS QC 2H JK", "dirty"),
    ],
)
def test_natural_meld_legal(group, status):  # R15
    game = south_plays(group + " 4D")
    assert_accepted(game, "S", meld(group))
    assert meld_status(parse_cards(group)) == status


def test_natural_ratio_is_at_least_two_to_one():  # R15
    assert meld_status(parse_cards("8C 8D 2H")) == "incomplete"
    for bad in ("8C 2D 2H", "8C 8D 8H 2C 2D", "8C 8D 8H 8S 2C 2D 2H"):
        with pytest.raises(RuleError):
            meld_status(parse_cards(bad))


def test_wild_meld_any_mix_of_wild_cards():  # R16
    game = south_plays("2C 2D JK 4D")
    assert_accepted(game, "S", meld("2C 2D JK"))
    assert meld_status(parse_cards("JK JK JK")) == "incomplete"
    assert meld_status(parse_cards("2C 2C 2D 2H 2S 2S 2H")) == "wild"


def test_wild_meld_takes_no_natural():  # R16, R21
    game = south_plays("9C 5D 6H", melds={"NS": ["2C 2D JK"]})
    assert_refused(game, "S", meld("9C", to="wild"), rule=("R16", "R21"))


@pytest.mark.parametrize("group", ["3C 3S 3C", "9C 9D 3S", "3S JK 2C"])
def test_threes_never_meld(group):  # R17
    game = south_plays(group + " 4D")
    assert_refused(game, "S", meld(group), rule=("R17", "R15", "R16", "R36"))


def test_a_three_cannot_be_added():  # R17
    game = south_plays("3C 4D 5D", melds={"NS": ["9C 9D 9H"]})
    assert_refused(game, "S", meld("3C", to="9"), rule=("R17", "R21", "R36"))


@pytest.mark.parametrize(
    "group, status",
    [
        ("KC KD KH KS KC KD KH", "clean"),
        ("KC KD KH KS KC KD 2H", "dirty"),
        ("KC KD KH KS KC 2D JK", "dirty"),
        ("2C 2D 2H JK JK JK 2S", "wild"),
        ("KC KD KH KS KC KD", "incomplete"),
        ("JK JK 2H", "incomplete"),
    ],
)
def test_pile_kinds(group, status):  # R18
    assert meld_status(parse_cards(group)) == status


def test_view_shows_each_meld_status():  # R18
    game = south_plays(
        "5D", melds={"NS": ["KC KD KH KS KC KD KH", "QC QD QH QS QC 2H JK", "2C 2D 2H JK JK JK 2S", "9C 9D 9H"]}
    )
    statuses = sorted(m["status"] for m in game.view("S")["melds"]["NS"].values())
    assert statuses == ["clean", "dirty", "incomplete", "wild"]
    piles = game.view("S")["piles"]["NS"]
    assert piles == {"clean": 1, "dirty": 1, "wild": 1}


def test_nothing_is_added_to_a_pile():  # R19
    game = south_plays("KS 4D 5D", melds={"NS": ["KC KD KH KS KC KD KH"]})
    assert_refused(game, "S", meld("KS", to="K"), rule=("R19", "R20", "R21"))


def test_no_meld_of_eight():  # R19
    game = south_plays("9C 9D 9H 9S 9C 9D 9H 9S 4D")
    assert_refused(game, "S", meld("9C 9D 9H 9S 9C 9D 9H 9S"), rule=("R19", "R15"))


def test_no_second_incomplete_meld_of_a_rank():  # R20
    game = south_plays("JS JH 2C 4D", melds={"NS": ["JC JD JH"]})
    assert_refused(game, "S", meld("JS JH 2C"), rule="R20")


def test_not_even_a_complete_pile_beside_an_incomplete_meld():  # R20
    game = south_plays("JC JD JH JS JC JD JH 4D", melds={"NS": ["JC JD JH"]})
    assert_refused(game, "S", meld("JC JD JH JS JC JD JH"), rule="R20")


def test_new_meld_once_the_rank_is_a_pile():  # R20
    game = south_plays("JC JD JS 4D", melds={"NS": ["JC JD JH JS JC JD JH"]})
    assert_accepted(game, "S", meld("JC JD JS"))
    assert len(melds_of(game, "NS")) == 2


def test_any_number_of_piles_of_a_rank():  # R20
    game = south_plays("JC JD JH JS JC JD JH 4D", melds={"NS": ["JC JD JH JS JC JD JH", "JS JH JD JC JS 2D 2H"]})
    assert_accepted(game, "S", meld("JC JD JH JS JC JD JH"))


def test_one_incomplete_wild_meld_at_a_time():  # R20
    game = south_plays("2H 2S JK 4D", melds={"NS": ["2C 2D JK"]})
    assert_refused(game, "S", meld("2H 2S JK"), rule="R20")


def test_two_groups_of_one_action_may_not_make_two_incomplete_melds_of_a_rank():  # R20
    game = south_plays("9C 9D 9H 9S 9C 9D 4D")
    assert_refused(game, "S", meld("9C 9D 9H", "9S 9C 9D"), rule="R20")


def test_the_other_teams_incomplete_meld_does_not_count():  # R20
    game = south_plays("9C 9D 9H 4D", melds={"NS": ["AC AD AH"], "EW": ["9C 9D 9H"]})
    assert_accepted(game, "S", meld("9C 9D 9H"))


def test_additions_one_at_a_time_keep_the_ratio():  # R21, R22
    game = south_plays("2S JK 4S JK 4H 4D 5C 5D", melds={"NS": ["AC AD AH", "4C 4D 4H"]})
    assert_accepted(game, "S", meld("2S", to="4"))  # 3:1, only a dirty pile possible now
    assert_refused(game, "S", meld("JK", to="4"), rule=("R21", "R15", "R22"))  # 3:2
    assert_accepted(game, "S", meld("4S", to="4"))  # 4:1
    assert_accepted(game, "S", meld("JK", to="4"))  # 4:2
    assert_accepted(game, "S", meld("4H", to="4"))  # 7 cards
    assert team_meld(game, "NS", "4C 4D 4H 2S 4S JK 4H")
    assert_refused(game, "S", meld("4D", to="4"), rule=("R19", "R21", "R20"))


def test_addition_of_several_cards_at_once():  # R21
    game = south_plays("JS JH 2C 4D", melds={"NS": ["JC JD JH"]})
    assert_accepted(game, "S", meld("JS JH 2C", to="J"))
    assert team_meld(game, "NS", "JC JD JH JS JH 2C")


def test_addition_needs_a_meld_of_that_rank():  # R21
    game = south_plays("QS 4D 5D")
    assert_refused(game, "S", meld("QS", to="Q"), rule="R21")


def test_addition_of_another_rank_refused():  # R21
    game = south_plays("QS 4D 5D", melds={"NS": ["JC JD JH"]})
    assert_refused(game, "S", meld("QS", to="J"), rule=("R21", "R15"))


def test_an_action_is_atomic():  # R22
    game = south_plays("9C 9D 9H 7C 2D 2H 4D")
    # The first group is fine on its own, the second breaks R15: nothing at all happens.
    assert_refused(game, "S", meld("9C 9D 9H", "7C 2D 2H"), rule=("R15", "R22"))


def test_melds_are_final():  # R23
    game = south_plays("4S 5C 5D 5H 6D", melds={"NS": ["AC AD AH", "4C 4D 4H"]})
    before = game.to_position()["melds"]["NS"]
    assert_accepted(game, "S", meld("4S", to="4"))
    assert_accepted(game, "S", meld("5C 5D 5H"))
    after = game.to_position()["melds"]["NS"]
    # Earlier melds keep their index and their cards; nothing comes back to the hand.
    assert Counter(cards(after[0])) == Counter(cards(before[0]))
    assert Counter(cards(after[1])) == Counter(cards(before[1])) + Counter(["4S"])
    assert_refused(game, "S", {"type": "unmeld", "meld": 1})
    assert_refused(game, "S", {"type": "take_back", "cards": ["4S"]})


def test_meld_only_on_own_turn():  # R24
    game = game_at(
        hands={"S": "9C 9D 9H 4D", "W": "8C 8D 8H 4S"}, phase="play", melds={"NS": ["AC AD AH"], "EW": ["KC KD KH"]}
    )
    assert_refused(game, "W", meld("8C 8D 8H"), rule=("R24", "R25"))


def test_meld_only_after_the_draw():  # R24, R26
    game = game_at(hands={"S": "9C 9D 9H 4D"}, phase="draw", melds=DOWN)
    assert_refused(game, "S", meld("9C 9D 9H"), rule=("R24", "R25", "R26"))
    game.apply("S", DRAW)
    assert_accepted(game, "S", meld("9C 9D 9H"))


def test_meld_only_own_active_cards():  # R24
    game = game_at(hands={"S": "9C 9D 4D", "N": "9H 9S 9C"}, phase="play", melds=DOWN)
    assert_refused(game, "S", meld("9C 9D 9H"), rule=("R24",))


@pytest.mark.parametrize(
    "meld_cards, added, to, code, rule",
    [
        ("9C 9D 9H 9S 9C", "9D 9H 9S", "9", "meld_too_large", "R19"),  # 8 cards
        ("9C 9D 9H", "2C JK", "9", "too_many_wild", "R15"),  # 3:2, both wild cards counted
        ("9C 9D 9H", "9S KD", "9", "mixed_ranks", "R21"),  # every added card is looked at
        ("9C 9D 9H", "9S 3C", "9", "three_in_meld", "R17"),
        ("2C 2D JK", "2S 9C", "wild", "natural_to_wild_meld", "R21"),
    ],
)
def test_each_refused_addition_says_exactly_why(meld_cards, added, to, code, rule):  # R15, R17, R19, R21
    game = south_plays(added + " 4D 5D", melds={"NS": [meld_cards]})
    error = assert_refused(game, "S", meld(added, to=to), code=code, rule=rule)
    assert error.params == {}

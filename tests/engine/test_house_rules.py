"""House rules (docs/RULES.md §17, V1–V6): worked examples per variation, the refusals of bad
rules, the notation of a game with house rules, and random legal play under random rules."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import STANDARD, Game, Rules, RulesError
from games.engine.deal import deal_cards, shuffled_deck

from .helpers import DRAW, GOING_OUT_PILES, assert_refused, count_all_cards, game_at, meld, position, random_rules, take
from .test_properties import assert_replays, play_random_game

ONE_CLEAN_PILE = {"clean_piles": 1, "dirty_piles": 0, "wild_piles": 0}


def test_standard_rules_are_the_default_and_leave_the_notation_as_it_was():  # R7, R37, R57
    assert Rules() == STANDARD and STANDARD.is_standard
    position = Game.new(seed=42).to_position()
    assert "rules" not in position  # stored standard games keep their notation
    assert Game.new(seed=42, rules=Rules.from_json({})).to_position() == position
    assert "rules" not in Game.new(seed=42).view("S")  # a standard view is as it always was
    assert Game.new(seed=42, rules=Rules(deals=2)).view("S")["rules"] == {
        "deals": 2,
        "hand_size": 13,
        "minimums": [50, 90, 120, 150],
        "clean_piles": 2,
        "dirty_piles": 2,
        "wild_piles": 1,
        "pile_take": 7,
        "red_three_value": 100,
        "undo": False,
    }


# ---------------------------------------------------------------------- V1 deals
def test_a_one_deal_game_is_over_when_its_deal_ends():  # R55a, R56
    game = game_at(
        hands={"S": "QC QD", "N": "9H 9D"},
        feet={"S": None, "N": None},
        phase="play",
        melds={"NS": GOING_OUT_PILES + ["QD QH QS QC"]},
        rules={"deals": 1},
    )
    events = game.apply("S", meld("QC QD", to="Q"))
    kinds = [e["type"] for e in events]
    assert kinds[-3:] == ["go_out", "deal_end", "game_over"] and "deal_start" not in kinds
    assert game.to_position()["phase"] == "over" and game.turn is None
    assert len(game.scores()["deals"]) == 1 and game.winner == "NS"
    assert_refused(game, "W", DRAW, code="game_over")


def test_a_two_deal_game_starts_deal_two_with_its_minimum_of_90():  # R8, R37, R55a
    game = game_at(stock="", hands={"S": "9C 4H"}, rules={"deals": 2})
    game.apply("S", DRAW)  # the empty stock ends deal 1
    assert game.deal == 2 and game.dealer == "S" and game.first_meld_minimum() == 90
    assert game.to_position()["rules"]["deals"] == 2


def test_a_position_past_the_games_last_deal_is_refused():  # R7
    with pytest.raises(Exception, match="'deal' must be 1 to 2"):
        game_at(deal=3, rules={"deals": 2})


# ---------------------------------------------------------------------- V2 hand and foot size
def test_hands_and_feet_of_eleven_are_dealt_from_the_deck_in_stacks_of_eleven():  # R11
    deck = shuffled_deck(42, 1)
    dealt = deal_cards(deck, 1, 11)
    assert dealt.hands["S"] == deck[0:11] and dealt.hands["E"] == deck[33:44]
    assert dealt.feet["S"] == deck[44:55] and dealt.feet["E"] == deck[77:88]
    assert len(dealt.stock_top_first) == 270 - 88 - 1
    game = Game.new(seed=42, rules=Rules(hand_size=11))
    position = game.to_position()
    count_all_cards(position)
    for seat in "SWNE":
        assert len(position["hands"][seat].split()) == 11 and len(position["feet"][seat].split()) == 11


def test_the_standard_deal_reads_the_same_cards_as_before():  # R11
    deck = shuffled_deck(7, 2)
    dealt = deal_cards(deck, 2)
    assert dealt.hands["W"] == deck[0:13] and dealt.feet["W"] == deck[52:65]


# ---------------------------------------------------------------------- V3 first-meld minimums
def test_a_first_meld_of_60_is_refused_under_a_minimum_of_70():  # R37, E5
    standard = game_at(hands={"S": "AC AD AH 5S"}, phase="play", down={"NS": False, "EW": False})
    assert standard.check("S", meld("AC AD AH"))["ok"]
    raised = game_at(
        hands={"S": "AC AD AH 5S"},
        phase="play",
        down={"NS": False, "EW": False},
        rules={"minimums": [70, 90, 120, 150]},
    )
    result = raised.check("S", meld("AC AD AH"))
    assert result["code"] == "below_first_meld_minimum"
    assert result["params"]["minimum"] == 70 and result["params"]["missing"] == 10
    assert raised.view("S")["first_meld_minimum"] == 70


def test_a_minimum_of_0_lets_three_fours_be_the_first_meld():  # R37
    game = game_at(
        hands={"S": "4C 4D 4H 5S"}, phase="play", down={"NS": False, "EW": False}, rules={"minimums": [0, 0, 0, 0]}
    )
    assert game.check("S", meld("4C 4D 4H")) == {"ok": True, "points": 15}


# ---------------------------------------------------------------------- V4 piles to go out
def test_one_clean_pile_is_enough_to_go_out_when_the_table_says_so():  # R49b
    setup = {"hands": {"S": "QC QD", "N": "9H 9D"}, "feet": {"S": None, "N": None}, "phase": "play"}
    melds = {"NS": ["KC KD KH KS KC KD KH", "QD QH QS QC"]}
    standard = game_at(melds=melds, **setup)
    refused = standard.check("S", meld("QC QD", to="Q"))
    assert refused["code"] == "cannot_go_out" and "required_clean" not in refused["params"]  # standard text
    game = game_at(melds=melds, rules=ONE_CLEAN_PILE, **setup)
    assert game.view("S")["going_out_needs"] == {"clean": 1, "dirty": 0, "wild": 0}
    events = game.apply("S", meld("QC QD", to="Q"))
    assert any(e["type"] == "go_out" for e in events)
    assert game.scores()["deals"][0]["NS"]["going_out"] == 100


def test_three_wild_piles_are_needed_when_the_table_asks_for_them():  # R49b
    game = game_at(
        hands={"S": "QC QD"},
        feet={"S": None, "N": None},
        phase="play",
        melds={"NS": GOING_OUT_PILES + ["QD QH QS QC"]},
        rules={"wild_piles": 3},
    )
    result = game.check("S", meld("QC QD", to="Q"))
    assert result["code"] == "cannot_go_out" and result["params"]["wild"] == 2
    assert {k: v for k, v in result["params"].items() if k.startswith("required")} == {
        "required_clean": 2,
        "required_dirty": 2,
        "required_wild": 3,
    }


# ---------------------------------------------------------------------- V5 pile take
@pytest.mark.parametrize("pile_take, taken", [(7, 7), (10, 10), (270, 12), (1, 1)])
def test_a_pile_take_gives_the_tables_number_of_cards(pile_take, taken):  # R28, R31
    pile = "4C 5C 6C 7C 8C TC JC QC KC AC 4D 9D"  # 12 cards, 9D on top
    game = game_at(hands={"S": "9C 9S 5H"}, discard=pile, melds={"NS": ["AC AD AH"]}, rules={"pile_take": pile_take})
    events = game.apply("S", take("9C 9S"))
    assert events[0]["count"] == taken
    assert len(game.hands["S"]) == 1 + taken - 1  # 5H and the taken cards but the top
    assert len(game.discard) == 12 - taken


# ---------------------------------------------------------------------- V6 red-three value
@pytest.mark.parametrize("value, expected", [(100, 1000), (300, 3000), (0, 0)])
def test_red_threes_score_the_tables_value(value, expected):  # R35, R54
    game = game_at(stock="", hands={"S": "9C 4H"}, spare_red_threes="NS", rules={"red_three_value": value})
    game.apply("S", DRAW)
    score = game.scores()["deals"][0]
    assert score["NS"]["red_threes"] == expected and score["EW"]["red_threes"] == 0


# ---------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    "chosen, code, named",
    [
        ({"deals": 5}, "rule_out_of_range", "'deals' must be 1 to 4, not 5"),
        ({"deals": 0}, "rule_out_of_range", "'deals'"),
        ({"hand_size": 16}, "rule_out_of_range", "'hand_size' must be 9 to 15"),
        ({"deals": "1"}, "bad_rule_type", "'deals' must be a whole number"),
        ({"deals": True}, "bad_rule_type", "'deals'"),
        ({"pile_take": 7.0}, "bad_rule_type", "'pile_take'"),
        ({"minimums": [50, 90, 120]}, "bad_rule_type", "'minimums'"),
        ({"minimums": [50, 90, 121, 150]}, "rule_out_of_range", "in fives, not 121"),
        ({"minimums": [50, 90, 120, 305]}, "rule_out_of_range", "not 305"),
        ({"decks": 6}, "unknown_rule", "unknown rule 'decks'"),
        ({"wild_piles": 4, "dirty_piles": 3}, "unplayable_rules", "31 wild cards"),
        ([1], "bad_rule_type", "rules must be a JSON object"),
    ],
)
def test_bad_rules_are_refused_with_a_code_naming_the_problem(chosen, code, named):
    with pytest.raises(RulesError) as refused:
        Rules.from_json(chosen)
    assert refused.value.code == code and named in refused.value.message


def test_the_most_wild_cards_the_packs_allow_is_accepted():
    rules = Rules.from_json({"wild_piles": 4, "dirty_piles": 2})  # 28 + 2 = 30 wild cards
    assert rules.going_out_piles == (("clean", 2), ("dirty", 2), ("wild", 4))


def test_a_position_with_bad_rules_is_an_invalid_position():
    with pytest.raises(Exception, match="Invalid position: rule 'deals' must be 1 to 4"):
        Game.from_position(position(rules={"deals": 9}))


def test_house_rules_round_trip_in_the_notation():  # R59
    rules = Rules(deals=2, hand_size=11, minimums=(0, 60, 120, 150), pile_take=270, red_three_value=500)
    position = Game.new(seed=5, rules=rules).to_position()
    assert position["rules"] == rules.to_json()
    again = Game.from_position(position)
    assert again.rules == rules and again.to_position() == position


# ---------------------------------------------------------------------- random rules, random play
@settings(max_examples=4, deadline=None, database=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31), player=st.integers(min_value=0, max_value=2**31))
def test_random_games_under_random_rules_keep_every_invariant(seed, player):  # R1, R59
    rules = random_rules(random.Random(seed ^ player))
    game, log, _ = play_random_game(seed, random.Random(player), check_every=5, rules=rules)
    assert game.to_position()["phase"] == "over"
    assert len(game.scores()["deals"]) == rules.deals
    assert_replays(seed, game, log)

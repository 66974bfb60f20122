"""Hand and foot (docs/RULES.md §9): the foot stays hidden until the hand is used up, pickup at once
or at the next turn, red threes in the foot, and never being left without cards."""

from collections import Counter

from games.engine import RuleError

from .helpers import (
    DRAW,
    assert_accepted,
    assert_refused,
    cards,
    discard,
    game_at,
    hand_of,
    meld,
    take,
)

DOWN = {"NS": ["AC AD AH"]}
FOOT = "KC KD KH KS QC QD QH QS JC JD JH JS TC"


def test_the_foot_is_neither_seen_nor_used_while_the_hand_has_cards():  # R43
    game = game_at(hands={"S": "9C 9D 4H"}, feet={"S": FOOT}, phase="play", melds=DOWN)
    view = game.view("S")
    assert view["hand"] == {"9C": 1, "9D": 1, "4H": 1}
    assert view["seats"]["S"] == {"cards": 3, "foot": 13, "in_foot": False}
    assert_refused(game, "S", meld("KC KD KH"), code="card_not_held")
    assert_refused(game, "S", discard("KC"), code="card_not_held")


def test_emptying_the_hand_by_a_meld_picks_up_the_foot_at_once():  # R44
    game = game_at(hands={"S": "7C 7D"}, feet={"S": FOOT}, phase="play", melds={"NS": ["7S 7H 7D"]})
    events = assert_accepted(game, "S", meld("7C 7D", to="7"))
    pos = game.to_position()
    assert pos["feet"]["S"] is None and pos["turn"] == "S" and pos["phase"] == "play"
    assert hand_of(game, "S") == Counter(cards(FOOT))
    assert {"type": "foot", "seat": "S", "count": 13} in events
    assert_accepted(game, "S", meld("KC KD KH"))  # playing on from the foot
    assert_accepted(game, "S", discard("TC"))


def test_emptying_the_hand_by_a_take_picks_up_the_foot():  # R44
    game = game_at(hands={"S": "9C 9S"}, feet={"S": FOOT}, discard="9D", melds=DOWN)
    assert_accepted(game, "S", take("9C 9S"))
    assert game.to_position()["feet"]["S"] is None


def test_taken_cards_count_before_the_hand_is_judged_empty():  # R44
    game = game_at(hands={"S": "9C 9S"}, feet={"S": FOOT}, discard="4C 9D", melds=DOWN)
    assert_accepted(game, "S", take("9C 9S"))
    assert game.to_position()["feet"]["S"] is not None
    assert hand_of(game, "S") == Counter(["4C"])


def test_emptying_the_hand_by_a_discard_waits_for_the_next_turn():  # R44, R25
    game = game_at(hands={"S": "7D"}, feet={"S": FOOT}, phase="play", melds=DOWN)
    events = game.apply("S", discard("7D"))
    assert not any(e["type"] == "foot" for e in events)
    pos = game.to_position()
    assert pos["feet"]["S"] is not None and pos["hands"]["S"] == "" and pos["turn"] == "W"


def test_red_threes_in_the_foot_are_laid_and_replaced():  # R45
    foot = "3H 3D KC KD KH KS QC QD QH QS JC JD JH"
    game = game_at(
        hands={"S": "7C 7D"}, feet={"S": foot}, phase="play", melds={"NS": ["7S 7H 7D"]}, stock_top="5C 3H 6C 8H"
    )
    events = game.apply("S", meld("7C 7D", to="7"))
    pos = game.to_position()
    assert Counter(cards(pos["red_threes"]["NS"])) == Counter(["3H", "3D", "3H"])
    assert hand_of(game, "S") == Counter(cards("KC KD KH KS QC QD QH QS JC JD JH 5C 6C"))
    assert cards(pos["stock"])[0] == "8H"
    assert [e["card"] for e in events if e["type"] == "red_three"].count("3H") == 2


def test_drawn_cards_go_into_the_foot():  # R46
    game = game_at(hands={"S": "KC KD 4H"}, feet={"S": None}, stock_top="9H 9S", melds=DOWN)
    game.apply("S", DRAW)
    assert hand_of(game, "S") == Counter(cards("KC KD 4H 9H 9S"))
    assert game.view("S")["seats"]["S"]["in_foot"] is True


def north_in_foot(foot, melds):
    return game_at(turn="N", hands={"N": foot}, feet={"N": None}, phase="play", melds={"NS": melds})


def test_in_the_foot_a_player_keeps_two_cards():  # R47
    game = north_in_foot("KC KD 5H", ["KS KH KC KD"])
    assert_refused(game, "N", meld("KC KD", to="K"), code="must_keep_cards", rule="R47")
    assert_accepted(game, "N", meld("KC", to="K"))
    assert_accepted(game, "N", discard("5H"))  # one card left, to be played next turn


def test_a_meld_leaving_no_card_without_going_out_is_refused():  # R47
    game = north_in_foot("KC KD", ["KS KH KC KD"])
    assert_refused(game, "N", meld("KC KD", to="K"), rule=("R47", "R49"))


def test_discarding_the_last_foot_card_only_as_going_out():  # R47
    # One foot card in the play phase without R49: from_position may refuse the position; if it
    # does not, the discard is refused.
    try:
        game = north_in_foot("5H", ["KS KH KC KD"])
    except RuleError as error:
        assert error.code == "invalid_position"  # noqa: PT017 -- either outcome is allowed
        return
    assert_refused(game, "N", discard("5H"), rule=("R47", "R49"))


def test_in_the_hand_a_player_may_run_down_to_zero():  # R47
    game = game_at(hands={"S": "7C 7D"}, phase="play", melds={"NS": ["7S 7H 7D"]})
    assert_accepted(game, "S", meld("7C 7D", to="7"))

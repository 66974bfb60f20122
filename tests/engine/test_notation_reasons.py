"""The reason of each refused position (docs/NOTATION.md: `invalid_position`, with a reason).

The reason is the part of the error a person reads to mend a position (it is in `params` and in
the message), so each one is pinned exactly, with the smallest change of a valid position that
causes it. Boundaries that are accepted are checked beside them.
"""

import pytest

from games.engine import Game, RuleError

from .helpers import game_at, position

FOUR_DEALS = [
    {t: {"melded": 0, "cards_left": 0, "red_threes": 0, "piles": 0, "going_out": 0, "total": 0} for t in ("NS", "EW")}
    for _ in range(4)
]


def changed(**fields):
    """A valid position (deal 1, South to draw) with some fields replaced or (None) removed."""
    pos = position()
    for key, value in fields.items():
        if value is None:
            del pos[key]
        else:
            pos[key] = value
    return pos


def with_seat_value(key, seat, value):
    pos = position()
    pos[key] = dict(pos[key], **{seat: value})
    return pos


def with_team_value(key, team, value):
    pos = position()
    pos[key] = dict(pos[key], **{team: value})
    return pos


def reason_of(pos):
    with pytest.raises(RuleError) as caught:
        Game.from_position(pos)
    error = caught.value
    assert error.code == "invalid_position" and error.rule is None
    assert error.message == f"Invalid position: {error.params['reason']}."
    return error.params["reason"]


HEADER_CASES = [
    (changed(seed=None), "'seed' must be an integer or a string"),
    (changed(seed=1.5), "'seed' must be an integer or a string"),
    (changed(seed=True), "'seed' must be an integer or a string"),
    (changed(deal=0), "'deal' must be 1 to 4"),
    (changed(deal=5), "'deal' must be 1 to 4"),
    (changed(deal="1"), "'deal' must be 1 to 4"),
    (changed(deal=True), "'deal' must be 1 to 4"),
    (changed(dealer="S"), "the dealer of deal 1 is E (R8)"),
    (changed(phase="deal"), "'phase' must be draw, play or over"),
    (changed(turn=None), "'turn' is a seat, or null once the game is over"),
    (changed(turn="X"), "'turn' is a seat, or null once the game is over"),
    (changed(phase="over"), "'turn' is a seat, or null once the game is over"),
    (changed(scores={}), "'scores' is a list of finished deals"),
    (changed(scores=FOUR_DEALS + FOUR_DEALS[:1]), "'scores' is a list of finished deals"),
    (changed(scores=["deal"]), "'scores' is a list of finished deals"),
    (changed(phase="over", turn=None, scores=FOUR_DEALS), "a game is over only after the fourth deal is scored"),
    (changed(ply=-1), "'ply' is a count of actions"),
    (changed(ply="3"), "'ply' is a count of actions"),
    (changed(ply=False), "'ply' is a count of actions"),
]

CARD_CASES = [
    ("a position", "a position is a JSON object"),
    (changed(hands=None), "'hands' must name the seats S, W, N and E"),
    (changed(hands={"S": "", "W": "", "N": ""}), "'hands' must name the seats S, W, N and E"),
    (changed(feet=["S"]), "'feet' must name the seats S, W, N and E"),
    (with_seat_value("hands", "W", ["4C"]), "hand W must be a string of cards"),
    (with_seat_value("hands", "W", "4C 4X"), "hand W holds a card name that does not exist"),
    (with_seat_value("feet", "N", 13), "foot N must be a string of cards"),
    (changed(stock=None), "stock must be a string of cards"),
    (changed(discard="4C ZZ"), "discard holds a card name that does not exist"),
    (changed(melds=None), "'melds' must name the teams NS and EW"),
    (changed(melds={"NS": [], "EW": [], "XX": []}), "'melds' must name the teams NS and EW"),
    (changed(melds={"NS": "", "EW": []}), "melds of a team are a list"),
    (changed(melds={"NS": [7], "EW": []}), "meld of NS must be a string of cards"),
    (changed(red_threes={"NS": ""}), "'red_threes' must name the teams NS and EW"),
    (with_team_value("red_threes", "EW", "3D 3Q"), "red threes of EW holds a card name that does not exist"),
    (changed(down=None), "'down' must name the teams NS and EW"),
    (changed(down={"NS": 0, "EW": False}), "'down' holds true or false"),
]

TABLE_CASES = [
    (position(hands={"W": "3D 4C"}), "a red three is among W's cards (R34)"),
    (position(red_threes={"NS": "3D 3C"}), "only red threes are laid as red threes"),
    (
        position(melds={"EW": ["7C 2D 2H"]}),
        "a meld of EW is illegal: A meld needs at least twice as many natural cards as wild cards.",
    ),
    (position(melds={"NS": ["9C 9D 9H", "9S 9C 9D"]}), "NS has two incomplete melds of one rank (R20)"),
    (position(melds={"EW": ["9C 9D 9H"]}, down={"NS": False, "EW": False}), "EW has melds but is not down"),
    (
        position(hands={"S": "", "W": ""}, phase="draw"),
        "the player to act has an empty hand and has not picked up the foot (R25)",
    ),
]


@pytest.mark.parametrize("pos, reason", HEADER_CASES + CARD_CASES + TABLE_CASES)
def test_each_refused_position_gives_its_reason(pos, reason):  # R1, R8, R15, R20, R25, R34, R38
    assert reason_of(pos) == reason


def test_the_card_count_reason():  # R1
    pos = position()
    pos["stock"] = pos["stock"].split(" ", 1)[1]  # one card missing
    assert reason_of(pos) == "the cards are not exactly the 270 of five decks (R1)"
    pos = position()
    pos["discard"] += " 4C"  # one card too many
    assert reason_of(pos) == "the cards are not exactly the 270 of five decks (R1)"


@pytest.mark.parametrize("deal, dealer", [(2, "S"), (3, "W"), (4, "N")])
def test_the_dealer_reason_names_the_deal(deal, dealer):  # R8
    pos = position(deal=deal)
    pos["dealer"] = "E"
    assert reason_of(pos) == f"the dealer of deal {deal} is {dealer} (R8)"


def test_the_boundaries_that_are_accepted():  # R7, R55, R55a
    assert Game.from_position(changed(deal=4, dealer="N", turn="E")).deal == 4
    assert Game.from_position(changed(ply=0)).ply == 0
    assert Game.from_position(changed(seed="2026-12-01")).to_position()["seed"] == "2026-12-01"
    over = changed(deal=4, dealer="N", phase="over", turn=None, scores=FOUR_DEALS)
    assert Game.from_position(over).phase == "over"
    three = changed(scores=FOUR_DEALS[:3])
    assert len(Game.from_position(three).scores()["deals"]) == 3
    assert game_at(scores=[]).scores()["totals"] == {"NS": 0, "EW": 0}


def test_a_position_without_scores_or_ply_starts_them_at_none_and_zero():  # R55
    game = Game.from_position(changed(scores=None, ply=None))
    assert game.scores()["deals"] == [] and game.to_position()["ply"] == 0

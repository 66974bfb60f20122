"""The worked examples E1–E16 of docs/RULES.md §15, one test (or a few) each.

Unless an example says otherwise, the team is down and the player is in the hand.
"""

from collections import Counter

import pytest

from games.engine import Game, RuleError, card_points, meld_status, parse_cards

from .helpers import (
    DRAW,
    GOING_OUT_PILES,
    assert_accepted,
    assert_refused,
    cards,
    discard,
    game_at,
    hand_of,
    meld,
    melds_of,
    position,
    take,
)

DOWN = {"NS": ["AS AH AD"]}


def points(text):
    return sum(card_points(c) for c in parse_cards(text))


def south_plays(hand, melds=None, **kw):
    return game_at(hands={"S": hand}, phase="play", melds=melds if melds is not None else DOWN, **kw)


@pytest.mark.parametrize(
    "group, status, value",
    [
        ("9S 9H 9D", "incomplete", 30),
        ("KC KD JK", "incomplete", 70),
        ("QC QD QH QS QC 2H JK", "dirty", 120),
        ("2C 2D JK", "incomplete", 90),
        ("8C 8D 8H 8S 2C 2D", "incomplete", 80),
    ],
)
def test_e1_legal_melds(group, status, value):  # E1, R15, R16, R18
    assert meld_status(parse_cards(group)) == status
    assert points(group) == value
    game = south_plays(group + " 4H")
    assert game.check("S", meld(group)) == {"ok": True, "points": value}


@pytest.mark.parametrize("group", ["7C 2D 2H", "8C 8D 2H 2S", "8C 8D 8H 8S 2C 2D JK", "3C 3S 3C"])
def test_e2_illegal_melds(group):  # E2, R15, R17
    with pytest.raises(RuleError):
        meld_status(parse_cards(group))
    assert_refused(south_plays(group + " 4H"), "S", meld(group))


def test_e2_red_three_anywhere_and_an_eighth_card():  # E2, R34, R19
    with pytest.raises(RuleError):
        meld_status(parse_cards("3H 3H 3H"))
    game = south_plays("KS 4H", melds={"NS": ["KC KD KH KS KC KD KH"]})
    assert_refused(game, "S", meld("KS", to="K"), code=("pile_complete", "no_such_meld"), rule=("R19", "R21"))


def test_e3_adding_one_card_at_a_time():  # E3, R21, R22
    game = south_plays("2S JK 4S JK 4H 4D 6C", melds={"NS": ["AS AH AD", "4C 4D 4H"]})
    assert_accepted(game, "S", meld("2S", to="4"))
    assert_refused(game, "S", meld("JK", to="4"), code="too_many_wild")
    assert_accepted(game, "S", meld("4S", to="4"))
    assert_accepted(game, "S", meld("JK", to="4"))
    assert_accepted(game, "S", meld("4H", to="4"))
    assert game.view("S")["melds"]["NS"]["1"]["status"] == "dirty"
    assert_refused(game, "S", meld("4D", to="4"), code=("pile_complete", "no_such_meld"))


def test_e4_same_rank():  # E4, R20
    game = south_plays("JS JH 2C 6C", melds={"NS": ["AS AH AD", "JC JD JH"]})
    assert_refused(game, "S", meld("JS JH 2C"), code="duplicate_incomplete_meld")
    assert_accepted(game, "S", meld("JS JH 2C", to="J"))
    assert melds_of(game, "NS")[1] == Counter(cards("JC JD JH JS JH 2C"))
    game = south_plays("JC JD JS 6C", melds={"NS": ["AS AH AD", "JC JD JH JS JC JD JH"]})
    assert_accepted(game, "S", meld("JC JD JS"))
    game = south_plays("2H 2S JK 6C", melds={"NS": ["AS AH AD", "2C 2D JK"]})
    assert_refused(game, "S", meld("2H 2S JK"), code="duplicate_incomplete_meld")


@pytest.mark.parametrize(
    "groups, value, ok",
    [
        (["AC AD AH"], 60, True),
        (["KC KD KH"], 30, False),
        (["KC KD KH", "5C 5D 5H"], 45, False),
        (["KC KD KH", "8C 8D 2S"], 70, True),
    ],
)
def test_e5_first_meld_deal_1(groups, value, ok):  # E5, R37-R39
    game = game_at(hands={"S": " ".join(groups) + " 6C"}, phase="play")
    result = game.check("S", meld(*groups))
    if ok:
        assert result == {"ok": True, "points": value}
        assert_accepted(game, "S", meld(*groups))
    else:
        error = assert_refused(game, "S", meld(*groups), code="below_first_meld_minimum")
        assert error.params["points"] == value


@pytest.mark.parametrize(
    "groups, value, ok",
    [(["JK JK 2D"], 120, False), (["JK JK 2D", "AC AD AH"], 180, True), (["5C 5D 5H 5S 5C 5D 5H"], 35, False)],
)
def test_e6_first_meld_deal_4(groups, value, ok):  # E6, R37, R39
    game = game_at(deal=4, turn="E", hands={"E": " ".join(groups) + " 6C"}, phase="play")
    if ok:
        assert game.check("E", meld(*groups)) == {"ok": True, "points": value}
    else:
        error = assert_refused(game, "E", meld(*groups), code="below_first_meld_minimum")
        assert error.params["points"] == value and error.params["minimum"] == 150


def test_e7_taking_the_discard_pile():  # E7, R28, R29
    assert_accepted(game_at(hands={"S": "9C 9S 6C"}, discard="9D", melds=DOWN), "S", take("9C 9S"))
    assert_refused(game_at(hands={"S": "9C JK 6C"}, discard="9D", melds=DOWN), "S", take("9C JK"))
    assert_refused(
        game_at(hands={"S": "3C 3S 6C"}, discard="3S", melds=DOWN), "S", take("3C 3S"), code="pile_top_is_three"
    )
    game = game_at(hands={"S": "JK JK 6C"}, discard="JK", melds={"NS": ["AS AH AD", "2C 2D 2H"]})
    assert_accepted(game, "S", take("JK JK"))
    assert melds_of(game, "NS")[1] == Counter(cards("2C 2D 2H JK JK JK"))
    assert_refused(game_at(hands={"S": "JK JK 6C"}, discard="2H", melds=DOWN), "S", take("JK JK"))


@pytest.mark.parametrize("size, taken, stay", [(4, 4, 0), (12, 7, 5)])
def test_e7_how_many_cards_are_taken(size, taken, stay):  # E7, R28
    below = "4C 4D 5C 5D 6C 6D 7C 7D KC KD QC"
    pile = " ".join(cards(below)[: size - 1] + ["9D"])
    game = game_at(hands={"S": "9C 9S 6S"}, discard=pile, melds=DOWN)
    game.apply("S", take("9C 9S"))
    assert len(cards(game.to_position()["discard"])) == stay
    assert sum(hand_of(game, "S").values()) == 1 + taken - 1


def test_e8_taking_for_the_first_meld():  # E8, R40
    pile = "KH AS AH 9D"
    assert_refused(game_at(hands={"S": "9C 9S 6C"}, discard=pile), "S", take("9C 9S"), code="below_first_meld_minimum")
    game = game_at(hands={"S": "9C 9S 2H 6C"}, discard=pile)
    assert game.check("S", take("9C 9S 2H")) == {"ok": True, "points": 50}
    assert_accepted(game, "S", take("9C 9S 2H"))
    assert melds_of(game, "NS") == [Counter(cards("9D 9C 9S 2H"))]
    game = game_at(hands={"S": "9C 9S AC AD AH 6C"}, discard=pile)
    assert game.check("S", take("9C 9S", "AC AD AH")) == {"ok": True, "points": 90}
    assert_accepted(game, "S", take("9C 9S", "AC AD AH"))
    assert_accepted(game, "S", meld("AS AH", to="A"))  # the taken As join later in the turn


def test_e9_pickup_meld_beside_an_incomplete_meld():  # E9, R30
    game = game_at(hands={"S": "9C 9S 6C"}, discard="9D", melds={"NS": ["AS AH AD", "9C 9D 9H 9S"]})
    assert_accepted(game, "S", take("9C 9S"))
    assert melds_of(game, "NS")[1] == Counter(cards("9C 9D 9H 9S 9D 9C 9S"))
    assert game.view("S")["melds"]["NS"]["1"]["status"] == "clean"
    six = {"NS": ["AS AH AD", "9C 9D 9H 9S 9C 2D"]}
    assert_refused(game_at(hands={"S": "9C 9S 6C"}, discard="9D", melds=six), "S", take("9C 9S"))
    game = game_at(hands={"S": "9C 9S 9H 6C"}, discard="9D", melds=six)
    assert_accepted(game, "S", take("9C 9S 9H"))
    assert melds_of(game, "NS")[1:] == [Counter(cards("9C 9D 9H 9S 9C 2D 9D")), Counter(cards("9C 9S 9H"))]
    assert game.view("S")["melds"]["NS"]["1"]["status"] == "dirty"


FOOT = "3H KC KD KH KS QC QD QH QS JC JD JH TC"


def test_e10_into_the_foot_at_once():  # E10, R44, R45
    game = game_at(
        hands={"S": "7C 7D"}, feet={"S": FOOT}, phase="play", stock_top="5S", melds={"NS": ["AS AH AD", "7S 7H 7D"]}
    )
    events = assert_accepted(game, "S", meld("7C 7D", to="7"))
    assert [e["type"] for e in events].count("foot") == 1
    assert "3H" in cards(game.to_position()["red_threes"]["NS"])
    assert hand_of(game, "S") == Counter(cards(FOOT.replace("3H", "5S")))
    assert_accepted(game, "S", meld("KC KD KH"))
    assert_accepted(game, "S", discard("TC"))


def test_e10_into_the_foot_next_turn():  # E10, R44, R25
    game = game_at(
        hands={"S": "7C 7D"}, feet={"S": FOOT}, phase="play", stock_top="5S", melds={"NS": ["AS AH AD", "7S 7H 7D"]}
    )
    game.apply("S", meld("7C", to="7"))
    game.apply("S", discard("7D"))
    assert game.to_position()["feet"]["S"] is not None
    for seat in ("W", "N", "E"):
        game.apply(seat, DRAW)
        game.apply(seat, discard(cards(game.to_position()["hands"][seat])[0]))
    pos = game.to_position()
    assert pos["turn"] == "S" and pos["phase"] == "draw" and pos["feet"]["S"] is None
    assert len(cards(pos["hands"]["S"])) == 13


def test_e11_never_without_cards():  # E11, R47
    game = game_at(
        turn="N", hands={"N": "KC KD 5H"}, feet={"N": None}, phase="play", melds={"NS": ["AS AH AD", "KS KH KC KD"]}
    )
    assert_refused(game, "N", meld("KC KD", to="K"), code="must_keep_cards")
    assert_accepted(game, "N", meld("KC", to="K"))
    assert hand_of(game, "N") == Counter(cards("KD 5H"))
    assert_accepted(game, "N", discard("5H"))


def test_e12_going_out():  # E12, R48, R49
    melds = {"NS": GOING_OUT_PILES + ["QD QH QS QC"]}
    game = game_at(hands={"S": "QC QD 9S", "N": "9H 9D"}, feet={"S": None, "N": None}, phase="play", melds=melds)
    assert_accepted(game, "S", meld("QC QD", to="Q"))
    events = assert_accepted(game, "S", discard("9S"))
    assert any(e["type"] == "go_out" and e["seat"] == "S" for e in events)
    assert game.scores()["deals"][0]["NS"]["going_out"] == 100
    game = game_at(hands={"S": "QC QD 9S", "N": ""}, feet={"S": None}, phase="play", melds=melds)
    assert_refused(game, "S", meld("QC QD", to="Q"), rule=("R47", "R49"))


def test_e13_completing_the_requirement_in_the_same_turn():  # E13, R49b
    game = game_at(
        hands={"S": "JK 8C", "N": "9H 9D"},
        feet={"S": None, "N": None},
        phase="play",
        melds={"NS": GOING_OUT_PILES[:4] + ["2C 2D JK JK 2H 2S"]},
    )
    assert_accepted(game, "S", meld("JK", to="wild"))
    events = assert_accepted(game, "S", discard("8C"))
    assert any(e["type"] == "go_out" for e in events)


def test_e14_stock_nearly_empty():  # E14, R53
    game = game_at(turn="W", stock="KH", hands={"W": "5C 6C", "N": "9C 9S 4H"}, discard="8C 9D", melds=DOWN)
    game.apply("W", DRAW)
    assert game.to_position()["phase"] == "play" and game.to_position()["deal"] == 1
    game.apply("W", discard("5C"))
    assert game.options("N")["take_pile"] is False  # top 5C: North cannot take it
    events = game.apply("N", DRAW)
    end = next(e for e in events if e["type"] == "deal_end")
    assert end["reason"] == "stock" and end["score"]["NS"]["going_out"] == 0


def test_e14_take_instead_of_the_ending_draw():  # E14, R53(i)
    game = game_at(turn="N", stock="", hands={"N": "9C 9S 4H"}, discard="8C 9D", melds=DOWN)
    assert_accepted(game, "N", take("9C 9S"))
    assert game.to_position()["deal"] == 1


def test_e14_red_three_as_last_stock_card():  # E14, R53(iii)
    game = game_at(turn="W", stock="3D", hands={"W": "5C 6C"})
    events = game.apply("W", DRAW)
    assert any(e["type"] == "red_three" and e["card"] == "3D" for e in events)
    assert next(e for e in events if e["type"] == "deal_end")["reason"] == "stock"


def test_e15_upcard():  # E15, R12
    from .test_deal import reference_deal, seed_where

    seed = seed_where(lambda d: d[104] == "3H" and d[105] == "JK", limit=200000)
    pos = Game.new(seed=seed).to_position()
    ref = reference_deal(seed, 1)
    assert cards(pos["discard"]) == [ref["upcard"]] and ref["upcard"] not in ("3H", "3D", "JK")
    seed = seed_where(lambda d: d[104] == "3S")
    game = Game.new(seed=seed)
    assert cards(game.to_position()["discard"]) == ["3S"]
    assert game.options("S")["take_pile"] is False


def test_e16_scoring_a_whole_deal():  # E16, R54
    pos = position(
        turn="S",
        phase="play",
        hands={"S": "9S", "N": "7C JD", "W": "AC 9D 9H 2C", "E": "7S 3C KD"},
        feet={"S": None, "N": None, "W": None, "E": "3H JK 2D AS KC QC JC TC 9C 8C 7C 6C 5C"},
        melds={
            "NS": [
                "KC KD KH KS KC KD KH",
                "5C 5D 5H 5S 5C 5D 5H",
                "QC QD QH QS QC 2H 2S",
                "8C 8D 8H 8S 8C 8D JK",
                "2C 2D 2H 2S JK JK JK",
                "AC AD AH",
            ],
            "EW": ["TC TD TH TS TC TD TH", "JC JD JH JS JC 2D JK", "6C 6D 6H", "4C 4D 2S"],
        },
        red_threes={"NS": "3H 3D", "EW": "3D"},
    )
    game = Game.from_position(pos)
    assert game.options("S")["may_go_out"] is True
    events = game.apply("S", discard("9S"))
    deal = game.scores()["deals"][0]
    assert deal["NS"] == {
        "melded": 595,
        "cards_left": -15,
        "red_threes": 200,
        "piles": 3100,
        "going_out": 100,
        "total": 3980,
    }
    assert deal["EW"]["melded"] == 235 and deal["EW"]["piles"] == 800
    assert deal["EW"]["cards_left"] == -(60 + 20 + 165)
    assert deal["EW"]["red_threes"] == 100 - 100
    assert deal["EW"]["going_out"] == 0 and deal["EW"]["total"] == 790
    assert next(e for e in events if e["type"] == "deal_end")["score"] == deal
    assert game.scores()["totals"] == {"NS": 3980, "EW": 790}

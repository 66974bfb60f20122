"""Scoring a deal (docs/RULES.md §12), against an independent count of the position's cards."""

from games.engine import Game

from .helpers import DRAW, cards, position

VALUE = {
    "JK": 50,
    "2": 20,
    "A": 20,
    "8": 10,
    "9": 10,
    "T": 10,
    "J": 10,
    "Q": 10,
    "K": 10,
    "4": 5,
    "5": 5,
    "6": 5,
    "7": 5,
}  # R4


def value(card):
    if card == "JK":
        return 50
    if card in ("3H", "3D"):
        return 0
    if card[0] == "3":
        return 5
    return VALUE[card[0]]


def total(text):
    return sum(value(c) for c in cards(text))


FEET = {
    "S": "4C 4D 4S 5C 5D 5S 6C 6D 6S 7D 7S 8C 8D",
    "W": "3H 9S TS JS QS KS AS 2S JK 4H 5H 6H 7H",
}
HANDS = {"S": "4H 3C", "N": "AS JK", "W": "TC", "E": "7C"}
MELDS = {"NS": ["KC KD KH KS KC KD KH", "QC QD QH QS QC 2H JK", "2C 2D JK"], "EW": ["2C 2D 2H 2S JK JK JK", "9C 9D 9H"]}


def scored_deal(**kw):
    """Deal 1 ended by South's draw on an empty stock, and the position it ended from."""
    pos = position(stock="", **kw)
    game = Game.from_position(pos)
    game.apply("S", DRAW)
    return pos, game, game.scores()["deals"][0]


def test_every_item_of_a_deal_score():  # R54
    pos, _game, score = scored_deal(
        hands=HANDS, feet={"S": FEET["S"], "W": FEET["W"], "N": None, "E": None}, melds=MELDS
    )
    laid = {t: len(cards(pos["red_threes"][t])) for t in ("NS", "EW")}
    expected_ns = {
        "melded": 70 + 120 + 90,
        "cards_left": -(total(HANDS["S"]) + total(FEET["S"]) + total(HANDS["N"])),
        "red_threes": 100 * laid["NS"],
        "piles": 500 + 300,
        "going_out": 0,
    }
    expected_ew = {
        "melded": 230 + 30,
        "cards_left": -(total(HANDS["W"]) + total(FEET["W"]) + total(HANDS["E"])),
        "red_threes": 100 * laid["EW"] - 100,  # the 3H still in West's foot
        "piles": 1500,
        "going_out": 0,
    }
    for team, expected in (("NS", expected_ns), ("EW", expected_ew)):
        for item, amount in expected.items():
            assert score[team][item] == amount, (team, item)
        assert score[team]["total"] == sum(expected.values())


def test_piles_score_500_clean_300_dirty_1500_wild():  # R54
    melds = {
        "NS": ["KC KD KH KS KC KD KH", "5C 5D 5H 5S 5C 5D 5H", "QC QD QH QS QC 2H JK", "2C 2D 2H 2S JK JK JK"],
        "EW": [],
    }
    _, _, score = scored_deal(melds=melds)
    assert score["NS"]["piles"] == 500 + 500 + 300 + 1500
    assert score["EW"]["piles"] == 0


def test_a_deal_score_can_be_negative_without_extra_penalty():  # R55
    pos, _, score = scored_deal(
        hands={"W": "JK JK AS AD", "E": "2C 2D"},
        feet={"W": None, "E": None},
        down={"NS": False, "EW": False},
        spare_red_threes="NS",
    )
    laid = len(cards(pos["red_threes"]["EW"]))
    assert laid == 0
    assert score["EW"]["melded"] == 0 and score["EW"]["piles"] == 0
    assert score["EW"]["cards_left"] == -(140 + 40)
    assert score["EW"]["total"] == -(140 + 40) + 100 * laid
    assert score["EW"]["total"] < 0


def test_deal_scores_add_up_over_the_game():  # R55
    earlier = [
        {
            "NS": {"melded": 0, "cards_left": 0, "red_threes": 0, "piles": 0, "going_out": 0, "total": 1234},
            "EW": {"melded": 0, "cards_left": 0, "red_threes": 0, "piles": 0, "going_out": 0, "total": -56},
        }
    ]
    pos = position(deal=2, stock="", scores=earlier)
    game = Game.from_position(pos)
    game.apply("W", DRAW)
    scores = game.scores()
    assert len(scores["deals"]) == 2 and scores["deals"][0] == earlier[0]
    for team in ("NS", "EW"):
        assert scores["totals"][team] == sum(d[team]["total"] for d in scores["deals"])
    assert game.view("S")["scores"] == scores

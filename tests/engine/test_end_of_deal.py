"""End of a deal (docs/RULES.md §11, R55a, R56): going out, the empty stock, the next deal, game over."""

from collections import Counter

from games.engine import Game

from .helpers import (
    DRAW,
    FIRST_PLAYER_OF_DEAL,
    GOING_OUT_PILES,
    assert_accepted,
    assert_refused,
    cards,
    discard,
    exhaust_stock,
    game_at,
    hand_of,
    meld,
    position,
    take,
)
from .test_deal import assert_dealt_as_reference

DOWN = {"NS": ["AC AD AH"]}


def test_going_out_ends_the_deal_at_once():  # R51a, R48
    game = game_at(
        hands={"S": "QC QD", "N": "9H 9D"},
        feet={"S": None, "N": None},
        phase="play",
        melds={"NS": GOING_OUT_PILES + ["QD QH QS QC"]},
    )
    events = game.apply("S", meld("QC QD", to="Q"))
    kinds = [e["type"] for e in events]
    assert kinds.index("go_out") < kinds.index("deal_end") < kinds.index("deal_start")
    assert len(game.scores()["deals"]) == 1


def test_the_deal_end_carries_the_finished_table_with_no_hidden_card():  # R51a, R54
    game = game_at(
        hands={"S": "QC QD", "N": "9H 9D 5C"},
        feet={"S": None, "N": None},
        phase="play",
        melds={"NS": GOING_OUT_PILES + ["QD QH QS QC"]},
    )
    events = game.apply("S", meld("QC QD", to="Q"))
    table = next(e for e in events if e["type"] == "deal_end")["table"]
    assert table["deal"] == 1 and game.deal == 2  # the table is the finished deal's, not the next one's
    queens = [m for m in table["melds"]["NS"].values() if m["rank"] == "Q" and m["status"] == "incomplete"]
    assert Counter(queens[0]["cards"]) == Counter(cards("QD QH QS QC QC QD"))  # the going-out meld
    assert table["seats"]["S"]["cards"] == 0 and table["seats"]["N"] == {"cards": 3, "foot": 0, "in_foot": True}
    assert not {"hand", "hands", "feet", "options", "seed"} & set(table)  # counted, never shown


def test_an_empty_stock_at_the_draw_ends_the_deal():  # R51b, R53(i)
    game = game_at(stock="", hands={"S": "9C 4H"})
    assert game.options("S")["draw"] is True
    events = game.apply("S", DRAW)
    end = next(e for e in events if e["type"] == "deal_end")
    assert end["reason"] == "stock" and end["deal"] == 1
    assert game.to_position()["deal"] == 2


def test_no_discard_and_no_going_out_bonus_when_the_stock_ends_the_deal():  # R52
    game = game_at(stock="", hands={"S": "9C 4H"}, melds={"NS": GOING_OUT_PILES}, feet={"S": None, "N": None})
    events = game.apply("S", DRAW)
    assert not any(e["type"] == "discard" for e in events)
    score = game.scores()["deals"][0]
    assert score["NS"]["going_out"] == 0 and score["EW"]["going_out"] == 0
    assert score["NS"]["cards_left"] < 0  # the cards S and N still hold count against them


def test_empty_stock_the_pile_may_still_be_taken():  # R53(i)
    game = game_at(stock="", hands={"S": "9C 9S 4H"}, discard="5C 9D", melds=DOWN)
    # The stock="" helper puts the left-over cards under the discard pile; the top is still 9D.
    assert game.options("S")["take_pile"] is True
    assert_accepted(game, "S", take("9C 9S"))
    assert game.to_position()["deal"] == 1 and game.to_position()["phase"] == "play"


def test_one_stock_card_is_drawn_and_the_turn_goes_on():  # R53(ii), E14
    game = game_at(stock="KH", hands={"S": "9C 4H"})
    game.apply("S", DRAW)
    pos = game.to_position()
    assert pos["deal"] == 1 and pos["phase"] == "play" and pos["stock"] == ""
    assert hand_of(game, "S") == Counter(cards("9C 4H KH"))
    game.apply("S", discard("4H"))
    game.apply("W", DRAW)  # the next draw finds the stock empty: the deal ends
    assert game.to_position()["deal"] == 2


def test_a_red_three_as_the_last_stock_card_is_laid_and_ends_the_deal():  # R53(iii), E14
    pos = position(stock="3H", hands={"S": "9C 4H"})
    laid = len(cards(pos["red_threes"]["NS"]))
    game = Game.from_position(pos)
    events = game.apply("S", DRAW)
    assert any(e["type"] == "red_three" and e["card"] == "3H" for e in events)
    assert next(e for e in events if e["type"] == "deal_end")["reason"] == "stock"
    assert game.scores()["deals"][0]["NS"]["red_threes"] == 100 * (laid + 1)


def test_a_red_three_replaced_by_the_last_card_the_player_plays_on():  # R53(i), R53(ii)
    game = game_at(stock="3H KH", hands={"S": "9C 4H"})
    game.apply("S", DRAW)
    pos = game.to_position()
    assert pos["deal"] == 1 and pos["phase"] == "play"
    assert hand_of(game, "S") == Counter(cards("9C 4H KH"))
    assert "3H" in cards(pos["red_threes"]["NS"])


def test_a_red_three_in_a_foot_picked_up_on_an_empty_stock_ends_the_deal():  # R53(iii), R45
    foot = "3H KC KD KH KS QC QD QH QS JC JD JH JS"
    game = game_at(stock="", hands={"S": "7C 7D"}, feet={"S": foot}, phase="play", melds={"NS": ["7S 7H 7D"]})
    events = game.apply("S", meld("7C 7D", to="7"))
    assert next(e for e in events if e["type"] == "deal_end")["reason"] == "stock"
    assert game.to_position()["deal"] == 2


def test_the_next_deal_starts_afresh():  # R55a
    game = game_at(seed=77, stock="", melds={"NS": ["AC AD AH"], "EW": ["KC KD KH"]})
    game.apply("S", DRAW)
    pos = game.to_position()
    assert pos["deal"] == 2 and pos["dealer"] == "S" and pos["turn"] == "W" and pos["phase"] == "draw"
    assert pos["melds"] == {"NS": [], "EW": []}
    assert pos["down"] == {"NS": False, "EW": False}
    assert all(pos["feet"][s] is not None for s in "SWNE")
    assert len(pos["scores"]) == 1
    assert_dealt_as_reference(pos, 77, 2)  # from deal 2's own shuffle (R57)


def test_after_deal_four_the_game_is_over_and_every_action_refused():  # R55a, R56
    game = game_at(deal=4, stock="")
    game.apply("E", DRAW)
    pos = game.to_position()
    assert pos["phase"] == "over" and game.turn is None and pos["deal"] == 4
    for seat in "SWNE":
        assert not any(v for k, v in game.options(seat).items() if k != "minimum")
        assert_refused(game, seat, DRAW, code="game_over", rule="R55a")
        assert_refused(game, seat, discard("4C"), code="game_over")


def four_deal_scores(ns, ew):
    blank = {"melded": 0, "cards_left": 0, "red_threes": 0, "piles": 0, "going_out": 0}
    return [{"NS": {**blank, "total": a}, "EW": {**blank, "total": b}} for a, b in zip(ns, ew, strict=True)]


def finish_game(previous):
    game = game_at(deal=4, stock="", scores=previous)
    game.apply("E", DRAW)
    return game


def test_the_higher_total_wins():  # R56
    game = finish_game(four_deal_scores([3000, 2000, 1000], [0, 0, 0]))
    totals = game.scores()["totals"]
    assert totals["NS"] > totals["EW"]
    assert game.view("S")["winner"] == "NS"
    assert game.public_view()["winner"] == "NS"


def test_equal_totals_are_a_draw():  # R56
    probe = finish_game(four_deal_scores([0, 0, 0], [0, 0, 0]))
    last = probe.scores()["deals"][3]
    gap = last["NS"]["total"] - last["EW"]["total"]
    game = finish_game(four_deal_scores([0, 0, 0], [gap, 0, 0]))
    assert game.scores()["totals"]["NS"] == game.scores()["totals"]["EW"]
    assert game.view("S")["winner"] == "draw"


def test_game_over_event():  # R56
    game = game_at(deal=4, stock="", scores=four_deal_scores([500, 0, 0], [0, 0, 0]))
    events = game.apply("E", DRAW)
    over = next(e for e in events if e["type"] == "game_over")
    assert over["totals"] == game.scores()["totals"]
    assert over["winner"] in ("NS", "EW", "draw")


def test_four_deals_chained():  # R7, R55a
    game = Game.new(seed=8)
    for deal in (1, 2, 3, 4):
        assert game.to_position()["deal"] == deal
        game = Game.from_position(exhaust_stock(game.to_position()))
        game.apply(FIRST_PLAYER_OF_DEAL[deal], DRAW)
    assert game.to_position()["phase"] == "over"
    assert len(game.scores()["deals"]) == 4


def test_a_red_three_as_the_second_card_of_the_last_two_ends_the_deal():  # R53(iii)
    game = game_at(stock="9C 3H", hands={"S": "9D 4H"})
    events = game.apply("S", DRAW)
    assert next(e for e in events if e["type"] == "deal_end")["reason"] == "stock"
    assert game.to_position()["deal"] == 2


def test_deal_start_event_matches_the_new_deal():  # R55a
    game = game_at(seed=12, stock="")
    events = game.apply("S", DRAW)
    start = next(e for e in events if e["type"] == "deal_start")
    pos = game.to_position()
    assert (start["deal"], start["dealer"], start["turn"]) == (2, pos["dealer"], pos["turn"])
    assert start["upcard"] == cards(pos["discard"])[-1]


def test_ply_counts_one_for_the_action_that_ends_a_deal():
    game = game_at(stock="", ply=41)
    game.apply("S", DRAW)
    assert game.to_position()["ply"] == 42


def test_a_red_three_in_a_foot_picked_up_as_the_turn_passes_on_an_empty_stock():  # R53(iii), R25
    foot = "3D KC KD KH KS QC QD QH QS JC JD JH JS"
    game = game_at(stock="", turn="E", phase="play", hands={"S": "", "E": "5C 6C 7C"}, feet={"S": foot})
    events = game.apply("E", discard("5C"))
    kinds = [e["type"] for e in events]
    assert kinds.index("foot") < kinds.index("red_three") < kinds.index("deal_end")
    assert next(e for e in events if e["type"] == "deal_end")["reason"] == "stock"


def test_going_out_in_deal_four_ends_the_game():  # R48, R55a, R56
    game = game_at(
        deal=4,
        turn="E",
        phase="play",
        hands={"E": "QC QD", "W": "9H 9D"},
        feet={"E": None, "W": None},
        melds={"EW": GOING_OUT_PILES + ["QD QH QS QC"]},
    )
    events = game.apply("E", meld("QC QD", to="Q"))
    assert [e["type"] for e in events][-1] == "game_over"
    assert game.to_position()["phase"] == "over" and game.turn is None
    assert game.scores()["deals"][0]["EW"]["going_out"] == 100
    assert game.view("S")["winner"] == "EW"


def test_east_west_win_with_the_higher_total():  # R56
    game = finish_game(four_deal_scores([0, 0, 0], [5000, 0, 0]))
    assert game.scores()["totals"]["EW"] > game.scores()["totals"]["NS"]
    assert game.view("S")["winner"] == "EW"

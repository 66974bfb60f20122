"""The turn (docs/RULES.md §5): start (foot pickup), compulsory draw, melds, one discard."""

from collections import Counter

from games.engine import Game

from .helpers import (
    DRAW,
    assert_accepted,
    assert_refused,
    cards,
    discard,
    game_at,
    hand_of,
    meld,
    position,
)

DOWN = {"NS": ["AC AD AH"]}


def test_the_draw_is_compulsory_before_a_discard():  # R25
    game = game_at(hands={"S": "9C 9D 4H"})
    assert_refused(game, "S", discard("4H"), code="must_draw_first", rule=("R25", "R26"))


def test_a_discard_ends_the_turn_and_the_next_seat_draws():  # R25, R6
    game = game_at(hands={"S": "9C 9D 4H"}, phase="play")
    events = assert_accepted(game, "S", discard("4H"))
    pos = game.to_position()
    assert pos["turn"] == "W" and pos["phase"] == "draw"
    assert cards(pos["discard"])[-1] == "4H"
    assert hand_of(game, "S") == Counter(["9C", "9D"])
    assert {"type": "discard", "seat": "S", "card": "4H"} in events
    assert any(e["type"] == "turn" and e["seat"] == "W" for e in events)


def test_exactly_one_discard_per_turn():  # R25
    game = game_at(hands={"S": "9C 9D 4H"}, phase="play")
    game.apply("S", discard("4H"))
    assert_refused(game, "S", discard("9C"), code="not_your_turn")


def test_any_active_card_may_be_discarded_wild_or_black_three():  # R25
    for card in ("JK", "2C", "3C"):
        game = game_at(hands={"S": f"{card} 9C 9D 4H"}, phase="play")
        assert_accepted(game, "S", discard(card))


def test_the_foot_is_picked_up_as_the_turn_passes_to_an_empty_hand():  # R25 step 1, R44
    game = game_at(
        hands={"S": "4H"},
        feet={"S": "KC KD KH KS QC QD QH QS JC JD JH JS TC"},
        phase="play",
        stock_top="5C 5D 6C 6D 7C 7D",
    )
    game.apply("S", discard("4H"))
    pos = game.to_position()
    assert pos["hands"]["S"] == "" and pos["feet"]["S"] is not None  # not yet: S is not to play
    for seat in ("W", "N", "E"):
        game.apply(seat, DRAW)
        events = game.apply(seat, discard(cards(game.to_position()["hands"][seat])[0]))
    pos = game.to_position()
    assert pos["turn"] == "S" and pos["phase"] == "draw"
    assert pos["feet"]["S"] is None
    assert hand_of(game, "S") == Counter(cards("KC KD KH KS QC QD QH QS JC JD JH JS TC"))
    assert any(e["type"] == "foot" and e["seat"] == "S" and e["count"] == 13 for e in events)
    assert game.view("S")["seats"]["S"]["in_foot"] is True


def test_no_draw_after_drawing():  # R26
    game = game_at(hands={"S": "9C 9D 4H"})
    game.apply("S", DRAW)
    assert_refused(game, "S", DRAW, code="already_drew", rule="R26")


def test_no_draw_after_melding():  # R26
    game = game_at(hands={"S": "9C 9D 9H 4H"}, phase="play", melds=DOWN)
    game.apply("S", meld("9C 9D 9H"))
    assert_refused(game, "S", DRAW, code="already_drew", rule="R26")
    assert_refused(game, "S", {"type": "take_pile", "cards": ["9C", "9D"]}, rule=("R26", "R24"))


def test_several_meld_actions_in_one_turn():  # R25 step 3
    game = game_at(hands={"S": "9C 9D 9H 5C 5D 5H 4H 4S"}, phase="play", melds=DOWN)
    assert_accepted(game, "S", meld("9C 9D 9H"))
    assert_accepted(game, "S", meld("5C 5D 5H"))
    assert_accepted(game, "S", discard("4H"))


def test_draw_takes_the_top_two_stock_cards():  # R27
    game = game_at(hands={"S": "9C 9D 4H"}, stock_top="KH 5C QD")
    stock_before = cards(game.to_position()["stock"])
    events = assert_accepted(game, "S", DRAW)
    pos = game.to_position()
    assert hand_of(game, "S") == Counter(cards("9C 9D 4H KH 5C"))
    assert cards(pos["stock"]) == stock_before[2:]
    assert pos["phase"] == "play" and pos["turn"] == "S"
    drawn = [e for e in events if e["type"] == "draw"]
    assert sum(e["count"] for e in drawn) == 2
    assert sorted(c for e in drawn for c in e.get("cards", [])) == ["5C", "KH"]


def test_a_red_three_drawn_is_laid_and_replaced():  # R27, R34
    game = game_at(hands={"S": "9C 9D 4H"}, stock_top="3H KH 5C QD")
    events = game.apply("S", DRAW)
    pos = game.to_position()
    assert hand_of(game, "S") == Counter(cards("9C 9D 4H KH 5C"))
    assert cards(pos["red_threes"]["NS"]) == ["3H"]
    assert cards(pos["stock"])[0] == "QD"
    assert {"type": "red_three", "seat": "S", "card": "3H"} in events


def test_two_red_threes_in_a_row_are_both_laid():  # R27, R34
    game = game_at(hands={"S": "9C 9D 4H"}, stock_top="KH 3D 3H 5C QD")
    game.apply("S", DRAW)
    pos = game.to_position()
    assert hand_of(game, "S") == Counter(cards("9C 9D 4H KH 5C"))
    assert Counter(cards(pos["red_threes"]["NS"])) == Counter(["3D", "3H"])
    assert cards(pos["stock"])[0] == "QD"


def test_a_draw_of_two_is_one_event():  # R27, VIEW.md events
    game = game_at(hands={"S": "9C 9D 4H"}, stock_top="KH 5C QD")
    events = game.apply("S", DRAW)
    assert [e for e in events if e["type"] == "draw"] == [
        {"type": "draw", "seat": "S", "count": 2, "cards": ["KH", "5C"]}
    ]


def test_a_red_three_drawn_is_followed_by_a_replacement_draw_event():  # R27, R34
    game = game_at(hands={"S": "9C 9D 4H"}, stock_top="3H KH 5C QD")
    events = game.apply("S", DRAW)
    kinds = [e["type"] for e in events]
    at = kinds.index("red_three")
    assert events[at + 1]["type"] == "draw" and events[at + 1]["count"] == 1
    assert events[at + 1] == {"type": "draw", "seat": "S", "count": 1, "cards": ["KH"], "replacement": True}
    assert sum(e["count"] for e in events if e["type"] == "draw") == 3  # 3H, its replacement, 5C


def test_a_red_three_as_the_second_card_drawn_joins_the_draw_event_then_is_replaced():  # R27, R34
    game = game_at(hands={"S": "9C 9D 4H"}, stock_top="KH 3D 5C QD")
    events = game.apply("S", DRAW)
    assert events == [
        {"type": "draw", "seat": "S", "count": 2, "cards": ["KH", "3D"]},
        {"type": "red_three", "seat": "S", "card": "3D"},
        {"type": "draw", "seat": "S", "count": 1, "cards": ["5C"], "replacement": True},
    ]
    assert hand_of(game, "S") == Counter(cards("9C 9D 4H KH 5C"))


def test_the_last_two_cards_of_the_stock_are_drawn_as_one_event():  # R27, R53
    pos = position(hands={"S": "9C 9D 4H"}, stock="KH 5C")
    game = Game.from_position(pos)
    assert game.apply("S", DRAW) == [{"type": "draw", "seat": "S", "count": 2, "cards": ["KH", "5C"]}]
    assert game.to_position()["stock"] == ""

"""options(seat) and check(seat, action) as docs/VIEW.md defines them."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .helpers import DRAW, GOING_OUT_PILES, SEATS, discard, game_at, meld, take

ALL_OFF = {
    "draw": False,
    "take_pile": False,
    "pile_cards": [],
    "meld": False,
    "add_to": {},
    "discard": False,
    "may_go_out": False,
    "undo": False,
}


def off(options):
    return {k: v for k, v in options.items() if k != "minimum"}


def test_everything_off_when_it_is_not_the_seats_turn():
    game = game_at(hands={"W": "9C 9S 4H"}, discard="9D", melds={"EW": ["KC KD KH"]})
    for seat in ("W", "N", "E"):
        assert off(game.options(seat)) == ALL_OFF


def test_draw_phase_options():  # R25
    game = game_at(hands={"S": "9C 9S 4H"}, discard="5C 9D", melds={"NS": ["AC AD AH"]})
    options = game.options("S")
    assert options["draw"] is True and options["take_pile"] is True
    assert options["meld"] is False and options["discard"] is False
    assert sorted(options["pile_cards"]) == ["9C", "9S"]


def test_play_phase_options():  # R25, R26
    game = game_at(hands={"S": "9C 9S 4H"}, discard="5C 9D", phase="play", melds={"NS": ["AC AD AH"]})
    options = game.options("S")
    assert options["draw"] is False and options["take_pile"] is False
    assert options["meld"] is True and options["discard"] is True


def test_pile_cards_once_per_copy_held():  # R29b
    game = game_at(hands={"S": "9C 9C 9S JK 2H 4H"}, discard="9D", melds={"NS": ["AC AD AH"]})
    assert sorted(game.options("S")["pile_cards"]) == ["9C", "9C", "9S"]


def test_take_pile_false_when_no_choice_reaches_the_minimum():  # R29d, R40
    game = game_at(hands={"S": "9C 9S 4H"}, discard="9D")
    assert game.options("S")["take_pile"] is False
    assert game.options("S")["minimum"] == 50


def test_take_pile_true_when_groups_from_the_hand_reach_the_minimum():  # R40
    game = game_at(hands={"S": "9C 9S AC AD AH 4H"}, discard="9D")
    assert game.options("S")["take_pile"] is True


def test_take_pile_false_with_a_three_on_top_or_no_pair():  # R29a, R29b
    assert game_at(hands={"S": "3C 3S 4H"}, discard="3C", melds={"NS": ["AC AD AH"]}).options("S")["take_pile"] is False
    assert game_at(hands={"S": "9C JK 4H"}, discard="9D", melds={"NS": ["AC AD AH"]}).options("S")["take_pile"] is False


def test_add_to_lists_the_cards_each_incomplete_meld_would_take():  # R21
    game = game_at(
        hands={"S": "4S JK 2H 9C 3C"}, phase="play", melds={"NS": ["4C 4D 4H 2S", "2C 2D JK", "KC KD KH KS KC KD KH"]}
    )
    add_to = game.options("S")["add_to"]
    assert set(add_to) == {"4", "wild"}  # a pile takes nothing (R19)
    assert sorted(add_to["4"]) == ["4S"]  # a second wild card would break 3:1 -> 3:2 (R15)
    assert sorted(add_to["wild"]) == ["2H", "JK"]


def test_add_to_is_empty_before_the_draw():
    game = game_at(hands={"S": "4S"}, melds={"NS": ["4C 4D 4H"]})
    assert game.options("S")["add_to"] == {}


def test_minimum_is_zero_once_down():  # R41
    game = game_at(hands={"S": "9C 4H"}, melds={"NS": ["AC AD AH"]})
    assert game.options("S")["minimum"] == 0
    assert game.options("N")["minimum"] == 0


def test_may_go_out():  # R49
    game = game_at(
        hands={"S": "QC QD 9S", "N": "9H 9D"}, feet={"S": None, "N": None}, phase="play", melds={"NS": GOING_OUT_PILES}
    )
    assert game.options("S")["may_go_out"] is True
    game = game_at(hands={"S": "QC QD 9S", "N": "9H 9D"}, feet={"S": None}, phase="play", melds={"NS": GOING_OUT_PILES})
    assert game.options("S")["may_go_out"] is False


def test_options_are_json_ready_and_in_the_view():
    import json

    game = game_at(hands={"S": "9C 9S 4H"}, discard="9D", melds={"NS": ["AC AD AH"]})
    assert json.loads(json.dumps(game.options("S"))) == game.options("S")
    assert game.view("S")["options"] == game.options("S")


def test_check_reports_the_points_of_the_melds_laid():
    game = game_at(hands={"S": "KC KD KH 8C 8D 2S 4H"}, phase="play")
    assert game.check("S", meld("KC KD KH", "8C 8D 2S")) == {"ok": True, "points": 70}
    game = game_at(hands={"S": "9C 9S 2H 4H"}, discard="9D")
    assert game.check("S", take("9C 9S 2H")) == {"ok": True, "points": 50}


def test_check_of_draw_and_discard():
    game = game_at(hands={"S": "9C 4H"})
    assert game.check("S", DRAW)["ok"] is True
    assert game.check("S", discard("4H"))["ok"] is False


def test_check_refusal_shape():
    game = game_at(hands={"S": "9C 4H"})
    result = game.check("W", DRAW)
    assert result["ok"] is False
    assert set(result) == {"ok", "code", "message", "rule", "params"}
    assert result["code"] == "not_your_turn" and result["rule"] == "R24"


@pytest.mark.parametrize("seat", SEATS)
def test_check_never_changes_the_game(seat):
    game = game_at(hands={"S": "9C 9S 9H 4H"}, discard="9D", melds={"NS": ["AC AD AH"]})
    before = game.to_position()
    for action in (DRAW, take("9C 9S"), meld("9C 9S 9H"), discard("4H"), {"type": "x"}):
        game.check(seat, action)
        assert game.to_position() == before


def test_take_pile_true_when_only_a_smaller_lay_down_keeps_two_foot_cards():  # R40, R47
    # South is in the foot and not down. Taking with every group (9s, As and Ks: 120) would
    # leave no card, but the 9s with the As (90) keep KC KD KH: that take is legal.
    game = game_at(hands={"S": "9C 9S AC AD AH KC KD KH"}, feet={"S": None}, discard="9D")
    assert game.check("S", take("9C 9S", "AC AD AH"))["ok"] is True
    assert game.options("S")["take_pile"] is True


def test_the_foot_cap_counts_the_other_cards_taken():  # R31, R40, R47
    # Two cards in the pile: the one under the top joins South's cards. The best take (100) lays
    # all six foot cards and keeps only 5C; 9C 9S with the As (90) keeps 9H and 5C.
    game = game_at(hands={"S": "9C 9S 9H AC AD AH"}, feet={"S": None}, discard="5C 9D")
    assert game.check("S", take("9C 9S 9H", "AC AD AH"))["code"] == "must_keep_cards"
    assert game.check("S", take("9C 9S", "AC AD AH"))["ok"] is True
    assert game.options("S")["take_pile"] is True


def test_take_pile_true_when_the_bigger_take_would_empty_the_foot():  # R40, R47
    # Found by the exhaustive search below: 9D 9D 2C with the top 9D make 50 and keep 9C 9C.
    game = game_at(hands={"S": "9C 9C 9D 9D 2C"}, feet={"S": None}, discard="9D")
    assert game.check("S", take("9D 9D 2C"))["ok"] is True
    assert game.options("S")["take_pile"] is True


def matches_top(card, top):
    """R29b: a joker takes two jokers, a 2 two 2s, a natural two naturals of its rank."""
    if top == "JK":
        return card == "JK"
    if top[0] == "2":
        return card[0] == "2"
    return card != "JK" and card[0] == top[0]


POOL = ("9C 9D 9H 9S 9C 9D AC AD AH AS KC KD KH 5C 5D 5H 2C 2D 2H JK JK 3C 7S").split()


def random_case(data):
    """A hand (3 to 10 cards of a small pool), a top card, a deal, down or not, hand or foot."""
    hand = data.draw(st.lists(st.sampled_from(POOL), min_size=3, max_size=10))
    hand = [c for i, c in enumerate(hand) if hand[:i].count(c) < POOL.count(c)]
    top = data.draw(st.sampled_from(["9D", "AH", "KS", "5S", "2S", "JK", "7C"]))
    return dict(
        hand=hand,
        top=top,
        deal=data.draw(st.integers(1, 4)),
        down=data.draw(st.booleans()),
        in_foot=data.draw(st.booleans()),
        below=data.draw(st.sampled_from(["", "4C", "4C 6D 8H"])),
    )


def case_game(case, phase, melds=None):
    seat = {1: "S", 2: "W", 3: "N", 4: "E"}[case["deal"]]
    team = "NS" if seat in "NS" else "EW"
    melds = {team: melds if melds is not None else (["TC TD TH"] if case["down"] else [])}
    return seat, game_at(
        deal=case["deal"],
        hands={seat: " ".join(case["hand"])},
        feet={seat: None} if case["in_foot"] else {},
        discard=(case["below"] + " " + case["top"]).strip(),
        phase=phase,
        melds=melds,
    )


@settings(max_examples=60, deadline=None, database=None, derandomize=True)
@given(data=st.data())
def test_take_pile_option_agrees_with_an_exhaustive_search(data):  # R29, R40, R47
    from collections import Counter

    from .test_perft import draw_phase_actions

    case = random_case(data)
    seat, game = case_game(case, "draw")
    family = draw_phase_actions(Counter(case["hand"]), case["top"])
    legal = [a for a in family if a["type"] == "take_pile" and game.check(seat, a)["ok"]]
    options = game.options(seat)
    if legal:
        assert options["take_pile"] is True, legal[0]
    matching = sorted(c for c in case["hand"] if matches_top(c, case["top"]))
    assert sorted(options["pile_cards"]) == matching


@settings(max_examples=60, deadline=None, database=None, derandomize=True)
@given(data=st.data())
def test_add_to_option_agrees_with_check(data):  # R21, R47
    case = random_case(data)
    melds = ["9C 9D 9H", "AC AD 2D", "KC KD KH KS KC KD KH", "2H JK JK"]
    seat, game = case_game(case, "play", melds=melds)
    add_to = game.options(seat)["add_to"]
    for rank in ("9", "A", "K", "wild"):
        for card in sorted(set(case["hand"])):
            ok = game.check(seat, meld(card, to=rank))["ok"]
            assert ok == (card in add_to.get(rank, [])), (rank, card, add_to)


@pytest.mark.parametrize(
    "deal, hand, top, expected",
    [
        (1, "2C 2D 4H", "2S", True),  # 2S 2C 2D = 60
        (1, "JK JK 4H", "JK", True),  # 150
        (1, "JK JK 4H", "2S", False),  # jokers do not match a 2
        (1, "2C 2D 4H", "JK", False),  # 2s do not match a joker
        (4, "2C 2D 4H", "2S", False),  # 60 < 150
        (4, "2C 2D JK JK 4H", "2S", True),  # 2S 2C 2D JK JK = 160
        (4, "2C 2D AC AD AH KC KD KH", "2S", True),  # 60 + 60 + 30 = 150 with two groups
        (4, "2C 2D AC AD AH 4H", "2S", False),  # 120
    ],
)
def test_take_pile_option_for_a_wild_top_before_the_first_meld(deal, hand, top, expected):  # R29b, R40
    seat = {1: "S", 4: "E"}[deal]
    game = game_at(deal=deal, hands={seat: hand}, discard="5C " + top)
    assert game.options(seat)["take_pile"] is expected


def test_take_pile_option_counts_a_whole_pile_of_one_rank_from_the_hand():  # R40, R39
    # Deal 2 (90): only the top 9D with 9C 9S (30), all seven 5s as a clean pile (35) and the five
    # 7s (25) reach 90 exactly; a search that melds six 5s at most would miss it.
    hand = "9C 9S 5C 5D 5H 5S 5C 5D 5H 7C 7D 7H 7S 7C"
    game = game_at(deal=2, hands={"W": hand}, discard="4C 9D")
    legal = take("9C 9S", "5C 5D 5H 5S 5C 5D 5H", "7C 7D 7H 7S 7C")
    assert game.check("W", legal) == {"ok": True, "points": 90}
    assert game.check("W", take("9C 9S", "5C 5D 5H 5S 5C 5D", "7C 7D 7H 7S 7C"))["ok"] is False
    assert game.options("W")["take_pile"] is True


def test_pile_cards_for_a_two_on_top_are_the_other_twos():  # R29b
    game = game_at(hands={"S": "2C 9C JK 2S 4H"}, discard="5C 2H", melds={"NS": ["AC AD AH"]})
    assert sorted(game.options("S")["pile_cards"]) == ["2C", "2S"]


def test_take_pile_option_when_only_a_pair_with_a_wild_card_fits():  # R29b, R30, R15
    # The 9 meld has room for one card: the top completes it and the pair alone would be a new
    # meld of two (R15); the pair with the joker makes it a legal meld of three.
    game = game_at(hands={"S": "4H 9C 9S JK 6D"}, discard="5C 9D", melds={"NS": ["9C 9D 9H 9S 9C 9D"]})
    assert game.check("S", take("9C 9S"))["ok"] is False
    assert game.check("S", take("9C 9S JK"))["ok"] is True
    assert game.options("S")["take_pile"] is True


def test_an_answer_changed_by_its_caller_does_not_change_the_next_one():  # VIEW.md options
    game = game_at(hands={"W": "9C 9S 4H"}, discard="9D", melds={"EW": ["KC KD KH"]})
    first = game.options("W")
    first["add_to"]["K"] = ["KS"]
    first["pile_cards"].append("9C")
    assert off(game.options("W")) == ALL_OFF
    assert off(game.options("N")) == ALL_OFF


NEAR_OUT_MELDS = [
    "4C 4D 4H 4S 4C 4D 4H",
    "5C 5D 5H 5S 5C 5D 5H",
    "6C 6D 6H 6S 6C 2D 2H",
    "2C 2S 2D 2H JK JK JK",
    "9C 9D 9H 9S 9C 9D",
    "KC KD KH 2C",
]


@pytest.mark.parametrize("hand", ["9H", "9H 2S", "9H KS", "9H 2S JK", "KS 7D", "9H 9S"])
@pytest.mark.parametrize("partner_in_foot", [True, False])
def test_options_agree_with_check_in_the_foot_with_few_cards(hand, partner_in_foot):  # R47, R49, R21
    # North–South lack one dirty pile: completing the 9s makes a clean one, the Ks with a 2 left
    # incomplete; whether one card may be left or none depends on R49 after the addition.
    game = game_at(
        hands={"S": hand},
        feet={"S": None, "N": None if partner_in_foot else "7H 7S 8C"},
        phase="play",
        melds={"NS": NEAR_OUT_MELDS},
        discard="4H",
    )
    options = game.options("S")
    for rank in ("9", "K", "wild"):
        for card in sorted(set(hand.split())):
            ok = game.check("S", meld(card, to=rank))["ok"]
            assert ok == (card in options["add_to"].get(rank, [])), (rank, card, options["add_to"])
    assert options["discard"] == any(game.check("S", discard(c))["ok"] for c in hand.split())

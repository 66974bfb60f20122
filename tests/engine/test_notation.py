"""Position notation (docs/NOTATION.md) and the seat view (docs/VIEW.md): exact round trips, refusal of
impossible positions, and views that show a seat exactly what it may see."""

import json
from collections import Counter

import pytest

from games.engine import Game, RuleError, redact_events

from .helpers import (
    DRAW,
    GOING_OUT_PILES,
    SEATS,
    cards,
    count_all_cards,
    discard,
    game_at,
    position,
)

VIEW_KEYS = {
    "seat",
    "ply",
    "deal",
    "dealer",
    "turn",
    "phase",
    "first_meld_minimum",
    "hand",
    "seats",
    "stock",
    "discard",
    "discard_blocked",
    "melds",
    "piles",
    "going_out_needs",
    "red_threes",
    "down",
    "scores",
    "winner",
    "options",
}
HOUSE_RULES_KEYS = {"rules"}  # in the view of a game of house rules only (VIEW.md)
OPTION_KEYS = {"draw", "take_pile", "pile_cards", "meld", "add_to", "minimum", "discard", "may_go_out", "undo"}


def test_new_game_position_round_trips():
    pos = Game.new(seed=3).to_position()
    assert Game.from_position(pos).to_position() == pos
    assert json.loads(json.dumps(pos)) == pos  # JSON-ready


def test_built_position_round_trips_exactly():
    pos = position(
        hands={"S": "9C 9S 7H"},
        feet={"N": None},
        discard="4C 9D",
        phase="draw",
        melds={"NS": ["KC KD KH", "2C 2D JK"], "EW": ["5C 5D 5H 5S 5C 5D 5H"]},
        red_threes={"NS": "3H", "EW": "3D 3D"},
        ply=17,
    )
    assert Game.from_position(pos).to_position() == pos


def test_position_keys():
    pos = Game.new(seed=3).to_position()
    for key in (
        "seed",
        "deal",
        "dealer",
        "turn",
        "phase",
        "hands",
        "feet",
        "stock",
        "discard",
        "melds",
        "red_threes",
        "down",
        "scores",
        "ply",
    ):
        assert key in pos
    assert isinstance(pos["ply"], int)


def test_ply_counts_applied_actions():
    game = Game.new(seed=3)
    game.apply("S", DRAW)
    assert game.to_position()["ply"] == 1 and game.view("S")["ply"] == 1


def corrupt(**changes):
    pos = position(hands={"S": "9C 9S 7H"})
    pos.update(changes)
    return pos


@pytest.mark.parametrize(
    "bad",
    [
        lambda p: {**p, "stock": p["stock"].split(" ", 1)[1]},  # 269 cards
        lambda p: {**p, "stock": p["stock"] + " 9C"},  # 271 cards
        lambda p: {**p, "stock": p["stock"].replace("4C", "4X", 1)},  # not a card
        lambda p: {**p, "turn": "X"},
        lambda p: {**p, "phase": "thinking"},
        lambda p: {**p, "deal": 5},
        lambda p: {k: v for k, v in p.items() if k != "hands"},
        "not a dict",
    ],
)
def test_impossible_positions_are_refused(bad):  # R1, R22
    base = position(hands={"S": "9C 9S 7H"})
    with pytest.raises(RuleError) as caught:
        Game.from_position(bad(base) if callable(bad) else bad)
    assert caught.value.code == "invalid_position"


@pytest.mark.parametrize(
    "melds",
    [
        {"NS": ["7C 2D 2H"], "EW": []},  # R15
        {"NS": ["9C 9D 9H", "9S 9C 9D"], "EW": []},  # R20
        {"NS": ["3C 3S 3C"], "EW": []},  # R17
        {
            "NS": [
                "2C 2D",
            ],
            "EW": [],
        },
    ],
)  # R16 (two cards)
def test_positions_with_illegal_melds_are_refused(melds):  # R15-R20
    with pytest.raises(RuleError) as caught:
        Game.from_position(position(melds=melds))
    assert caught.value.code == "invalid_position"


def test_a_red_three_in_a_hand_is_refused():  # R34
    with pytest.raises(RuleError) as caught:
        Game.from_position(position(hands={"W": "3D 4C"}))
    assert caught.value.code == "invalid_position"


def test_the_player_to_draw_with_an_empty_hand_and_unpicked_foot_is_refused():  # R25 step 1
    with pytest.raises(RuleError) as caught:
        Game.from_position(position(hands={"S": ""}, phase="draw"))
    assert caught.value.code == "invalid_position"


def test_an_empty_hand_with_the_foot_waiting_is_fine_for_another_seat():  # R44
    pos = position(hands={"W": ""}, phase="draw")
    assert Game.from_position(pos).to_position() == pos


def hidden_cards_absent(game, seat):
    """The view of `seat` shows its own active cards and public cards only (VIEW.md)."""
    pos = game.to_position()
    view = game.view(seat)
    assert set(view) <= VIEW_KEYS | HOUSE_RULES_KEYS
    assert Counter(view["hand"]) == Counter(cards(pos["hands"][seat]))
    assert isinstance(view["stock"], int) and view["stock"] == len(cards(pos["stock"]))
    assert view["discard"] == cards(pos["discard"])
    text = json.dumps(view)
    assert '"seed"' not in text
    own = Counter(cards(pos["hands"][seat]))
    options = view["options"]
    assert not Counter(options["pile_cards"]) - own  # only the seat's own cards
    assert all(code in own for codes in options["add_to"].values() for code in codes)
    if seat != pos["turn"]:  # VIEW.md: all false/empty when it is not the seat's turn
        assert not any(v for k, v in options.items() if k != "minimum")
    for other in SEATS:
        expected_foot = 0 if pos["feet"][other] is None else len(cards(pos["feet"][other]))
        assert view["seats"][other] == {
            "cards": len(cards(pos["hands"][other])),
            "foot": expected_foot,
            "in_foot": pos["feet"][other] is None,
        }


def test_view_shows_only_what_the_seat_may_see():
    game = game_at(
        hands={"S": "9C 9S 7H", "W": "AC AD AH AS KH"}, feet={"N": None}, melds={"NS": ["KC KD KH"]}, discard="4C 9D"
    )
    for seat in SEATS:
        hidden_cards_absent(game, seat)
    view = game.view("S")
    assert "AS" not in json.dumps({k: v for k, v in view.items() if k != "discard"})
    assert set(view["options"]) == OPTION_KEYS


@pytest.mark.parametrize("seat", SEATS)
def test_view_names_its_seat(seat):
    game = game_at()
    assert game.view(seat)["seat"] == seat


def test_an_invalid_position_says_why():
    with pytest.raises(RuleError) as caught:
        Game.from_position(position(hands={"W": "3D 4C"}))
    reason = caught.value.params.get("reason")
    assert isinstance(reason, str) and reason in caught.value.message and caught.value.rule is None


def test_view_meld_shape():
    game = game_at(melds={"NS": ["KC KD KH", "2C 2D 2H 2S JK JK JK"], "EW": []})
    melds = game.view("S")["melds"]
    assert melds["NS"]["0"] == {"cards": ["KC", "KD", "KH"], "rank": "K", "status": "incomplete"}
    assert melds["NS"]["1"]["rank"] == "wild" and melds["NS"]["1"]["status"] == "wild"
    assert melds["EW"] == {}


def test_public_view_has_no_hand_and_no_options():
    game = Game.new(seed=3)
    public = game.public_view()
    assert "hand" not in public and "options" not in public and "seat" not in public
    assert '"seed"' not in json.dumps(public)
    seat_view = game.view("S")
    for key in public:
        assert public[key] == seat_view[key], key


def test_events_are_redacted_for_other_seats():
    game = game_at(hands={"S": "9C 9D 4H"}, stock_top="KH 5C")
    events = game.apply("S", DRAW)
    mine = [e for e in redact_events(events, "S") if e["type"] == "draw"]
    theirs = [e for e in redact_events(events, "W") if e["type"] == "draw"]
    assert sorted(c for e in mine for c in e["cards"]) == ["5C", "KH"]
    assert all("cards" not in e or not e["cards"] for e in theirs)
    assert sum(e["count"] for e in theirs) == 2


def test_foot_pickup_event_shows_no_faces_to_others():  # R9, R43
    game = game_at(hands={"S": "7C 7D"}, phase="play", melds={"NS": ["7S 7H 7D"]})
    events = game.apply("S", {"type": "meld", "groups": [{"cards": ["7C", "7D"], "to": "7"}]})
    foot_cards = set(cards(game.to_position()["hands"]["S"]))
    for e in redact_events(events, "W"):
        if e["type"] in ("foot", "draw"):
            assert not e.get("cards")
    assert foot_cards


def test_count_all_cards_after_actions():  # R1
    game = game_at(hands={"S": "9C 9D 4H"}, phase="play")
    game.apply("S", discard("4H"))
    count_all_cards(game.to_position())


def test_going_out_position_round_trips():
    pos = position(
        hands={"S": "QC QD 9S", "N": "9H 9D"},
        feet={"S": None, "N": None},
        phase="play",
        melds={"NS": GOING_OUT_PILES + ["QD QH QS QC"]},
    )
    assert Game.from_position(pos).to_position() == pos


@pytest.mark.parametrize(
    "key, value",
    [
        ("hands", None),
        ("hands", {"S": 5, "W": "", "N": "", "E": ""}),
        ("feet", {"S": 5, "W": None, "N": None, "E": None}),
        ("melds", {"NS": "x", "EW": []}),
        ("melds", {"NS": [5], "EW": []}),
        ("red_threes", {"NS": None, "EW": ""}),
        ("red_threes", {"NS": "9C", "EW": ""}),
        ("down", {"NS": 1, "EW": 0}),
        ("ply", -1),
        ("ply", "3"),
        ("stock", None),
        ("discard", 5),
        ("seed", 1.5),
        ("seed", None),
        ("dealer", "S"),
        ("scores", "none"),
        ("scores", [1]),
    ],
)
def test_malformed_position_fields_are_refused(key, value):
    pos = position()
    pos[key] = value
    with pytest.raises(RuleError) as caught:
        Game.from_position(pos)
    assert caught.value.code == "invalid_position"


def test_melds_without_being_down_are_refused():  # R38
    with pytest.raises(RuleError) as caught:
        Game.from_position(position(melds={"NS": ["9C 9D 9H"]}, down={"NS": False, "EW": False}))
    assert caught.value.code == "invalid_position"


@pytest.mark.parametrize("scores", [[{"NS": {}, "EW": {}}], [{}], [{"NS": {"total": "x"}, "EW": {"total": 1}}]])
def test_malformed_scores_are_refused_or_harmless(scores):  # R55
    try:
        game = Game.from_position(position(scores=scores))
    except RuleError as error:
        assert error.code == "invalid_position"  # noqa: PT017 -- either outcome is allowed
        return
    game.scores()
    game.view("S")


def test_an_empty_discard_pile_is_not_blocked():  # R29a
    game = game_at(discard="")
    assert game.view("S")["discard_blocked"] is False and game.view("S")["discard"] == []
    assert game.options("S")["take_pile"] is False


@pytest.mark.parametrize("deal, minimum", [(1, 50), (2, 90), (3, 120), (4, 150)])
def test_view_first_meld_minimum(deal, minimum):  # R37
    assert game_at(deal=deal).view("S")["first_meld_minimum"] == minimum


def test_a_returned_position_is_a_copy():
    game = game_at(
        scores=[
            {
                "NS": {"melded": 0, "cards_left": 0, "red_threes": 0, "piles": 0, "going_out": 0, "total": 10},
                "EW": {"melded": 0, "cards_left": 0, "red_threes": 0, "piles": 0, "going_out": 0, "total": 20},
            }
        ],
        deal=2,
    )
    before = game.to_position()
    handed_out = game.to_position()
    handed_out["scores"][0]["NS"]["total"] = 999
    handed_out["melds"]["NS"].append("9C 9D 9H")
    handed_out["hands"]["S"] = ""
    assert game.to_position() == before
    assert game.scores()["totals"] == {"NS": 10, "EW": 20}


def test_from_position_does_not_keep_the_callers_dict():
    pos = position(
        deal=2,
        scores=[
            {
                "NS": {"melded": 0, "cards_left": 0, "red_threes": 0, "piles": 0, "going_out": 0, "total": 10},
                "EW": {"melded": 0, "cards_left": 0, "red_threes": 0, "piles": 0, "going_out": 0, "total": 20},
            }
        ],
    )
    game = Game.from_position(pos)
    pos["scores"][0]["NS"]["total"] = 999
    assert game.scores()["totals"]["NS"] == 10


@pytest.mark.parametrize(
    "scores, reason",
    [
        ([{"NS": {"total": 5}}], "a deal score names the teams NS and EW"),
        ([{"NS": {"total": 5}, "EW": {"melded": 5}}], "a team's deal score holds whole numbers, with a 'total'"),
        ([{"NS": {"total": 5}, "EW": {"total": True}}], "a team's deal score holds whole numbers, with a 'total'"),
    ],
)
def test_a_malformed_deal_score_says_why(scores, reason):  # R54, R55
    with pytest.raises(RuleError) as caught:
        Game.from_position(position(scores=scores))
    assert caught.value.code == "invalid_position" and caught.value.params == {"reason": reason}


def test_view_counts_each_kind_of_pile():  # R18, R49b
    game = game_at(
        melds={
            "NS": ["4C 4D 4H 4S 4C 4D 4H", "5C 5D 5H 5S 5C 5D 5H", "6C 6D 6H 6S 6C 2D 2H", "KC KD KH"],
            "EW": ["2C 2S 2D 2H JK JK JK"],
        }
    )
    view = game.view("S")
    assert view["piles"] == {"NS": {"clean": 2, "dirty": 1, "wild": 0}, "EW": {"clean": 0, "dirty": 0, "wild": 1}}
    assert [m["status"] for m in view["melds"]["NS"].values()] == ["clean", "clean", "dirty", "incomplete"]

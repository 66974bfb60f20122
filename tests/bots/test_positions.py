"""Named positions where a good partner must do the right thing; each is played by the normal
and by the hard bot (at the live budget, as it plays), for the seat S's whole turn."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.bots import make_bot
from games.engine import Game
from games.engine.records import Action

from .support import bot_turn, game_at, partner_waits_in_foot, score_line

NS_PILES = [
    "KC KD KH KS KC KD KH",
    "QC QD QH QS QC QD QH",  # 2 clean
    "8C 8D 8H 8S 8C 2C 2D",
    "TC TD TH TS TC TD JK",  # 2 dirty
    "2H 2S JK JK 2H 2S JK",
]  # 1 wild (R49b met)
BIG_DISCARD = "5C 8D 7H JS QC KD"


def bots():
    return [make_bot("normal", seed=3), make_bot("hard", seed=3)]


def first_of(actions, kind):
    return next((a for a in actions if a["type"] == kind), None)


def cards_melded(actions):
    return [c for a in actions if a["type"] == "meld" for g in a["groups"] for c in g["cards"]]


def ready_to_go_out(deal=1, scores=None, ew_melds=None, partner_hand="4C 5C 6C", **extra):
    """S and N in the foot, NS with 2 clean, 2 dirty and 1 wild pile and an incomplete J meld."""
    return game_at(
        deal=deal,
        turn="S",
        phase="play",
        hands={"S": "JC JD 9S", "N": partner_hand},
        feet={"S": None, "N": None},
        melds={"NS": NS_PILES + ["JC JD JH JS"], "EW": ew_melds or ["9C 9D 9H"]},
        scores=scores or [],
        **extra,
    )


def went_out(game, team="NS"):
    return any(d[team]["going_out"] for d in game.scores()["deals"])


# name -> (build the game, check S's actions and the game after them)
CASES: dict[str, Callable[[], tuple[Game, Callable[[list[Action], Game], bool]]]] = {}


def case(name):
    def register(function):
        CASES[name] = function
        return function

    return register


@case("take_a_big_discard_pile")  # R28–R30
def _take_big_pile():
    game = game_at(
        turn="S",
        phase="draw",
        hands={"S": "9C 9S 4H 6D KC QS JD TH"},
        discard=BIG_DISCARD + " 9D",
        melds={"NS": ["AC AD AH"], "EW": ["4C 4D 4S"]},
    )
    return game, lambda actions, g: actions[0]["type"] == "take_pile"


@case("take_the_pile_to_make_the_first_meld")  # R40, E8
def _take_for_first_meld():
    game = game_at(turn="S", phase="draw", hands={"S": "KC KS AC AD AH 4H 6D 7S TS"}, discard=BIG_DISCARD[:-3] + " KD")
    return game, lambda actions, g: actions[0]["type"] == "take_pile" and g.to_position()["down"]["NS"]


@case("take_a_small_pile_that_finishes_a_pile")  # R30, E9
def _take_small_pile():
    game = game_at(
        turn="S", phase="draw", hands={"S": "QC QS 4H 6D 8S"}, discard="QD", melds={"NS": ["QC QD QH QS"], "EW": []}
    )
    return game, lambda actions, g: actions[0]["type"] == "take_pile"


@case("take_a_joker_topped_pile_with_two_jokers")  # R29b, E7
def _take_joker_top():
    game = game_at(
        turn="S",
        phase="draw",
        hands={"S": "JK JK 4H 6D 8S TC"},
        discard="5C 8D 7H QC JK",
        melds={"NS": ["AC AD AH"], "EW": []},
    )
    return game, lambda actions, g: actions[0]["type"] == "take_pile"


@case("lay_the_first_meld_when_it_reaches_the_minimum")  # R37, E5
def _first_meld():
    game = game_at(turn="S", phase="play", hands={"S": "AC AD AH 4H 6D 7S TS JC QD"})
    return game, lambda actions, g: g.to_position()["down"]["NS"] and {"AC", "AD", "AH"} <= set(cards_melded(actions))


@case("use_a_wild_card_to_reach_the_minimum")  # R37, R39 (deal 2: 90)
def _first_meld_with_wild():
    game = game_at(deal=2, turn="S", phase="play", hands={"S": "AC AD AH JK 5C 6D 9S TS QD"})
    return game, lambda actions, g: g.to_position()["down"]["NS"] and "JK" in cards_melded(actions)


@case("first_meld_of_deal_four_with_a_wild_meld")  # R37, E6 (150)
def _first_meld_deal_four():
    game = game_at(
        deal=4, turn="S", phase="play", hands={"S": "JK JK 2D AC AD AH 5S 9C"}, scores=[score_line(100, 100)] * 3
    )
    return game, lambda actions, g: g.to_position()["down"]["NS"]


@case("no_meld_below_the_minimum")  # R37, E5: 45 < 50
def _no_meld_below_minimum():
    game = game_at(turn="S", phase="play", hands={"S": "KC KD KH 5C 5D 5H 9S"})
    return game, lambda actions, g: [a["type"] for a in actions] == ["discard"]


@case("add_a_natural_to_the_team_meld")  # R21
def _add_natural():
    game = game_at(turn="S", phase="play", hands={"S": "9C 4H 6D KC QS JD TH"}, melds={"NS": ["9H 9D 9S"], "EW": []})
    return game, lambda actions, g: any(
        grp.get("to") == "9" and "9C" in grp["cards"] for a in actions if a["type"] == "meld" for grp in a["groups"]
    )


@case("start_a_meld_from_three_of_a_kind")  # R15
def _new_triple():
    game = game_at(turn="S", phase="play", hands={"S": "QC QD QS 4H 6D 8C TS"}, melds={"NS": ["AC AD AH"], "EW": []})
    return game, lambda actions, g: {"QC", "QD", "QS"} <= set(cards_melded(actions))


@case("meld_everything_to_reach_the_foot")  # R44, E10
def _rush_into_foot():
    game = game_at(turn="S", phase="play", hands={"S": "KS 9C 9D 2H"}, melds={"NS": ["KC KD KH"], "EW": []})
    return (
        game,
        lambda actions, g: (
            actions[0]["type"] == "meld"
            and g.view("S")["seats"]["S"]["in_foot"]
            and first_of(actions, "discard") is not None
        ),
    )


@case("reach_the_foot_while_the_partner_waits_in_theirs")  # R44, R49c
def _partner_waits():
    game = partner_waits_in_foot()
    return game, lambda actions, g: g.view("S")["seats"]["S"]["in_foot"]


@case("keep_two_cards_in_the_foot")  # R47, E11
def _keep_two():
    game = game_at(
        turn="S", phase="play", hands={"S": "KC KD 5H"}, feet={"S": None}, melds={"NS": ["KS KH KC KD"], "EW": []}
    )
    return (
        game,
        lambda actions, g: (
            g.view("S")["seats"]["S"]["cards"] >= 1 and sum(1 for c in cards_melded(actions) if c[0] == "K") == 1
        ),
    )


@case("keep_pairs_to_take_the_pile")  # R29b
def _keep_pairs():
    game = game_at(turn="S", phase="play", hands={"S": "8C 8D 4H 6S JC KD TS"}, melds={"NS": ["AC AD AH"], "EW": []})
    return game, lambda actions, g: actions[-1]["type"] == "discard" and actions[-1]["card"][0] != "8"


@case("discard_a_singleton_not_half_a_pair")
def _singleton():
    game = game_at(
        turn="S", phase="play", hands={"S": "8C 8D KS 4H 4D"}, discard="9C", melds={"NS": ["AC AD AH"], "EW": []}
    )
    return game, lambda actions, g: actions == [{"type": "discard", "card": "KS"}]


@case("black_three_onto_a_big_pile")  # R36
def _black_three():
    game = game_at(
        turn="S",
        phase="play",
        hands={"S": "3C 4H 6S JC KD TS 9D"},
        discard=BIG_DISCARD + " 9H 4C",
        melds={"NS": ["AC AD AH"], "EW": ["QD QH QS"]},
    )
    return game, lambda actions, g: actions == [{"type": "discard", "card": "3C"}]


@case("discard_a_dead_rank_not_a_live_one")  # R29b
def _dead_rank():
    game = game_at(
        turn="S",
        phase="play",
        hands={"S": "KC 5D 7H 9S JC"},
        discard="5H 5S 4C 8C TD QH",
        melds={"NS": ["5C 5D 5H 5S 5C 5D 5H", "5S 5C 5D 5H 5S 5C 5D"], "EW": ["KH KD KS KC"]},
    )
    return game, lambda actions, g: actions == [{"type": "discard", "card": "5D"}]


@case("do_not_feed_the_rank_the_opponents_collect")  # R29b
def _opponent_rank():
    game = game_at(
        turn="S",
        phase="play",
        hands={"S": "KC 6D"},
        feet={"S": "4C 4D 4H 4S 5C 5D 5H 5S 7C 7D 7H 7S 8C"},
        discard="6C 6H 6S 4C 8D TH",
        melds={"NS": ["AC AD AH"], "EW": ["KH KD KS KC KH"]},
    )
    return game, lambda actions, g: actions == [{"type": "discard", "card": "6D"}]


@case("never_throw_away_a_wild_card")  # R15, R16
def _keep_wild():
    game = game_at(
        turn="S", phase="play", hands={"S": "JK 4H 6S JC"}, discard="9C 8D", melds={"NS": ["AC AD AH"], "EW": []}
    )
    return game, lambda actions, g: actions[-1]["type"] == "discard" and actions[-1]["card"] != "JK"


@case("wild_card_to_the_wild_meld_not_the_clean_one")  # R18, R49b
def _wild_to_wild_meld():
    game = game_at(
        turn="S",
        phase="play",
        hands={"S": "2H 4H 6S JC 9D"},
        melds={"NS": ["KC KD KH KS KC KD", "2C 2D JK JK"], "EW": []},
    )

    def good(actions, g):
        groups = [grp for a in actions if a["type"] == "meld" for grp in a["groups"]]
        return any(grp.get("to") == "wild" and "2H" in grp["cards"] for grp in groups) and not any(
            grp.get("to") == "K" for grp in groups
        )

    return game, good


@case("guard_a_clean_meld_when_clean_piles_are_needed")  # R18, R49b
def _guard_clean():
    game = game_at(
        turn="S", phase="play", hands={"S": "JK 4H 6S JC 9D QC"}, melds={"NS": ["7C 7D 7H 7S 7C 7D"], "EW": []}
    )
    return (
        game,
        lambda actions, g: "JK" not in cards_melded(actions) and actions[-1] != {"type": "discard", "card": "JK"},
    )


@case("go_out_when_it_wins_the_game")  # R48, R49, R56
def _go_out_to_win():
    game = ready_to_go_out(deal=4, scores=[score_line(4000, 3600)] * 3)
    return game, lambda actions, g: g.turn is None and g.view("S")["winner"] == "NS" and went_out(g)


@case("do_not_go_out_to_lose_the_game")  # R50, R56
def _no_out_to_lose():
    game = ready_to_go_out(deal=4, scores=[score_line(2000, 6000)] * 3)
    return game, lambda actions, g: g.turn is not None and not went_out(g)


@case("go_out_when_the_partner_holds_little")  # R48, R54
def _go_out_partner_little():
    game = ready_to_go_out(partner_hand="4C 5C 6C")
    return game, lambda actions, g: went_out(g)


@case("go_out_when_the_opponents_are_close_to_going_out")  # R49b, R54
def _go_out_opponents_close():
    ew = [
        "4C 4D 4H 4S 4C 4D 4H",
        "5C 5D 5H 5S 5C 5D 5H",
        "6C 6D 6H 6S 6C 2D 2H",
        "9C 9D 9H 9S 9C JK JK",
        "JK JK JK 2S 2C 2D 2C",
    ]
    game = ready_to_go_out(partner_hand="4S 5S 6S 7S 8H 9H TH JH QH KH AS AC", ew_melds=ew)
    return game, lambda actions, g: went_out(g)


@case("do_not_go_out_while_the_partner_holds_a_big_hand")  # R50, R54
def _no_out_big_hand():
    strong_ew = [
        "4C 4D 4H 4S 4C 4D 4H",
        "5C 5D 5H 5S 5C 5D 5H",
        "6C 6D 6H 6S 6C 6D 6H",
        "7C 7D 7H 7S 7C 7D 7H",
        "9C 9D 9H 9S 9C 9D 9H",
        "2C 2D 2H 2S 2C 2D 2H",
        "JK JK JK JK 2S 2C 2D",
    ]
    # EW are in their feet with six cards each: going out would cost NS the partner's sixteen
    # cards and cost EW little. (With EW still holding 13 cards and an unpicked 13-card foot
    # each, going out is right after all: rollouts to the end of the deal gain +507 ± 137
    # points for it, 48 worlds, because EW's 52 cards would count against them, R35, R54.)
    game = game_at(
        deal=1,
        turn="S",
        phase="play",
        hands={
            "S": "JC JD 9S",
            "N": "4S 5S 6S 7S 8H 9H TH JH QH KH AS AC AD AH 8C TC",
            "W": "8D TD QD KD AD 8S",
            "E": "8H TH QC KC AC 8C",
        },
        feet=dict.fromkeys("SWNE"),
        melds={"NS": NS_PILES + ["JC JD JH JS"], "EW": strong_ew},
    )
    return game, lambda actions, g: not went_out(g) and g.turn is not None


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_named_position(name, level):
    bot = bots()[0 if level == "normal" else 1]
    game, good = CASES[name]()
    actions = bot_turn(game, "S", bot)
    assert actions, "the bot did nothing"
    assert good(actions, game), actions


def test_there_are_at_least_twenty_named_positions():
    assert len(CASES) >= 20
